// Package journal keeps the checkpoint of a long count: an append-only
// file with one record per finished task, so that a run stopped by Ctrl-C,
// a crash, SIGKILL or a power cut resumes without recounting what was done.
//
// The package is problem-agnostic: a run is pinned by a Header (the hash of
// the task list, the number of tasks and any key/value pairs the caller
// wants checked, such as the board size and the version of the counting
// algorithm), and a record is a task id with its count and nodes. A header
// may also carry key/values recorded for information only (such as the
// program version that created the journal), which are not compared.
//
// # Format
//
// The file is line-oriented text, readable with less and greppable:
//
//	nqcount-journal v1
//	hash 5d0c3f...
//	tasks 4319
//	meta algorithm 1
//	meta n 17
//	info program v0.3.0
//	header 1c2b3a4d
//	17 412 98231 8e1f03aa
//	3 0 1520 0b6e2c71
//
// The header's lines end with "header CRC", the CRC-32C of the bytes
// before it. Every record is "id count nodes crc", where crc is the CRC-32C
// of the previous record's (or the header's) CRC followed by the text
// "id count nodes". The chain binds each record to the header and to its
// place in the file: a record edited, removed or moved in the middle is
// detected. Records are in completion order, not id order.
//
// # Durability
//
// Each record is written with a single write(2) as soon as its task
// finishes, so a killed process (SIGKILL, a panic) loses nothing written;
// the file is fsynced in the background every Options.Interval (and on
// Sync and Close), so a power cut loses at most that much. A record torn
// by a power cut is always the last one: Open drops it (truncating the
// file) and reports it in Journal.Repaired. Damage anywhere else, or a
// header that does not match the run, is refused with an error wrapping
// ErrCorrupt or ErrMismatch; the journal is never silently mixed with
// another run's.
//
// # Files
//
// A journal is a regular file (or a symbolic link to one, written
// through): Open refuses a FIFO, a device or a directory without blocking
// on it. A new journal is created with O_EXCL and locked before its header
// is written, so of two processes starting the same new journal at once
// exactly one runs and the other gets ErrLocked; its mode is 0666 less the
// umask.
package journal

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nqcount/nqcount/internal/atomicfile"
)

// magic is the first line of every journal.
const magic = "nqcount-journal v1"

// castagnoli is the journal's CRC table, made on first use: making it at
// start-up cost every command that links the package a fifth of a
// millisecond (sudoku solve among them, through the web package).
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// ErrMismatch is wrapped by Open's error when the journal belongs to
// another run (a different header).
var ErrMismatch = errors.New("journal belongs to another run")

// ErrCorrupt is wrapped by Open's error when the journal is damaged other
// than by a torn last record, or is not a journal at all.
var ErrCorrupt = errors.New("journal is corrupt")

// ErrLocked is wrapped by Open's error when another process has the
// journal open.
var ErrLocked = errors.New("journal is in use by another process")

// ErrRemoved is wrapped by the errors of Append, Sync and Close once the
// journal's file is no longer at its path (it, or its folder, was removed
// or replaced while the run wrote it): what was recorded is then lost to
// a resume.
var ErrRemoved = errors.New("the checkpoint was removed while in use")

// Header pins the run a journal belongs to. Open refuses a journal whose
// header differs in Hash, Tasks or Meta; Info is not compared.
type Header struct {
	// Hash identifies the list of tasks (for n-queens, queens.Plan.Hash).
	Hash string
	// Tasks is the number of tasks of the run; record ids are below it.
	Tasks int
	// Meta holds any other values that must match, such as the board
	// size, the method, the algorithm version or the shard. Keys are
	// single words; values may hold spaces but no line breaks.
	Meta map[string]string
	// Info holds values recorded when the journal is created but not
	// compared when it is opened again, such as the program version. Same
	// rules for keys and values as Meta.
	Info map[string]string
}

// Record is one finished task.
type Record struct {
	ID    int
	Count uint64
	Nodes uint64
}

// Options tune Open.
type Options struct {
	// Interval is how often written records are fsynced; 0 means 1 s.
	// Negative disables the background sync (only Sync and Close sync).
	Interval time.Duration
	// Accept, if set, is asked about a journal whose header differs from
	// the run's in its pinned fields (Hash, Tasks or Meta); returning true
	// resumes from it anyway, keeping its header. It lets a program accept
	// journals written by an older version that are known to hold the same
	// run under other keys.
	Accept func(found Header) bool
}

// Journal is an open checkpoint journal. Its methods are safe for
// concurrent use.
type Journal struct {
	path     string
	header   Header
	records  []Record
	repaired int64

	syncMu  sync.Mutex // serialises fsyncs and the final close
	mu      sync.Mutex // guards the fields below
	closing bool
	f       *os.File
	crc     uint32
	seen    []bool
	buf     []byte
	dirty   bool
	err     error // first write or sync error; sticky
	stop    chan struct{}
	done    chan struct{}
}

// Open opens the journal at path for the run h, creating it if it does not
// exist (or is empty), and takes an exclusive lock on it. The records
// already there are returned by Records; new ones are added by Append.
//
// A journal whose last record was torn by a crash is repaired: the partial
// record is truncated away and Repaired reports the bytes dropped. A
// journal of another run is refused with an error wrapping ErrMismatch
// (unless opt.Accept takes it), one with damage before its last record
// with ErrCorrupt, one held open by another process with ErrLocked. A path
// that is not a regular file is refused with an error wrapping
// atomicfile.ErrNotRegular.
func Open(path string, h Header, opt Options) (*Journal, error) {
	hb, err := h.encode()
	if err != nil {
		return nil, err
	}
	j := &Journal{path: path, header: h, seen: make([]bool, h.Tasks)}
	f, created, err := openFile(path)
	if err != nil {
		return nil, err
	}
	if err := lock(f); err != nil {
		// If we created the file, the process holding the lock opened it
		// in between and writes the header itself.
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, ErrLocked)
	}
	j.f = f
	if err := j.load(hb, h, opt.Accept); err != nil {
		if created {
			os.Remove(path) // still locked: nobody else uses it
		}
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, err
	}
	j.stop, j.done = make(chan struct{}), make(chan struct{})
	iv := opt.Interval
	if iv == 0 {
		iv = time.Second
	}
	go j.syncLoop(iv)
	return j, nil
}

// openFile opens the journal file for reading and writing, or creates it
// exclusively (O_EXCL) with mode 0666 less the umask. It never replaces
// what is at path (creating the file elsewhere and renaming it into place
// let a second process rename a fresh header over a journal the first had
// locked), and it refuses anything but a regular file without blocking on
// it (a FIFO is opened non-blocking, then checked with fstat).
func openFile(path string) (f *os.File, created bool, err error) {
	for try := 0; ; try++ {
		if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
			return nil, false, notRegular(path, fi.Mode())
		}
		f, err = os.OpenFile(path, os.O_RDWR|openFlags, 0)
		if errors.Is(err, fs.ErrNotExist) {
			f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL|openFlags, 0o666)
			created = err == nil
			if errors.Is(err, fs.ErrExist) {
				if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
					if _, serr := os.Stat(path); errors.Is(serr, fs.ErrNotExist) {
						return nil, false, fmt.Errorf("%s is a symbolic link to a missing file, %w: refusing to follow it (remove the link or create its target)", path, atomicfile.ErrNotRegular)
					}
				}
				if try < 3 {
					continue // created by another process meanwhile: open that
				}
			}
		}
		if err != nil {
			return nil, false, err
		}
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, false, err
		}
		if !fi.Mode().IsRegular() {
			f.Close()
			return nil, false, notRegular(path, fi.Mode())
		}
		return f, created, nil
	}
}

func notRegular(path string, mode fs.FileMode) error {
	return fmt.Errorf("%s is %s, %w: a checkpoint journal must be a regular file", path, atomicfile.Kind(mode), atomicfile.ErrNotRegular)
}

// encode returns the header's lines, ending with the "header CRC" line.
func (h Header) encode() ([]byte, error) {
	if h.Tasks < 0 {
		return nil, fmt.Errorf("journal: negative task count %d", h.Tasks)
	}
	if h.Hash == "" || strings.ContainsAny(h.Hash, " \t\r\n") {
		return nil, fmt.Errorf("journal: hash %q must be one non-empty word", h.Hash)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\nhash %s\ntasks %d\n", magic, h.Hash, h.Tasks)
	for _, kind := range []string{"meta", "info"} {
		m := h.Meta
		if kind == "info" {
			m = h.Info
		}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			v := m[k]
			if k == "" || strings.ContainsAny(k, " \t\r\n") || strings.ContainsAny(v, "\r\n") {
				return nil, fmt.Errorf("journal: %s %q=%q: keys must be one word and values one line", kind, k, v)
			}
			fmt.Fprintf(&b, "%s %s %s\n", kind, k, v)
		}
	}
	fmt.Fprintf(&b, "header %08x\n", crc32.Checksum(b.Bytes(), castagnoli()))
	return b.Bytes(), nil
}

// load reads the journal, checks its header against want and its records'
// chain, and truncates a torn last record.
func (j *Journal) load(want []byte, h Header, accept func(Header) bool) error {
	// A journal of this run holds at most one record per task: a larger
	// file is not this run's journal, and is refused before it is read.
	limit := maxSize(len(want), h.Tasks)
	fi, err := j.f.Stat()
	if err != nil {
		return err
	}
	if fi.Size() > limit {
		return fmt.Errorf("%s: %w: it is %d bytes, more than a journal of %d tasks can hold (%d): not this run's journal, or damaged (refusing to overwrite it)", j.path, ErrCorrupt, fi.Size(), h.Tasks, limit)
	}
	data, err := io.ReadAll(io.LimitReader(j.f, limit+1))
	if err != nil {
		return err
	}
	if int64(len(data)) > limit {
		return fmt.Errorf("%s: %w: it grew past %d bytes while being read", j.path, ErrCorrupt, limit)
	}
	if d := bytes.TrimRight(data, "\x00"); len(d) < len(want) && bytes.HasPrefix(want, d) {
		// Empty, or a header cut short or zero-filled by a crash right
		// after creation (no record can follow it): start afresh.
		if err := j.f.Truncate(0); err != nil {
			return err
		}
		if _, err := j.f.WriteAt(want, 0); err != nil {
			return err
		}
		j.crc = headerCRC(want)
		return j.f.Sync()
	}
	if !bytes.HasPrefix(data, []byte(magic+"\n")) {
		return fmt.Errorf("%s: %w: it does not start with %q, so it is not a checkpoint journal (refusing to overwrite it)", j.path, ErrCorrupt, magic)
	}
	end := bytes.Index(data, []byte("\nheader "))
	if end < 0 || len(data) < end+len("\nheader ")+9 || data[end+len("\nheader ")+8] != '\n' {
		return fmt.Errorf("%s: %w: its header is incomplete", j.path, ErrCorrupt)
	}
	hlen := end + len("\nheader ") + 9
	got := data[:hlen]
	if want, err := strconv.ParseUint(string(got[hlen-9:hlen-1]), 16, 32); err != nil || uint32(want) != crc32.Checksum(got[:end+1], castagnoli()) {
		return fmt.Errorf("%s: %w: its header's checksum does not match (edited by hand?)", j.path, ErrCorrupt)
	}
	found, err := parseHeader(got)
	if err != nil {
		return fmt.Errorf("%s: %w: %v", j.path, ErrCorrupt, err)
	}
	if !found.sameRun(h) && (accept == nil || !accept(found)) {
		return fmt.Errorf("%s: %w: %s", j.path, ErrMismatch, diffHeader(found, h))
	}
	j.header = found
	j.crc = headerCRC(got)
	off := hlen
	for off < len(data) {
		nl := bytes.IndexByte(data[off:], '\n')
		var line []byte
		if nl >= 0 {
			line = data[off : off+nl]
		}
		r, crc, perr := j.parseRecord(line, h.Tasks)
		if nl < 0 || perr != nil {
			// A bad line is only a torn write if nothing valid follows it.
			rest := data[off:]
			if nl >= 0 && hasValidAfter(data[off+nl+1:]) {
				return fmt.Errorf("%s: %w: record at byte %d: %v; records follow it, so this is not a torn write at the end (refusing to resume from a damaged journal)", j.path, ErrCorrupt, off, perr)
			}
			if perr != nil && nl >= 0 && errors.Is(perr, errDuplicate) {
				return fmt.Errorf("%s: %w: record at byte %d: %v", j.path, ErrCorrupt, off, perr)
			}
			j.repaired = int64(len(rest))
			if err := j.f.Truncate(int64(off)); err != nil {
				return err
			}
			return j.f.Sync()
		}
		j.seen[r.ID] = true
		j.records = append(j.records, r)
		j.crc = crc
		off += nl + 1
	}
	return nil
}

var errDuplicate = errors.New("task recorded twice")

// maxRecord is the longest record line: the largest id, count and nodes,
// and the CRC.
const maxRecord = len("9223372036854775807 18446744073709551615 18446744073709551615 ffffffff\n")

// maxSize bounds the size of a journal whose header takes headerLen bytes
// and whose run has that many tasks: a header up to 64 KiB longer (one
// written by another version, which Options.Accept may take), a record
// per task, and a torn last block of zero bytes from a crash.
func maxSize(headerLen, tasks int) int64 {
	return int64(headerLen) + 64<<10 + int64(tasks)*int64(maxRecord) + 1<<20
}

// hasValidAfter reports whether rest holds a complete line that looks
// like a record (a torn write leaves at most one partial line behind,
// perhaps followed by zero bytes).
func hasValidAfter(rest []byte) bool {
	for _, l := range bytes.Split(rest, []byte("\n")) {
		if len(bytes.Trim(l, "\x00 ")) > 0 {
			return true
		}
	}
	return false
}

func headerCRC(hb []byte) uint32 {
	v, _ := strconv.ParseUint(string(hb[len(hb)-9:len(hb)-1]), 16, 32)
	return uint32(v)
}

// parseRecord checks one record line against the chain.
func (j *Journal) parseRecord(line []byte, tasks int) (Record, uint32, error) {
	f := strings.Fields(string(line))
	if len(f) != 4 || len(f[3]) != 8 {
		return Record{}, 0, fmt.Errorf("malformed record %q", line)
	}
	id, err1 := strconv.Atoi(f[0])
	c, err2 := strconv.ParseUint(f[1], 10, 64)
	nodes, err3 := strconv.ParseUint(f[2], 10, 64)
	crc, err4 := strconv.ParseUint(f[3], 16, 32)
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		return Record{}, 0, fmt.Errorf("malformed record %q", line)
	}
	r := Record{ID: id, Count: c, Nodes: nodes}
	if want := chain(j.crc, r); uint32(crc) != want || string(line) != fmt.Sprintf("%s %08x", r.text(), want) {
		return Record{}, 0, fmt.Errorf("checksum mismatch in record %q", line)
	}
	if id < 0 || id >= tasks {
		return Record{}, 0, fmt.Errorf("task id %d out of range 0..%d", id, tasks-1)
	}
	if j.seen[id] {
		return Record{}, 0, fmt.Errorf("task %d: %w", id, errDuplicate)
	}
	return r, uint32(crc), nil
}

func chain(prev uint32, r Record) uint32 {
	var b [4]byte
	binary.BigEndian.PutUint32(b[:], prev)
	c := crc32.Update(0, castagnoli(), b[:])
	return crc32.Update(c, castagnoli(), []byte(r.text()))
}

func (r Record) text() string {
	return strconv.Itoa(r.ID) + " " + strconv.FormatUint(r.Count, 10) + " " + strconv.FormatUint(r.Nodes, 10)
}

// parseHeader reads the fields of a header whose checksum was checked.
func parseHeader(b []byte) (Header, error) {
	var h Header
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for _, l := range lines[1 : len(lines)-1] {
		f := strings.SplitN(l, " ", 3)
		var err error
		switch {
		case len(f) == 2 && f[0] == "hash":
			h.Hash = f[1]
		case len(f) == 2 && f[0] == "tasks":
			h.Tasks, err = strconv.Atoi(f[1])
		case len(f) == 3 && f[0] == "meta":
			if h.Meta == nil {
				h.Meta = map[string]string{}
			}
			h.Meta[f[1]] = f[2]
		case len(f) == 3 && f[0] == "info":
			if h.Info == nil {
				h.Info = map[string]string{}
			}
			h.Info[f[1]] = f[2]
		default:
			err = errors.New("unknown line")
		}
		if err != nil {
			return Header{}, fmt.Errorf("header line %q: %v", l, err)
		}
	}
	return h, nil
}

// sameRun reports whether two headers pin the same run: Info is not
// compared.
func (h Header) sameRun(o Header) bool {
	return h.Hash == o.Hash && h.Tasks == o.Tasks && maps.Equal(h.Meta, o.Meta)
}

// diffHeader names the fields in which the journal's header differs from
// the run's.
func diffHeader(found, h Header) string {
	have := map[string]string{"hash": found.Hash, "tasks": strconv.Itoa(found.Tasks)}
	maps.Copy(have, found.Meta)
	want := map[string]string{"hash": h.Hash, "tasks": strconv.Itoa(h.Tasks)}
	maps.Copy(want, h.Meta)
	keys := map[string]bool{}
	for k := range have {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	quote := func(m map[string]string, k string) string {
		if v, ok := m[k]; ok {
			return strconv.Quote(v)
		}
		return "absent"
	}
	var diffs []string
	for k := range keys {
		if have[k] != want[k] {
			diffs = append(diffs, fmt.Sprintf("%s is %s in the journal but %s in this run", k, quote(have, k), quote(want, k)))
		}
	}
	sort.Strings(diffs)
	if len(diffs) == 0 {
		return "its header differs from this run's"
	}
	return strings.Join(diffs, "; ") + " (use another file, or rerun with the journal's settings)"
}

// Records returns the records found when the journal was opened, in file
// order. Append does not add to it.
func (j *Journal) Records() []Record { return j.records }

// Repaired returns the number of bytes of a torn last record that Open
// dropped, 0 if the journal was intact.
func (j *Journal) Repaired() int64 { return j.repaired }

// Append records a finished task. The record is written at once with one
// write, so it survives the process being killed; it reaches the disk at
// the next background sync. Recording a task twice is an error.
func (j *Journal) Append(r Record) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return j.err
	}
	if j.f == nil {
		return errors.New("journal: append after close")
	}
	if r.ID < 0 || r.ID >= len(j.seen) {
		return fmt.Errorf("journal: task id %d out of range 0..%d", r.ID, len(j.seen)-1)
	}
	if j.seen[r.ID] {
		return fmt.Errorf("journal: task %d: %w", r.ID, errDuplicate)
	}
	crc := chain(j.crc, r)
	j.buf = append(j.buf[:0], r.text()...)
	j.buf = fmt.Appendf(j.buf, " %08x\n", crc)
	if _, err := j.f.Write(j.buf); err != nil {
		j.err = fmt.Errorf("journal %s: %w", j.path, err)
		return j.err
	}
	j.seen[r.ID] = true
	j.crc = crc
	j.dirty = true
	return nil
}

// Sync forces the records written so far to disk. Appends go on while it
// waits for the disk. It also checks that the journal is still at its
// path (an error wrapping ErrRemoved if not, sticky: later appends fail
// with it too).
func (j *Journal) Sync() error {
	j.syncMu.Lock()
	defer j.syncMu.Unlock()
	j.mu.Lock()
	f, dirty, err := j.f, j.dirty, j.err
	j.dirty = false
	j.mu.Unlock()
	if err != nil || f == nil {
		return err
	}
	if err := j.present(f); err != nil {
		j.mu.Lock()
		defer j.mu.Unlock()
		if j.err == nil {
			j.err = err
		}
		return j.err
	}
	if !dirty {
		return nil
	}
	if err := f.Sync(); err != nil {
		j.mu.Lock()
		defer j.mu.Unlock()
		if j.err == nil {
			j.err = fmt.Errorf("journal %s: %w", j.path, err)
		}
		return j.err
	}
	return nil
}

// present checks that the journal's path still names its open file f: a
// file whose folder was removed takes writes that no resume will see.
func (j *Journal) present(f *os.File) error {
	open, err := f.Stat()
	if err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	if now, err := os.Stat(j.path); err != nil || !os.SameFile(open, now) {
		return fmt.Errorf("journal %s: %w (it or its folder is gone or was replaced): the tasks recorded in it are lost to a resume", j.path, ErrRemoved)
	}
	return nil
}

func (j *Journal) syncLoop(iv time.Duration) {
	defer close(j.done)
	if iv < 0 {
		<-j.stop
		return
	}
	t := time.NewTicker(iv)
	defer t.Stop()
	for {
		select {
		case <-j.stop:
			return
		case <-t.C:
			j.Sync()
		}
	}
}

// Close syncs and closes the journal and releases its lock.
func (j *Journal) Close() error {
	j.mu.Lock()
	open := j.f != nil && !j.closing
	j.closing = true
	j.mu.Unlock()
	if !open {
		return nil
	}
	close(j.stop)
	<-j.done
	err := j.Sync()
	j.syncMu.Lock()
	defer j.syncMu.Unlock()
	j.mu.Lock()
	defer j.mu.Unlock()
	if cerr := j.f.Close(); err == nil {
		err = cerr
	}
	j.f = nil
	return err
}
