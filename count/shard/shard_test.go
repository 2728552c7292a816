package shard

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

func TestAssignCoversAndBalances(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	costs := make([]uint64, 5000)
	var sum, maxc uint64
	for i := range costs {
		costs[i] = uint64(rng.ExpFloat64() * 1000)
		sum += costs[i]
		maxc = max(maxc, costs[i])
	}
	for _, k := range []int{1, 2, 7, 64} {
		sh := Assign(costs, k)
		if len(sh) != k {
			t.Fatalf("k=%d: %d shards", k, len(sh))
		}
		seen := make([]bool, len(costs))
		for _, ids := range sh {
			var c uint64
			for i, id := range ids {
				if seen[id] || i > 0 && ids[i-1] >= id {
					t.Fatalf("k=%d: id %d repeated or out of order", k, id)
				}
				seen[id] = true
				c += max(costs[id], 1)
			}
			// LPT: no shard exceeds the mean by more than the largest task.
			if c > sum/uint64(k)+maxc+uint64(len(costs)) {
				t.Errorf("k=%d: shard cost %d, mean %d", k, c, sum/uint64(k))
			}
		}
		for id, ok := range seen {
			if !ok {
				t.Fatalf("k=%d: task %d in no shard", k, id)
			}
		}
		if !reflect.DeepEqual(sh, Assign(costs, k)) {
			t.Fatalf("k=%d: not deterministic", k)
		}
	}
	// More shards than tasks: some shards are empty, none is lost.
	if sh := Assign([]uint64{5, 1}, 4); len(sh[0])+len(sh[1])+len(sh[2])+len(sh[3]) != 2 {
		t.Fatal(sh)
	}
}

// files makes the k shard files of a run of 20 tasks with task i counting i.
func files(t *testing.T, k int, run map[string]string) []string {
	dir := t.TempDir()
	costs := make([]uint64, 20)
	for i := range costs {
		costs[i] = uint64(i % 5)
	}
	var paths []string
	for s, ids := range Assign(costs, k) {
		f := &File{Run: run, Hash: "h" + run["n"], Tasks: 20, Shard: s, Shards: k}
		for _, id := range ids {
			f.Results = append(f.Results, TaskResult{ID: id, Count: uint64(id), Nodes: 10})
		}
		p := filepath.Join(dir, fmt.Sprintf("shard-%d.json", s))
		if err := Write(p, f); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

func merge(t *testing.T, paths ...string) (*Merged, error) {
	var fs []*File
	for _, p := range paths {
		f, err := Read(p)
		if err != nil {
			return nil, err
		}
		fs = append(fs, f)
	}
	return Merge(paths, fs)
}

var run8 = map[string]string{"n": "8", "version": "test"}

func TestMerge(t *testing.T) {
	p := files(t, 3, run8)
	m, err := merge(t, p[2], p[0], p[1])
	if err != nil {
		t.Fatal(err)
	}
	if m.Total.Count.String() != "190" || m.Total.Tasks != 20 || m.Total.Nodes.String() != "200" || len(m.Warnings) != 0 {
		t.Fatalf("%+v", m)
	}
	// The same shard twice, identical: warning, counted once.
	m, err = merge(t, p[0], p[1], p[2], p[1])
	if err != nil || len(m.Warnings) != 1 || m.Total.Count.String() != "190" {
		t.Fatalf("%+v %v", m, err)
	}
}

func TestMergeFailures(t *testing.T) {
	p := files(t, 3, run8)
	if _, err := merge(t, p[0], p[2]); !errors.Is(err, ErrIncomplete) || !strings.Contains(err.Error(), ": 1 (numbered from 0)") {
		t.Errorf("missing shard: %v", err)
	}
	// Conflicting duplicate.
	f, _ := Read(p[1])
	f.Results[0].Count++
	bad := filepath.Join(t.TempDir(), "bad.json")
	Write(bad, f)
	if _, err := merge(t, p[0], p[1], p[2], bad); err == nil || !strings.Contains(err.Error(), "different results") {
		t.Errorf("conflicting duplicate: %v", err)
	}
	// Other run.
	q := files(t, 3, map[string]string{"n": "9", "version": "test"})
	if _, err := merge(t, p[0], p[1], q[2]); err == nil || !strings.Contains(err.Error(), "different runs") || !strings.Contains(err.Error(), `n "8" vs "9"`) {
		t.Errorf("other run: %v", err)
	}
	// Other K.
	r := files(t, 2, run8)
	if _, err := merge(t, p[0], p[1], r[1]); err == nil || !strings.Contains(err.Error(), "3 vs 2 shards") {
		t.Errorf("other K: %v", err)
	}
	// Edited total.
	b, _ := os.ReadFile(p[0])
	os.WriteFile(bad, []byte(strings.Replace(string(b), `"count": 1`, `"count": 2`, 1)), 0o644)
	if _, err := Read(bad); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("edited result: %v", err)
	}
	// Not a shard file.
	os.WriteFile(bad, []byte(`{"n": 8}`), 0o644)
	if _, err := Read(bad); err == nil {
		t.Error("foreign JSON accepted")
	}
	if _, err := Merge(nil, nil); err == nil {
		t.Error("empty merge succeeded")
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Index{"0/1": {0, 1}, "3/16": {3, 16}, "15/16": {15, 16}} {
		if got, err := Parse(in); err != nil || got != want || got.String() != in {
			t.Errorf("Parse(%q) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "3", "3/3", "-1/2", "1/0", "a/b", "1/2/3", " 1/2", "0/99999999999999999999"} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), "0 <= I < K") {
			t.Errorf("Parse(%q): %v", in, err)
		}
	}
}

func TestFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env    map[string]string
		shards int
		want   Index
		err    string
	}{
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "7"}, want: Index{3, 8}},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "8"}, want: Index{7, 8}},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, shards: 4, want: Index{2, 4}},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, err: "SLURM_ARRAY_TASK_COUNT is not set"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "4"}, err: "contiguous"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, err: "whole number"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "99999999999999999999"}, err: "whole number"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2"}, shards: 3, err: "SLURM_ARRAY_TASK_COUNT=2"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "2"}, err: "outside 0..1"},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "5"}, shards: 6, want: Index{5, 6}},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "5"}, err: "completions"},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "6"}, shards: 6, err: "not below"},
		{env: map[string]string{}, err: "neither"},
		// Both schedulers (once: one was picked silently):
		// they must agree.
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4", "JOB_COMPLETION_INDEX": "2"}, want: Index{2, 4}},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4", "JOB_COMPLETION_INDEX": "3"}, err: "the environment names two shards: 2/4 for Slurm (SLURM_ARRAY_TASK_ID=2) and 3/4 for Kubernetes (JOB_COMPLETION_INDEX=3), so neither is counted"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "1", "JOB_COMPLETION_INDEX": "0"}, shards: 2, err: "names two shards"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2", "JOB_COMPLETION_INDEX": "5"}, err: "JOB_COMPLETION_INDEX=5 is not below"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2", "JOB_COMPLETION_INDEX": "x"}, err: "whole number"},
	} {
		got, err := FromEnv(func(k string) string { return tc.env[k] }, tc.shards)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: got %v, want error with %q", tc.env, err, tc.err)
			}
			if strings.Contains(tc.err, "not set") || tc.err == "completions" {
				if !errors.Is(err, ErrCountUnknown) {
					t.Errorf("%v: %v does not wrap ErrCountUnknown", tc.env, err)
				}
			}
		} else if err != nil || got != tc.want {
			t.Errorf("%v: got %v %v, want %v", tc.env, got, err, tc.want)
		}
	}
}

// Select bounds K by the number of tasks, so that a K of billions is an
// error at once rather than a panic or an exhausted memory.
func TestSelect(t *testing.T) {
	costs := []uint64{8, 1, 1, 4, 2, 2}
	for x, want := range map[Index][]int{{0, 2}: {0, 1}, {1, 2}: {2, 3, 4, 5}, {5, 6}: {2}, {4, 6}: {1}} {
		if got, err := Select(costs, x); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Select(%v) = %v, %v, want %v", x, got, err, want)
		}
	}
	for _, x := range []Index{{0, 7}, {0, int(^uint(0) >> 1 / 2)}, {0, math.MaxInt}, {3, 3}, {-1, 2}, {0, 0}} {
		if _, err := Select(costs, x); err == nil {
			t.Errorf("Select(%v): no error", x)
		}
	}
	if _, err := Select(costs, Index{0, 7}); err == nil || !strings.Contains(err.Error(), "at most 6 shards") {
		t.Errorf("K above the tasks: %v", err)
	}
}

// The program version is information: shards of different builds merge,
// and the versions are listed.
func TestMergePrograms(t *testing.T) {
	p := files(t, 3, run8)
	var fs []*File
	for i, path := range p {
		f, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		f.Program = []string{"v1.1.0", "v1.0.0", "v1.1.0"}[i]
		fs = append(fs, f)
	}
	m, err := Merge(p, fs)
	if err != nil || !reflect.DeepEqual(m.Programs, []string{"v1.0.0", "v1.1.0"}) {
		t.Fatalf("%v %v", m, err)
	}
}

// The longest result Write writes fits the room MaxResults leaves it, and
// the largest header fits its room.
func TestResultBytes(t *testing.T) {
	f := &File{Run: map[string]string{"algorithm": "1", "depth": "8", "method": "constellations", "n": "32", "version": strings.Repeat("v", 100)},
		Hash: strings.Repeat("f", 64), Tasks: MaxTasks, Shard: MaxTasks - 2, Shards: MaxTasks - 1, Seconds: 1e12, Program: strings.Repeat("p", 200)}
	f.Results = []TaskResult{{ID: MaxTasks - 2, Count: math.MaxUint64, Nodes: math.MaxUint64}, {ID: MaxTasks - 1, Count: math.MaxUint64, Nodes: math.MaxUint64}}
	path := filepath.Join(t.TempDir(), "max.json")
	if err := Write(path, f); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	one := strings.Index(string(b), `"id": 4194303`) - strings.Index(string(b), `"id": 4194302`)
	if one <= 0 || one > resultBytes {
		t.Errorf("a result takes %d bytes, more than the %d allowed for", one, resultBytes)
	}
	if head := len(b) - 2*one; head > headerBytes {
		t.Errorf("the header takes %d bytes", head)
	}
	if _, err := Read(path); err != nil {
		t.Error(err)
	}
	if MaxResults < 300000 {
		t.Errorf("MaxResults = %d: a result file holds fewer tasks than a default plan at n = 27", MaxResults)
	}
}

// write writes f (with Write's total) and returns its text.
func written(t *testing.T, f *File) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.json")
	if err := Write(path, f); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every field of a result file edited to a huge, a negative or a malformed
// value, the file cut short anywhere, and the checks that catch an edit:
// each is refused with a one-line message that says so, in bounded time
// and memory (the counts it claims are checked before anything is made
// from them).
func TestDecodeEdited(t *testing.T) {
	f := &File{Run: run8, Hash: "h8", Tasks: 20, Shard: 1, Shards: 3, Seconds: 1.5, Program: "v1"}
	for _, id := range []int{2, 5, 7} {
		f.Results = append(f.Results, TaskResult{ID: id, Count: uint64(id), Nodes: 10})
	}
	good := written(t, f)
	if _, err := Decode("f", []byte(good)); err != nil {
		t.Fatal(err)
	}
	field := func(old, new string) string {
		t.Helper()
		if !strings.Contains(good, old) {
			t.Fatalf("%q not in the file", old)
		}
		return strings.Replace(good, old, new, 1)
	}
	sum := func(id int, c, n uint64) string { return TaskResult{ID: id, Count: c, Nodes: n}.Sum() }
	for _, tc := range []struct{ name, text, want string }{
		{"tasks huge", field(`"tasks": 20`, `"tasks": 1000000000`), "1000000000 tasks, outside 1 to 4194304"},
		{"tasks float", field(`"tasks": 20`, `"tasks": 1e9`), "field tasks: want a whole number, got number 1e9"},
		{"tasks overflow", field(`"tasks": 20`, `"tasks": 99999999999999999999`), "field tasks: want a whole number"},
		{"tasks negative", field(`"tasks": 20`, `"tasks": -1`), "-1 tasks"},
		{"tasks megabyte", field(`"tasks": 20`, `"tasks": `+strings.Repeat("9", 1<<20)), "bytes)"},
		{"shards huge", field(`"shards": 3`, `"shards": 1000000000`), "into 1000000000 shards, not 1 to 20"},
		{"shards zero", field(`"shards": 3`, `"shards": 0`), "into 0 shards"},
		{"shard negative", field(`"shard": 1`, `"shard": `+strconv.Itoa(math.MinInt)), "shard " + strconv.Itoa(math.MinInt) + " is outside 0 to 2"},
		{"shard beyond", field(`"shard": 1`, `"shard": 3`), "shard 3 is outside 0 to 2"},
		{"id beyond", field(`"id": 7`, `"id": 20`), "task 20, out of range"},
		{"id negative", field(`"id": 2`, `"id": -2`), "task -2, out of range"},
		{"count edited", field(`"count": 5`, `"count": 6`), "result 1 (task 5, count 6, 10 nodes) does not match its checksum"},
		{"count negative", field(`"count": 5`, `"count": -5`), "field results.count: want a whole number from 0"},
		{"count overflow", field(`"count": 5`, `"count": 18446744073709551616`), "results.count"},
		{"nodes edited", field(`"nodes": 10`, `"nodes": 11`), "result 0 (task 2, count 2, 11 nodes) does not match"},
		{"checksum gone", field(`"checksum": "`+sum(7, 7, 10)+`"`, `"x": 1`), "result 2 (task 7) has no checksum"},
		{"total nodes only", field(`"nodes": 30`, `"nodes": 31`), "total nodes 31, but the results add up to 30"},
		{"total count", field(`"count": 14`, `"count": 15`), "total count 15, but the results add up to 14"},
		{"total tasks", field(`"tasks": 3`, `"tasks": 4`), "total tasks 4, but 3 results"},
		{"total huge", field(`"count": 14`, `"count": `+strings.Repeat("9", 1<<20)), "characters)"},
		{"seconds negative", field(`"seconds": 1.5`, `"seconds": -1`), "-1 seconds, is not a duration"},
		{"seconds huge", field(`"seconds": 1.5`, `"seconds": 1e300`), "is not a duration"},
		{"seconds overflow", field(`"seconds": 1.5`, `"seconds": 1e400`), "seconds"},
		{"format legacy with checksums", field(Format, LegacyFormat), "result 0 has one"},
		{"format other", field(Format, "nqcount-shard/9"), `format "nqcount-shard/9", want "nqcount-shard/2"`},
		{"format number", field(`"`+Format+`"`, "7"), "format 7"},
		{"not JSON", "\x00\x01\x02 binary junk", "not a shard result file: bad JSON at byte 1"},
		{"foreign JSON", `{"n": 8}`, `format , want`},
		{"array", `[1, 2]`, "not a shard result file"},
		{"empty", ``, "not a shard result file"},
	} {
		_, err := Decode("f.json", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") || len(err.Error()) > 400 {
			t.Errorf("%s: %.500v\nwant %q", tc.name, err, tc.want)
			continue
		}
		if tc.name != "not JSON" && tc.name != "foreign JSON" && tc.name != "array" && tc.name != "empty" && !strings.HasPrefix(tc.name, "format") &&
			!strings.Contains(err.Error(), "edited or damaged") {
			t.Errorf("%s: %v does not say the file was edited or damaged", tc.name, err)
		}
	}
	// Cut short anywhere: refused, never read as a smaller shard.
	for cut := 0; cut < len(good)-2; cut += 7 {
		if _, err := Decode("f.json", []byte(good[:cut])); err == nil {
			t.Fatalf("cut at byte %d of %d: read", cut, len(good))
		} else if cut > 40 && !strings.Contains(err.Error(), "cut short or damaged") {
			t.Errorf("cut at byte %d: %v", cut, err)
		}
	}
	// A file of the old format, without checksums, reads as Legacy.
	legacy := field(Format, LegacyFormat)
	for _, id := range []int{2, 5, 7} {
		legacy = strings.Replace(legacy, `,
   "checksum": "`+sum(id, uint64(id), 10)+`"`, "", 1)
	}
	if l, err := Decode("f.json", []byte(legacy)); err != nil || !l.Legacy || len(l.Results) != 3 {
		t.Errorf("legacy: %+v, %v", l, err)
	}
}

// The counts a file claims allocate nothing until the files hold as much:
// a run of MaxTasks tasks in one shard file of one result, a billion
// shards, and the same file a thousand times, merge (or fail) at once.
func TestMergeBounded(t *testing.T) {
	one := &File{Run: run8, Hash: "h", Tasks: MaxTasks, Shards: 1, Results: []TaskResult{{ID: 7, Count: 1, Nodes: 1}}}
	one.Total = one.Sum()
	if _, err := Merge([]string{"a"}, []*File{one}); err == nil || !strings.Contains(err.Error(), "4194303 tasks are in no shard (the first is task 0)") {
		t.Errorf("one result for MaxTasks tasks: %v", err)
	}
	many := *one
	many.Shards = MaxTasks
	if _, err := Merge([]string{"a"}, []*File{&many}); !errors.Is(err, ErrIncomplete) || !strings.Contains(err.Error(), "4194303 of 4194304 shards have no result file: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ...") {
		t.Errorf("MaxTasks shards: %v", err)
	}
	var s Set
	for i := range 1000 {
		g := *one
		g.Results = slices.Clone(one.Results)
		if err := s.Add(fmt.Sprint("copy", i), &g); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range s.Files() {
		if f != s.Files()[0] {
			t.Fatal("a shard given again is kept twice")
		}
	}
	// More results than the run has tasks.
	a := &File{Run: run8, Hash: "h", Tasks: 3, Shards: 2, Results: []TaskResult{{ID: 0}, {ID: 1}}}
	b := &File{Run: run8, Hash: "h", Tasks: 3, Shard: 1, Shards: 2, Results: []TaskResult{{ID: 1}, {ID: 2}}}
	if _, err := Merge([]string{"a", "b"}, []*File{a, b}); err == nil || !strings.Contains(err.Error(), "4 results, more than the run's 3 tasks") {
		t.Errorf("overfull: %v", err)
	}
}

// A result is written only over an empty file or a result of the same run
// and shard, and the refusal says what the file holds (once: a typo in
// --out lost another machine's shard).
func TestWriteRefuses(t *testing.T) {
	dir := t.TempDir()
	shardOf := func(i, k int, run map[string]string) *File {
		return &File{Run: run, Hash: "h" + run["n"], Tasks: 20, Shard: i, Shards: k, Results: []TaskResult{{ID: i, Count: 1, Nodes: 1}}}
	}
	path := filepath.Join(dir, "a.json")
	if err := Write(path, shardOf(0, 4, run8)); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, shardOf(0, 4, run8)); err != nil {
		t.Errorf("the same shard again: %v", err)
	}
	run9 := map[string]string{"n": "9", "version": "test"}
	for _, tc := range []struct {
		f    *File
		want string
	}{
		{shardOf(1, 4, run8), "a.json holds shard 0/4 of this run, and this is shard 1/4: refusing to replace it (give each shard its own file)"},
		{shardOf(0, 4, run9), `a.json holds shard 0/4 of another run (task list hash h8 vs h9, n "8" vs "9"): refusing to replace it`},
		{shardOf(0, 5, run8), "split into 4 vs 5 shards"},
	} {
		if err := Write(path, tc.f); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("got %v, want %q", err, tc.want)
		}
		if f, err := Read(path); err != nil || f.Shard != 0 || f.Shards != 4 || f.Run["n"] != "8" {
			t.Fatalf("the file was replaced: %+v %v", f, err)
		}
	}
	notes := filepath.Join(dir, "notes.txt")
	os.WriteFile(notes, []byte("my notes\n"), 0o644)
	if err := Write(notes, shardOf(0, 4, run8)); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "notes.txt exists and is not a readable shard result file") {
		t.Errorf("notes: %v", err)
	}
	if err := CheckTarget(notes, nil); !errors.Is(err, ErrRefused) {
		t.Errorf("notes, before planning: %v", err)
	}
	if err := CheckTarget(path, nil); err != nil {
		t.Errorf("a result, before planning: %v", err)
	}
	empty := filepath.Join(dir, "empty.json")
	os.WriteFile(empty, []byte("\n"), 0o644)
	if err := Write(empty, shardOf(2, 4, run8)); err != nil {
		t.Errorf("empty: %v", err)
	}
}

// Two shards writing one result file at the same moment: exactly one writes
// it and the other is refused, never both told "written" with one lost
// (once: in 2 of 11 tries both shards said so, the gap being
// between CheckTarget and the rename). Half the rounds start from an empty
// file, which either may replace, the other half from no file.
func TestWriteRace(t *testing.T) {
	dir := t.TempDir()
	rounds := 400
	if testing.Short() {
		rounds = 100
	}
	for round := range rounds {
		path := filepath.Join(dir, fmt.Sprintf("s%d.json", round))
		if round%2 == 1 {
			os.WriteFile(path, nil, 0o644)
		}
		var (
			wg    sync.WaitGroup
			start = make(chan struct{})
			errs  [2]error
		)
		for i := range 2 {
			wg.Go(func() {
				f := &File{Run: run8, Hash: "h8", Tasks: 20, Shard: i, Shards: 2, Results: []TaskResult{{ID: i, Count: 1, Nodes: 1}}}
				<-start
				errs[i] = Write(path, f)
			})
		}
		close(start)
		wg.Wait()
		var won []int
		for i, err := range errs {
			if err == nil {
				won = append(won, i)
			} else if !errors.Is(err, ErrRefused) {
				t.Fatalf("round %d, shard %d: %v", round, i, err)
			}
		}
		if len(won) != 1 {
			t.Fatalf("round %d: shards %v both wrote %s (errors %v)", round, won, path, errs)
		}
		f, err := Read(path)
		if err != nil || f.Shard != won[0] {
			t.Fatalf("round %d: shard %d was told it wrote the file, which holds %+v (%v)", round, won[0], f, err)
		}
		if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) > 0 {
			t.Fatalf("round %d: temporary files left: %v", round, left)
		}
	}
}
