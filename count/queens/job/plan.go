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
//   - queens.Count counts a given set of the plan's task ids as a
//     queens.Execution says, reporting each task's result as it finishes
//     (a queue worker publishes it).
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

import "github.com/nqcount/nqcount/count/queens"

// invalid wraps err so that errors.Is(err, queens.ErrInvalid) holds.
func invalid(err error) error { return queens.Usage(err) }
