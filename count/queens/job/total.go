package job

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/shard"
)

// Check is a total compared with the published values: OEIS A000170 and,
// for the unique count, A002562. The fields are nil when no value is
// known (n > queens.MaxKnown).
type Check struct {
	Known       *uint64 `json:"known,omitempty"`
	KnownUnique *uint64 `json:"known_unique,omitempty"`
	Matches     *bool   `json:"matches_known,omitempty"`
}

// CheckTotal compares the total (and the unique count, if not nil) of the
// n×n board with the known values.
func CheckTotal(n int, total count.Uint128, unique *count.Uint128) Check {
	var c Check
	k, ok := queens.Known(n)
	if !ok {
		return c
	}
	c.Known = &k
	m := total.Cmp(count.U128(k)) == 0
	if ku, ok := queens.KnownUnique(n); ok && unique != nil {
		c.KnownUnique = &ku
		m = m && unique.Cmp(count.U128(ku)) == 0
	}
	c.Matches = &m
	return c
}

// Mismatch reports whether a known value disagrees: a bug to report.
func (c Check) Mismatch() bool { return c.Matches != nil && !*c.Matches }

// Total is the exact total of a whole plan, assembled from per-task
// results and checked.
type Total struct {
	N         int            `json:"n"`
	Method    queens.Method  `json:"method"`
	Depth     int            `json:"depth"`
	Hash      string         `json:"hash"`
	Algorithm int            `json:"algorithm"`
	Tasks     int            `json:"tasks"`
	Total     count.Uint128  `json:"total"`
	Unique    *count.Uint128 `json:"unique,omitempty"` // with unique asked for
	Nodes     count.Uint128  `json:"nodes"`
	Check
	// Warnings lists harmless oddities, such as a task reported twice
	// with the same result (counted once).
	Warnings []string `json:"warnings,omitempty"`
}

// ErrIncomplete is wrapped by Assemble's error when tasks have no result.
var ErrIncomplete = errors.New("tasks missing")

// ErrConflict is wrapped by Assemble's error when a task has two
// different results: one of them is wrong.
var ErrConflict = errors.New("conflicting results")

// Assemble adds up the results of every task of p, wherever they were
// counted (a queue's workers, a journal, shard files), and checks them
// like Merge: every id in range, every task present, a task given twice
// with the same result used once (with a warning) and with different
// results refused. unique also gives the count up to symmetry.
func Assemble(p *queens.Plan, results []shard.TaskResult, unique bool) (*Total, error) {
	return AssembleUnits(p, p.Len(), results, unique)
}

// AssembleUnits is Assemble for a plan counted in units: groups of its
// tasks, each counted as one task and given one result (a queue job, see
// package queue), numbered 0 to units-1. The total needs only the sum over
// every task, which the units' results add up to.
func AssembleUnits(p *queens.Plan, units int, results []shard.TaskResult, unique bool) (*Total, error) {
	tasks := units
	seen := make([]bool, tasks)
	got := make([]shard.TaskResult, tasks)
	var sum count.Totals
	var warnings []string
	dups := 0
	for _, r := range results {
		if r.ID < 0 || r.ID >= tasks {
			return nil, fmt.Errorf("a result for task %d, which is not in the plan (tasks 0 to %d): results of another plan?", r.ID, tasks-1)
		}
		if seen[r.ID] {
			if got[r.ID] != r {
				return nil, fmt.Errorf("%w: task %d has two results (count %d, %d nodes and count %d, %d nodes): one of them is wrong; count it again",
					ErrConflict, r.ID, got[r.ID].Count, got[r.ID].Nodes, r.Count, r.Nodes)
			}
			dups++
			continue
		}
		seen[r.ID], got[r.ID] = true, r
		sum.Add(count.Result{Count: r.Count, Nodes: r.Nodes})
	}
	if dups > 0 {
		warnings = append(warnings, fmt.Sprintf("%d tasks were reported more than once with identical results: each counted once", dups))
	}
	if missing := tasks - sum.Tasks; missing > 0 {
		var first []string
		for id := 0; id < tasks && len(first) < 10; id++ {
			if !seen[id] {
				first = append(first, strconv.Itoa(id))
			}
		}
		more := ""
		if missing > len(first) {
			more = ", ..."
		}
		return nil, fmt.Errorf("%w: %d of %d tasks have no result (%s%s)", ErrIncomplete, missing, tasks, strings.Join(first, ", "), more)
	}
	return total(p.N, p.Method, p.Depth, p.Hash(), sum, unique, warnings), nil
}

// total builds the checked Total of the plan of n, method, depth and hash
// from the sums over all its tasks.
func total(n int, method queens.Method, depth int, hash string, sum count.Totals, unique bool, warnings []string) *Total {
	t := &Total{
		N: n, Method: method, Depth: depth, Hash: hash, Algorithm: queens.AlgorithmVersion,
		Tasks: sum.Tasks, Total: sum.Count, Nodes: sum.Nodes, Warnings: warnings,
	}
	if unique {
		u := queens.UniqueFrom(n, sum.Count)
		t.Unique = &u
	}
	t.Check = CheckTotal(n, t.Total, t.Unique)
	return t
}

// Merged is the outcome of Merge: the Total and the shards it came from.
type Merged struct {
	Total
	Shards int `json:"shards"`
	// Seconds sums the shards' wall times: the compute time spent.
	Seconds float64 `json:"shard_seconds"`
	// Version lists the program versions that counted the shards
	// (comma-separated), for information.
	Version string `json:"version"`
}

// Merge checks that files are every shard of one n-queens run (see
// shard.Merge) counted with this program's algorithm, and returns the
// checked total. names label the files in messages. Shard files written
// before the algorithm version was pinned (they record the program version
// in their run instead) merge with each other as algorithm 1.
func Merge(names []string, files []*shard.File, unique bool) (*Merged, error) {
	m, err := shard.Merge(names, files)
	if err != nil {
		return nil, err
	}
	n, err1 := strconv.Atoi(m.Run["n"])
	depth, err2 := strconv.Atoi(m.Run["depth"])
	method, err3 := queens.ParseMethod(m.Run["method"])
	if err := errors.Join(err1, err2, err3); err != nil || n < 1 || n > queens.MaxN {
		return nil, fmt.Errorf("%s: the run's board size %q, depth %q or method %q is not valid: not an n-queens shard", names[0], m.Run["n"], m.Run["depth"], m.Run["method"])
	}
	alg, ok := m.Run["algorithm"]
	if !ok {
		alg = "1"
	}
	if alg != strconv.Itoa(queens.AlgorithmVersion) {
		return nil, fmt.Errorf("%s: the shards were counted with algorithm version %s and this program counts with version %d, whose task counts may differ: merge them with a program of version %s, or count them again", names[0], alg, queens.AlgorithmVersion, alg)
	}
	out := &Merged{Total: *total(n, method, depth, m.Hash, m.Total, unique, m.Warnings), Shards: m.Shards, Seconds: m.Seconds, Version: strings.Join(m.Programs, ", ")}
	out.Tasks = m.Tasks
	if v, ok := m.Run["version"]; ok && out.Version == "" {
		out.Version = v
	}
	return out, nil
}
