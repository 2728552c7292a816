// Package job orchestrates a long n-queens count, for every front end that
// runs one: the nqueens command, the cluster worker of a work queue, a web
// page showing a count as it runs. The name is the one such a count goes
// by everywhere in the project: a plan submitted for counting is a job,
// identified by its plan (Plan.ID), whether one process counts it, shards
// of it run under Slurm, or a queue hands its tasks to workers.
//
// The pieces, each usable alone:
//
//   - NewPlan cuts a count into tasks from a Spec, the same way on every
//     machine, with a hash and the values results must agree on (Pin);
//     Plan.Shard selects one static shard's tasks.
//   - Plan.Count counts a given set of task ids, reporting each task's
//     result as it finishes (a queue worker publishes it).
//   - A Tracker turns finished tasks into Progress snapshots: tasks done,
//     the share of the estimated work, nodes/s, ETA.
//   - Assemble checks per-task results of a whole plan (every task once,
//     duplicates identical) and adds them up into a Total, with the unique
//     count and the OEIS check; Merge does the same for shard files.
//
// Open and Job.Run put them together as nqueens count does: resume from a
// checkpoint journal, count one shard or the whole plan, report progress,
// write the shard's result file or check the total.
//
// What a task counts is pinned by the plan hash and
// queens.AlgorithmVersion; the program version is recorded for
// information only, so any build of the same algorithm resumes a journal
// and merges with shards of another.
package job

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/shard"
)

// Spec says what to count. It decides the task list, and so the plan's
// hash, with nothing else: the same Spec gives the same tasks everywhere.
type Spec struct {
	N      int
	Method queens.Method // "" or queens.Auto: queens.DefaultMethod(N)
	Depth  int           // split depth; 0 chooses one from N
	// Memory bounds what the join method plans for, in bytes (0:
	// queens.DefaultMemory()); with depth 0 it picks the cut of the
	// board, and so the tasks, whose tables and lists fit.
	Memory uint64
}

// Plan is a count cut into tasks (see queens.Plan), with its hash computed
// once.
type Plan struct {
	*queens.Plan
	hash string
}

// NewPlan plans s with queens.StableWorkers, so that the tasks do not
// depend on this machine: checkpoints, shards and queued tasks need that.
// Errors for a bad Spec wrap queens.ErrInvalid.
func NewPlan(s Spec) (*Plan, error) {
	return newPlan(s, queens.StableWorkers)
}

// newPlan plans s with the automatic depth tuned for workers.
func newPlan(s Spec, workers int) (*Plan, error) {
	p, err := queens.NewPlanMemory(s.N, s.Method, s.Depth, workers, s.Memory)
	if err != nil {
		return nil, err
	}
	return &Plan{Plan: p, hash: p.Hash()}, nil
}

// Hash identifies the plan's task list (queens.Plan.Hash).
func (p *Plan) Hash() string { return p.hash }

// Spec returns the plan's Spec, with the method and depth it resolved to.
func (p *Plan) Spec() Spec { return Spec{N: p.N, Method: p.Method, Depth: p.Depth} }

// ID names the job: the same for the same tasks counted by the same
// algorithm, on every machine; a word of letters, digits and dashes, fit
// for a file name or a message subject.
func (p *Plan) ID() string {
	return fmt.Sprintf("n%d-%s-a%d", p.N, p.hash, queens.AlgorithmVersion)
}

// Pin returns the values that results of this plan must agree on, beside
// the hash and the number of tasks: board size, method, depth and
// queens.AlgorithmVersion. Journals and shard files carry them.
func (p *Plan) Pin() map[string]string {
	return map[string]string{
		"n":         strconv.Itoa(p.N),
		"method":    string(p.Method),
		"depth":     strconv.Itoa(p.Depth),
		"algorithm": strconv.Itoa(queens.AlgorithmVersion),
	}
}

// Shard returns the ids of shard x in the split of the plan by estimated
// cost (shard.Assign). K must not exceed the number of tasks.
func (p *Plan) Shard(x shard.Index) ([]int, error) {
	// Check before Select computes the estimates: a K of billions is
	// refused at once.
	if err := x.Check(p.Len()); err != nil {
		return nil, invalid(fmt.Errorf("%w (n = %d, depth %d; a larger depth makes more tasks)", err, p.N, p.Depth))
	}
	return shard.Select(p.Estimates(), x)
}

// CountOptions tune Plan.Count.
type CountOptions struct {
	// Workers is the number of tasks counted at once; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// Kernel names the kernel; "" or "auto" picks the fastest this CPU
	// supports.
	Kernel string
	// OnResult, if set, is called once for each task that finished, from
	// the worker that counted it (calls may be concurrent), before the
	// task is added to the totals. An error from it stops the count.
	OnResult func(id int, r count.Result) error
	// Tracker, if set, is told of each finished task, and of the nodes of
	// the running ones after each of their slices (Tracker.Partial).
	Tracker *Tracker
}

// Count counts the tasks of p listed in ids with this machine's kernels
// and returns their totals: Total, Nodes and Tasks cover those tasks only.
// If ctx is cancelled it returns ctx's error and no result; each task
// reported to OnResult before stays valid, the others are to be counted
// again.
func (p *Plan) Count(ctx context.Context, ids []int, opt CountOptions) (queens.Result, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	onDone := opt.OnResult
	var onProgress func(id int, nodes uint64)
	if t := opt.Tracker; t != nil {
		onProgress = t.Partial // the running tasks' nodes, slice by slice
		onDone = func(id int, r count.Result) error {
			if opt.OnResult != nil {
				if err := opt.OnResult(id, r); err != nil {
					return err
				}
			}
			t.Done(id, r)
			return nil
		}
	}
	return queens.CountTasks(ctx, p.Plan, ids, queens.Options{Workers: workers, Kernel: opt.Kernel, OnDone: onDone, OnProgress: onProgress})
}

// usageError marks an error caused by the configuration (a usage error)
// while keeping its own message.
type usageError struct{ err error }

func (e usageError) Error() string   { return e.err.Error() }
func (e usageError) Unwrap() []error { return []error{e.err, queens.ErrInvalid} }

// invalid wraps err so that errors.Is(err, queens.ErrInvalid) holds.
func invalid(err error) error {
	if err == nil || errors.Is(err, queens.ErrInvalid) {
		return err
	}
	return usageError{err}
}
