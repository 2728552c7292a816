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
// # Files edited, damaged or hostile
//
// Every result in a file carries a checksum of its task, count and nodes,
// and the file's total is checked against the sum of its results, so that
// a file edited by hand or damaged is refused with a message that says so
// and shows the numbers that disagree (a file edited consistently, its
// checksums and total redone, is beyond any check a file can carry: the
// merged total's comparison with the published values is the last one).
// Files of format nqcount-shard/1, written before results had checksums,
// are read with File.Legacy set: merging them is the caller's decision.
//
// Reading is bounded: a file is at most MaxFileSize bytes (so at most
// MaxResults results), a run at most MaxTasks tasks, and every count a file
// claims (tasks, shards) is checked against what the files hold before
// anything is allocated from it. ReadContext stops when its context is
// done, even on input that never ends or never comes. Write replaces only
// an empty file or a result of the same run and shard (CheckTarget): one
// shard's file never overwrites another's.
//
// Parse and FromEnv read a shard's index from a command line ("3/16") or
// from a cluster scheduler's environment (a Slurm job array, a Kubernetes
// Indexed Job).
package shard

import (
	"container/heap"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

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
// must agree with SLURM_ARRAY_TASK_COUNT when both are given. When both
// schedulers' variables are set they must name the same shard: a job
// that names two is refused rather than one of them picked silently.
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
	slurm := func() (Index, error) {
		id, _, _ := num("SLURM_ARRAY_TASK_ID")
		lo, _, err1 := num("SLURM_ARRAY_TASK_MIN")
		hi, hasHi, err2 := num("SLURM_ARRAY_TASK_MAX")
		cnt, hasCnt, err3 := num("SLURM_ARRAY_TASK_COUNT")
		if err := errors.Join(err1, err2, err3); err != nil {
			return Index{}, err
		}
		k := k
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
	kube := func(idx, k int) (Index, error) {
		if k < 1 {
			return Index{}, fmt.Errorf("%w: JOB_COMPLETION_INDEX is set, but a Kubernetes Job does not say its number of completions", ErrCountUnknown)
		}
		if idx >= k {
			return Index{}, fmt.Errorf("JOB_COMPLETION_INDEX=%d is not below the number of shards, %d", idx, k)
		}
		return Index{I: idx, K: k}, nil
	}
	_, hasSlurm, serr := num("SLURM_ARRAY_TASK_ID")
	idx, hasKube, kerr := num("JOB_COMPLETION_INDEX")
	if err := errors.Join(serr, kerr); err != nil {
		return Index{}, err
	}
	switch {
	case hasSlurm && hasKube:
		a, err := slurm()
		if err != nil {
			return Index{}, err
		}
		b, err := kube(idx, a.K) // a.K is k when k is given
		if err != nil {
			return Index{}, err
		}
		if a != b {
			return Index{}, fmt.Errorf("the environment names two shards: %s for Slurm (SLURM_ARRAY_TASK_ID=%s) and %s for Kubernetes (JOB_COMPLETION_INDEX=%d), so neither is counted (unset one, or give --shard I/K)", a, getenv("SLURM_ARRAY_TASK_ID"), b, idx)
		}
		return a, nil
	case hasSlurm:
		return slurm()
	case hasKube:
		return kube(idx, k)
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
