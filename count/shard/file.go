package shard

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/internal/atomicfile"
	"github.com/nqcount/nqcount/internal/readfile"
)

// Format is the value of File.Format written by this package.
const Format = "nqcount-shard/2"

// LegacyFormat is the format of files written before every result carried
// a checksum. Read accepts them with File.Legacy set.
const LegacyFormat = "nqcount-shard/1"

// Bounds on what a result file may hold, checked before anything is read
// or allocated from what it claims.
const (
	// MaxFileSize is the largest result file Read accepts.
	MaxFileSize = 64 << 20
	// MaxTasks is the largest number of tasks a run may have (package
	// queens plans at most as many).
	MaxTasks = 1 << 22
	// MaxResults is the most results one file holds: what MaxFileSize
	// leaves room for, after a header of at most headerBytes, at
	// resultBytes each (the longest result Write writes, checked by the
	// tests). A count of more tasks than this is split into shards.
	MaxResults = (MaxFileSize - headerBytes) / resultBytes

	headerBytes = 1 << 20
	resultBytes = 180
)

// TaskResult is one task's result in a shard file.
type TaskResult struct {
	ID    int    `json:"id"`
	Count uint64 `json:"count"`
	Nodes uint64 `json:"nodes"`
}

// Sum returns the result's checksum: the SHA-256, in hex, of the line
//
//	nqcount-shard/2 task=ID count=COUNT nodes=NODES
//
// Anyone can recompute it: it detects a file damaged or edited by hand,
// not one edited on purpose.
func (r TaskResult) Sum() string {
	h := sha256.Sum256(fmt.Appendf(nil, "%s task=%d count=%d nodes=%d", Format, r.ID, r.Count, r.Nodes))
	return hex.EncodeToString(h[:])
}

// MarshalJSON writes the result with its checksum (Sum), so that every
// file holding results carries them, an export of a queued job included.
func (r TaskResult) MarshalJSON() ([]byte, error) {
	b := fmt.Appendf(nil, `{"id":%d,"count":%d,"nodes":%d,"checksum":%q}`, r.ID, r.Count, r.Nodes, r.Sum())
	return b, nil
}

// File is a shard's result file.
type File struct {
	// Format is always Format.
	Format string `json:"format"`
	// Run pins the run: key/values (board size, method, depth, version)
	// that must agree across all shards of a merge.
	Run map[string]string `json:"run"`
	// Hash identifies the task list; Tasks is its length.
	Hash  string `json:"hash"`
	Tasks int    `json:"tasks"`
	// Shard is this file's index, 0 to Shards-1.
	Shard  int `json:"shard"`
	Shards int `json:"shards"`
	// Results holds every task of the shard, by increasing id.
	Results []TaskResult `json:"results"`
	// Total is the sum over Results; Read checks it.
	Total count.Totals `json:"total"`
	// Seconds is the wall time the shard took (informational).
	Seconds float64 `json:"seconds"`
	// Program is the version of the program that counted the shard,
	// recorded for information: Merge does not compare it.
	Program string `json:"program,omitempty"`
	// Legacy is set by Read for a file of LegacyFormat, whose results
	// carry no checksums: an edit of its counts goes unseen.
	Legacy bool `json:"-"`
}

// Sum returns the totals of f's results.
func (f *File) Sum() count.Totals {
	var t count.Totals
	for _, r := range f.Results {
		t.Add(count.Result{Count: r.Count, Nodes: r.Nodes})
	}
	return t
}

// Index returns the file's shard index.
func (f *File) Index() Index { return Index{I: f.Shard, K: f.Shards} }

// ErrRefused is wrapped by the errors of Write and CheckTarget for a file
// that a result must not replace.
var ErrRefused = errors.New("refusing to replace it")

// Write sets f.Format and f.Total and writes f to path atomically: a
// temporary file, synced, then linked to a new path or renamed over an old
// one. A reader never sees a half-written result. It replaces only what
// CheckTarget allows: an empty file or a result of the same run and shard,
// checked under the file's lock (atomicfile.WriteFileIf), so that of two
// shards writing one new path at once, one writes it and the other is
// refused.
func Write(path string, f *File) error {
	if err := CheckTarget(path, f); err != nil {
		return err
	}
	f.Format = Format
	f.Total = f.Sum()
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	return atomicfile.WriteFileIf(path, b, func(string) error { return CheckTarget(path, f) })
}

// CheckTarget reports whether the result of shard f may be written to
// path: a new file, an empty one, or a result file of the same run (Run,
// Hash and Tasks) and the same shard (a shard counted again), or a link to
// one of these. Anything else is refused with an error wrapping
// ErrRefused that says what the file holds; a FIFO, a device or a folder
// with one wrapping atomicfile.ErrNotRegular. With f nil, any result file
// is accepted: the check that can be made before the run is planned.
func CheckTarget(path string, f *File) error {
	target, exists, err := atomicfile.Target(path)
	if err != nil || !exists {
		return err
	}
	b, err := readfile.Read(context.Background(), target, MaxFileSize, "a shard result file")
	if err != nil {
		if errors.Is(err, os.ErrPermission) {
			return err
		}
		return fmt.Errorf("%s exists and is not a shard result file (%v): %w (remove it, or choose another name)", path, err, ErrRefused)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	old, err := Decode(path, b)
	if err != nil {
		return fmt.Errorf("%s exists and is not a readable shard result file (%v): %w (remove it, or choose another name)", path, strings.TrimPrefix(err.Error(), path+": "), ErrRefused)
	}
	if f == nil {
		return nil
	}
	if !sameRun(old, f) {
		return fmt.Errorf("%s holds shard %s of another run (%s): %w (remove it, or choose another name)", path, old.Index(), runDiff(old, f), ErrRefused)
	}
	if old.Index() != f.Index() {
		return fmt.Errorf("%s holds shard %s of this run, and this is shard %s: %w (give each shard its own file)", path, old.Index(), f.Index(), ErrRefused)
	}
	return nil
}

func sameRun(a, b *File) bool {
	return a.Hash == b.Hash && a.Tasks == b.Tasks && a.Shards == b.Shards && maps.Equal(a.Run, b.Run)
}

// Read reads and checks a shard file (ReadContext without a deadline).
func Read(path string) (*File, error) {
	return ReadContext(context.Background(), path)
}

// ReadContext reads and checks a shard file: at most MaxFileSize bytes
// (see Decode for the checks). It stops when ctx is done, with ctx's
// error, also while it waits for input (a FIFO, a pipe).
func ReadContext(ctx context.Context, path string) (*File, error) {
	b, err := readfile.Read(ctx, path, MaxFileSize, "a shard result file")
	if err != nil {
		return nil, ReadError(path, err)
	}
	return Decode(path, b)
}

// ReadError is the error for a result file that could not be read: err
// with the path said once ("open PATH: no such file" is "PATH: no such
// file").
func ReadError(path string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("%s: %w", path, pe.Err)
	}
	return err
}

// fileJSON is a result file as it is decoded, before its checks.
type fileJSON struct {
	Format  string            `json:"format"`
	Run     map[string]string `json:"run"`
	Hash    string            `json:"hash"`
	Tasks   int               `json:"tasks"`
	Shard   int               `json:"shard"`
	Shards  int               `json:"shards"`
	Results []resultJSON      `json:"results"`
	Total   count.Totals      `json:"total"`
	Seconds float64           `json:"seconds"`
	Program string            `json:"program"`
}

type resultJSON struct {
	ID       int     `json:"id"`
	Count    uint64  `json:"count"`
	Nodes    uint64  `json:"nodes"`
	Checksum *string `json:"checksum"`
}

// Decode checks a shard file's contents b (name labels the messages): its
// format, the counts it claims (tasks at most MaxTasks, its shard index
// among at most that many shards, no more results than tasks), its task
// ids (in range, increasing), every result's checksum and its total
// against the sum of its results. A failed check says the file was edited
// or damaged, with the numbers that disagree.
func Decode(name string, b []byte) (*File, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, fmt.Errorf("%s is empty: not a shard result file", name)
	}
	var probe struct {
		Format json.RawMessage `json:"format"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		what := "not a shard result file"
		if bytes.Contains(b[:min(len(b), 4096)], []byte(`"nqcount-shard/`)) {
			what = "a shard result file cut short or damaged"
		}
		return nil, fmt.Errorf("%s: %s: %s", name, what, jsonError(err))
	}
	var format string
	if json.Unmarshal(probe.Format, &format) != nil || format != Format && format != LegacyFormat {
		return nil, fmt.Errorf("%s: format %s, want %q: not a shard result file of this version", name, clip(string(probe.Format), 60), Format)
	}
	var fj fileJSON
	if err := json.Unmarshal(b, &fj); err != nil {
		return nil, edited(name, jsonError(err))
	}
	f := &File{Format: fj.Format, Run: fj.Run, Hash: fj.Hash, Tasks: fj.Tasks, Shard: fj.Shard, Shards: fj.Shards,
		Total: fj.Total, Seconds: fj.Seconds, Program: fj.Program, Legacy: fj.Format == LegacyFormat}
	switch {
	case f.Tasks < 1 || f.Tasks > MaxTasks:
		return nil, edited(name, fmt.Sprintf("its run has %d tasks, outside 1 to %d", f.Tasks, MaxTasks))
	case f.Shards < 1 || f.Shards > f.Tasks:
		return nil, edited(name, fmt.Sprintf("it splits a run of %d tasks into %d shards, not 1 to %d", f.Tasks, f.Shards, f.Tasks))
	case f.Shard < 0 || f.Shard >= f.Shards:
		return nil, edited(name, fmt.Sprintf("its shard %d is outside 0 to %d", f.Shard, f.Shards-1))
	case len(fj.Results) > f.Tasks:
		return nil, edited(name, fmt.Sprintf("it holds %d results for a run of %d tasks", len(fj.Results), f.Tasks))
	case f.Seconds < 0 || f.Seconds > 1e12 || math.IsNaN(f.Seconds):
		return nil, edited(name, fmt.Sprintf("its time, %g seconds, is not a duration", f.Seconds))
	}
	f.Results = make([]TaskResult, len(fj.Results))
	for i, rj := range fj.Results {
		r := TaskResult{ID: rj.ID, Count: rj.Count, Nodes: rj.Nodes}
		if r.ID < 0 || r.ID >= f.Tasks || i > 0 && r.ID <= f.Results[i-1].ID {
			return nil, edited(name, fmt.Sprintf("result %d is for task %d, out of range (0 to %d) or out of order", i, r.ID, f.Tasks-1))
		}
		switch {
		case f.Legacy && rj.Checksum != nil:
			return nil, edited(name, fmt.Sprintf("its format says %s, whose results have no checksums, but result %d has one", LegacyFormat, i))
		case !f.Legacy && rj.Checksum == nil:
			return nil, edited(name, fmt.Sprintf("result %d (task %d) has no checksum", i, r.ID))
		case !f.Legacy && *rj.Checksum != r.Sum():
			return nil, edited(name, fmt.Sprintf("result %d (task %d, count %d, %d nodes) does not match its checksum %.12s…", i, r.ID, r.Count, r.Nodes, *rj.Checksum))
		}
		f.Results[i] = r
	}
	s := f.Sum()
	var diffs []string
	if s.Tasks != f.Total.Tasks {
		diffs = append(diffs, fmt.Sprintf("total tasks %d, but %d results", f.Total.Tasks, s.Tasks))
	}
	if s.Count != f.Total.Count {
		diffs = append(diffs, fmt.Sprintf("total count %s, but the results add up to %s", f.Total.Count, s.Count))
	}
	if s.Nodes != f.Total.Nodes {
		diffs = append(diffs, fmt.Sprintf("total nodes %s, but the results add up to %s", f.Total.Nodes, s.Nodes))
	}
	if len(diffs) > 0 {
		return nil, edited(name, strings.Join(diffs, "; "))
	}
	return f, nil
}

// edited is the error for a result file whose contents fail a check.
func edited(name, why string) error {
	return fmt.Errorf("%s: %s: the file was edited or damaged", name, why)
}

// jsonError describes a decoding error in a line of bounded length.
func jsonError(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("bad JSON at byte %d: %s", se.Offset, clip(se.Error(), 100))
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "the file"
		}
		return fmt.Sprintf("field %s: want %s, got %s", clip(field, 60), jsonKind(te.Type.String()), clip(te.Value, 60))
	}
	return clip(err.Error(), 200)
}

// jsonKind names a Go type the way a reader of the file thinks of it.
func jsonKind(t string) string {
	switch {
	case strings.HasPrefix(t, "uint"):
		return "a whole number from 0 to " + strconv.FormatUint(math.MaxUint64, 10)
	case strings.HasPrefix(t, "int"):
		return "a whole number"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case t == "string":
		return "a string"
	case strings.HasPrefix(t, "map"), strings.HasPrefix(t, "struct"), strings.Contains(t, "."):
		return "an object"
	case strings.HasPrefix(t, "[]"):
		return "an array"
	}
	return t
}

// clip bounds a string quoted in a message (a file can hold a number or a
// string of megabytes).
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
