// Package shard splits a count into K independent parts that run as
// separate processes (a Slurm array, a Kubernetes Indexed Job, K shells),
// and merges their result files into one exact total.
//
// Shards are numbered 0 to K-1, like Kubernetes' JOB_COMPLETION_INDEX and a
// Slurm array declared --array=0-(K-1). Assign balances the shards by the
// expected cost of each task, not by the number of tasks, and is a
// deterministic function of the costs and K, so every process of a run
// computes the same split without talking to the others.
//
// A result File is self-describing: it names its run (the hash of the
// task list, the task count, and key/values such as the board size and the
// version of the counting algorithm), its shard, and every task's count.
// Merge refuses files of different runs and reports shards that are
// missing or duplicated. The program that counted a shard is recorded for
// information only: shards counted by different builds merge.
//
// Parse and FromEnv read a shard's index from a command line ("3/16") or
// from a cluster scheduler's environment (a Slurm job array, a Kubernetes
// Indexed Job).
package shard

import (
	"container/heap"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/internal/atomicfile"
)

// Format is the value of File.Format written by this package.
const Format = "nqcount-shard/1"

// Index names shard I of K, numbered from 0 (0 <= I < K) like Kubernetes'
// JOB_COMPLETION_INDEX and a Slurm array declared --array=0-(K-1). The zero
// Index (K = 0) means no shard: the whole count.
type Index struct{ I, K int }

// String returns "I/K".
func (x Index) String() string { return strconv.Itoa(x.I) + "/" + strconv.Itoa(x.K) }

// Parse reads a shard index written "I/K", with 0 <= I < K.
func Parse(s string) (Index, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	k, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || k < 1 || i < 0 || i >= k {
		return Index{}, fmt.Errorf("shard %q: want I/K with 0 <= I < K (shards are numbered from 0)", s)
	}
	return Index{I: i, K: k}, nil
}

// ErrCountUnknown is wrapped by FromEnv's error when the environment gives
// a shard's index but not the number of shards, and none was given.
var ErrCountUnknown = errors.New("the number of shards is not known")

// FromEnv reads the shard index from a cluster scheduler's environment,
// through getenv (os.Getenv):
//
//   - Slurm: SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN, of
//     SLURM_ARRAY_TASK_COUNT, so both --array=0-7 and --array=1-8 give
//     shards 0..7 of 8; the array must be a contiguous range;
//   - Kubernetes: JOB_COMPLETION_INDEX of k, the Job's completions.
//
// k is the number of shards when the caller knows it (a flag), or 0; it
// must agree with SLURM_ARRAY_TASK_COUNT when both are given.
func FromEnv(getenv func(string) string, k int) (Index, error) {
	num := func(name string) (int, bool, error) {
		s := getenv(name)
		if s == "" {
			return 0, false, nil
		}
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			return 0, true, fmt.Errorf("%s=%q is not a whole number", name, s)
		}
		return v, true, nil
	}
	if id, ok, err := num("SLURM_ARRAY_TASK_ID"); ok || err != nil {
		if err != nil {
			return Index{}, err
		}
		lo, _, err1 := num("SLURM_ARRAY_TASK_MIN")
		hi, hasHi, err2 := num("SLURM_ARRAY_TASK_MAX")
		cnt, hasCnt, err3 := num("SLURM_ARRAY_TASK_COUNT")
		if err := errors.Join(err1, err2, err3); err != nil {
			return Index{}, err
		}
		if hasCnt {
			if k != 0 && k != cnt {
				return Index{}, fmt.Errorf("the number of shards is %d but SLURM_ARRAY_TASK_COUNT=%d", k, cnt)
			}
			k = cnt
		}
		if k < 1 {
			return Index{}, fmt.Errorf("%w: SLURM_ARRAY_TASK_COUNT is not set", ErrCountUnknown)
		}
		if hasHi && hi-lo+1 != k {
			return Index{}, fmt.Errorf("the Slurm array %d-%d has %d tasks, not a contiguous range (use --array=0-%d)", lo, hi, k, k-1)
		}
		i := id - lo
		if i < 0 || i >= k {
			return Index{}, fmt.Errorf("SLURM_ARRAY_TASK_ID=%d is outside %d..%d", id, lo, lo+k-1)
		}
		return Index{I: i, K: k}, nil
	}
	if idx, ok, err := num("JOB_COMPLETION_INDEX"); ok || err != nil {
		if err != nil {
			return Index{}, err
		}
		if k < 1 {
			return Index{}, fmt.Errorf("%w: JOB_COMPLETION_INDEX is set, but a Kubernetes Job does not say its number of completions", ErrCountUnknown)
		}
		if idx >= k {
			return Index{}, fmt.Errorf("JOB_COMPLETION_INDEX=%d is not below the number of shards, %d", idx, k)
		}
		return Index{I: idx, K: k}, nil
	}
	return Index{}, errors.New("neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set")
}

// Select returns the ids of shard x in Assign's split of the tasks with
// these costs. It refuses a K above the number of tasks, which would leave
// shards with nothing to do (and a K of billions would exhaust memory).
func Select(costs []uint64, x Index) ([]int, error) {
	if err := x.Check(len(costs)); err != nil {
		return nil, err
	}
	return Assign(costs, x.K)[x.I], nil
}

// Check reports whether x is a shard of a split of that many tasks:
// 0 <= I < K <= tasks.
func (x Index) Check(tasks int) error {
	if x.K < 1 || x.I < 0 || x.I >= x.K {
		return fmt.Errorf("shard %s: want I/K with 0 <= I < K", x)
	}
	if x.K > tasks {
		return fmt.Errorf("shard %s: the count has only %d tasks, so it splits into at most %d shards", x, tasks, tasks)
	}
	return nil
}

// Assign splits the tasks 0..len(costs)-1 into k shards of about equal
// total cost and returns the ids of each shard in increasing order. Its
// memory grows with k: Select checks k against the number of tasks.
//
// It is the longest-processing-time rule: tasks in decreasing order of
// cost (ties by id) each go to the shard with the least cost so far (ties
// by shard index). The result depends only on costs and k. A cost of 0 is
// treated as 1, so tasks without an estimate still spread by number.
func Assign(costs []uint64, k int) [][]int {
	if k < 1 {
		panic("shard: Assign with k < 1")
	}
	order := make([]int, len(costs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return costs[order[a]] > costs[order[b]] })
	h := make(loads, k)
	for i := range h {
		h[i].index = i
	}
	out := make([][]int, k)
	for _, id := range order {
		c := max(costs[id], 1)
		out[h[0].index] = append(out[h[0].index], id)
		h[0].cost += c
		heap.Fix(&h, 0)
	}
	for _, ids := range out {
		slices.Sort(ids)
	}
	return out
}

type load struct {
	cost  uint64
	index int
}

type loads []load

func (h loads) Len() int { return len(h) }
func (h loads) Less(i, j int) bool {
	return h[i].cost < h[j].cost || h[i].cost == h[j].cost && h[i].index < h[j].index
}
func (h loads) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *loads) Push(any)     { panic("unused") }
func (h *loads) Pop() any     { panic("unused") }

// TaskResult is one task's result in a shard file.
type TaskResult struct {
	ID    int    `json:"id"`
	Count uint64 `json:"count"`
	Nodes uint64 `json:"nodes"`
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
}

// Sum returns the totals of f's results.
func (f *File) Sum() count.Totals {
	var t count.Totals
	for _, r := range f.Results {
		t.Add(count.Result{Count: r.Count, Nodes: r.Nodes})
	}
	return t
}

// Write sets f.Format and f.Total and writes f to path atomically: a
// temporary file, synced, renamed over path. A reader never sees a
// half-written result.
func Write(path string, f *File) error {
	f.Format = Format
	f.Total = f.Sum()
	b, err := json.MarshalIndent(f, "", " ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	return atomicfile.WriteFile(path, b)
}

// Read reads and checks a shard file: its format, its shard index, its
// task ids (in range, increasing, no repeats) and its total.
func Read(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s: not a shard result file: %v", path, err)
	}
	if f.Format != Format {
		return nil, fmt.Errorf("%s: format %q, want %q: not a shard result file of this version", path, f.Format, Format)
	}
	if f.Shards < 1 || f.Shard < 0 || f.Shard >= f.Shards {
		return nil, fmt.Errorf("%s: shard %d of %d is out of range", path, f.Shard, f.Shards)
	}
	for i, r := range f.Results {
		if r.ID < 0 || r.ID >= f.Tasks || i > 0 && r.ID <= f.Results[i-1].ID {
			return nil, fmt.Errorf("%s: task ids out of range or out of order at result %d (id %d)", path, i, r.ID)
		}
	}
	if s := f.Sum(); s != f.Total {
		return nil, fmt.Errorf("%s: total %s over %d tasks does not match the sum of its results (%s over %d): the file was edited or damaged", path, f.Total.Count, f.Total.Tasks, s.Count, s.Tasks)
	}
	return &f, nil
}

// Merged is the outcome of Merge.
type Merged struct {
	// Run, Hash, Tasks and Shards are the run's, common to all files.
	Run    map[string]string
	Hash   string
	Tasks  int
	Shards int
	// Total sums every task once.
	Total count.Totals
	// Seconds sums the shards' wall times: the compute time spent.
	Seconds float64
	// Programs lists the distinct program versions that counted the
	// shards, sorted (empty for files that do not say).
	Programs []string
	// Warnings lists harmless oddities, such as a shard given twice with
	// identical results (used once).
	Warnings []string
}

// ErrIncomplete is wrapped by Merge's error when shards are missing.
var ErrIncomplete = errors.New("shards missing")

// Merge checks that files are the shards of one run, each shard present
// once and every task counted exactly once, and returns the total.
//
// A shard given twice with identical results (a re-run after a failure
// that was not lost after all) is used once, with a warning; a shard given
// twice with different results is an error. names label the files in
// messages (usually their paths).
func Merge(names []string, files []*File) (*Merged, error) {
	if len(files) == 0 {
		return nil, errors.New("no shard files to merge")
	}
	f0 := files[0]
	m := &Merged{Run: f0.Run, Hash: f0.Hash, Tasks: f0.Tasks, Shards: f0.Shards}
	byIndex := make([]int, f0.Shards) // file index+1 per shard
	for i, f := range files {
		if f.Hash != f0.Hash || f.Tasks != f0.Tasks || f.Shards != f0.Shards || !maps.Equal(f.Run, f0.Run) {
			return nil, fmt.Errorf("%s and %s belong to different runs: %s", names[0], names[i], runDiff(f0, f))
		}
		if j := byIndex[f.Shard]; j > 0 {
			g := files[j-1]
			if !slices.Equal(g.Results, f.Results) {
				return nil, fmt.Errorf("shard %d is given twice with different results (%s and %s): a task was counted two ways, so one of them is wrong; rerun that shard", f.Shard, names[j-1], names[i])
			}
			m.Warnings = append(m.Warnings, fmt.Sprintf("shard %d is given twice with identical results (%s and %s): used once", f.Shard, names[j-1], names[i]))
			continue
		}
		byIndex[f.Shard] = i + 1
	}
	var missing []string
	for s, j := range byIndex {
		if j == 0 {
			missing = append(missing, fmt.Sprint(s))
		}
	}
	if len(missing) > 0 {
		verb := "shards have"
		if len(missing) == 1 {
			verb = "shards has"
		}
		return nil, fmt.Errorf("%w: %d of %d %s no result file: %s (numbered from 0); run them and merge again", ErrIncomplete, len(missing), f0.Shards, verb, strings.Join(missing, ", "))
	}
	owner := make([]int, f0.Tasks)
	for s, j := range byIndex {
		f := files[j-1]
		for _, r := range f.Results {
			if owner[r.ID] != 0 {
				return nil, fmt.Errorf("task %d is in both shard %d and shard %d: the files do not come from one split", r.ID, owner[r.ID]-1, s)
			}
			owner[r.ID] = s + 1
			m.Total.Add(count.Result{Count: r.Count, Nodes: r.Nodes})
		}
		m.Seconds += f.Seconds
		if f.Program != "" && !slices.Contains(m.Programs, f.Program) {
			m.Programs = append(m.Programs, f.Program)
		}
	}
	slices.Sort(m.Programs)
	if n := f0.Tasks - m.Total.Tasks; n > 0 {
		first := slices.Index(owner, 0)
		what := "tasks are"
		if n == 1 {
			what = "task is"
		}
		return nil, fmt.Errorf("%d %s in no shard (the first is task %d): the files do not come from one split", n, what, first)
	}
	return m, nil
}

func runDiff(a, b *File) string {
	var d []string
	if a.Hash != b.Hash {
		d = append(d, fmt.Sprintf("task list hash %s vs %s", a.Hash, b.Hash))
	}
	if a.Tasks != b.Tasks {
		d = append(d, fmt.Sprintf("%d vs %d tasks", a.Tasks, b.Tasks))
	}
	if a.Shards != b.Shards {
		d = append(d, fmt.Sprintf("split into %d vs %d shards", a.Shards, b.Shards))
	}
	keys := slices.Sorted(maps.Keys(a.Run))
	for k := range b.Run {
		if _, ok := a.Run[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		if a.Run[k] != b.Run[k] {
			d = append(d, fmt.Sprintf("%s %q vs %q", k, a.Run[k], b.Run[k]))
		}
	}
	return strings.Join(d, ", ")
}
