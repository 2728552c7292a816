// Package job orchestrates a long n-queens count, for every front end that
// runs one: the nqueens command, the cluster worker of a work queue, a web
// page showing a count as it runs. The name is the one such a count goes
// by everywhere in the project: a plan submitted for counting is a job,
// identified by its plan (queens.Plan.ID), whether one process counts it, shards
// of it run under Slurm, or a queue hands its tasks to workers.
//
// The pieces, each usable alone:
//
//   - queens.NewPlan cuts a count into tasks from a queens.Spec, the same
//     way on every machine, with a hash and the values results must agree
//     on (Plan.Pin); Plan.Shard selects one static shard's tasks. It is
//     the one plan of the project: a job counts it, a queue hands out its
//     tasks.
//   - Count counts a given set of the plan's task ids, reporting each
//     task's result as it finishes (a queue worker publishes it).
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
	"runtime"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
)

// CountOptions tune Count.
type CountOptions struct {
	// Workers is the number of tasks counted at once; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// Kernel names the kernel; "" or "auto" picks the fastest this CPU
	// supports. Memory bounds what the count holds (0: the default, see
	// queens.Execution), Path forces the join's path.
	Kernel string
	Memory uint64
	Path   string
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
func Count(ctx context.Context, p *queens.Plan, ids []int, opt CountOptions) (queens.Result, error) {
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
	return queens.CountTasks(ctx, p, ids, queens.Options{Workers: workers, Kernel: opt.Kernel, Memory: opt.Memory, Path: opt.Path, OnDone: onDone, OnProgress: onProgress})
}

// invalid wraps err so that errors.Is(err, queens.ErrInvalid) holds.
func invalid(err error) error { return queens.Usage(err) }
