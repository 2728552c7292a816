// Package count is the problem-agnostic engine of the solution counters: it
// runs a list of independent tasks on a bounded pool of workers and adds
// their results exactly.
//
// A puzzle package (count/queens, count/sudoku) turns its search tree into
// tasks, each a subtree that can be counted alone, and gives the engine a
// function that counts one task. The engine knows nothing about boards.
//
// The pool is a fixed set of workers on golang.org/x/sync/errgroup. Each
// worker pulls the next task index from one atomic counter, so there is no
// goroutine per task. Tasks that share work (what one builds, the others
// read) can be handed out in batches instead (RunBatches). A task runs its
// search in slices of bounded work and checks its context between them
// (docs/architecture.md, contract 1), so cancelling a run stops it within
// a slice at any problem size: the tasks that were running are abandoned,
// never reported.
package count

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
)

// Result is what counting one task produced.
type Result struct {
	// Count is the (weighted) number of solutions found in the task.
	Count uint64
	// Nodes is the number of search nodes the task visited: a measure of
	// work, reported as nodes/s.
	Nodes uint64
}

// Totals are exact sums over many tasks.
type Totals struct {
	Count Uint128 `json:"count"`
	Nodes Uint128 `json:"nodes"`
	Tasks int     `json:"tasks"`
}

// Add adds one task's result.
func (t *Totals) Add(r Result) {
	t.Count = t.Count.Add64(r.Count)
	t.Nodes = t.Nodes.Add64(r.Nodes)
	t.Tasks++
}

// Merge adds another set of totals.
func (t *Totals) Merge(o Totals) {
	t.Count = t.Count.Add(o.Count)
	t.Nodes = t.Nodes.Add(o.Nodes)
	t.Tasks += o.Tasks
}

// TaskFunc counts the task with the given id. It is called from several
// goroutines at once and must be safe for that.
//
// A task runs its search in slices of bounded work, about 10 ms each, and
// between slices returns ctx.Err() if ctx is done, and calls
// progress(nodes) with the nodes of the slice just run (progress is never
// nil and is cheap; call it from the task's goroutine, not from several at
// once). The progress of a finished task adds up to its Result.Nodes. A task cancelled half way returns its
// context's error and no result: its partial work is dropped and it is
// counted again on resume.
type TaskFunc func(ctx context.Context, id int, progress func(nodes uint64)) (Result, error)

// Options tune Run.
type Options struct {
	// Workers is the number of tasks run at once; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// OnDone, if set, is called once for every task that finished, from the
	// worker that ran it (so calls may be concurrent), before the task's
	// result is added to the totals. Checkpoint journals and progress
	// reports hook in here. An error from OnDone stops the run. It is
	// never called once Run has returned.
	OnDone func(id int, r Result) error
	// OnProgress, if set, is called after every slice of every task with
	// the task's id and the nodes it has visited so far (a running total),
	// from the workers (so calls are concurrent and must be quick): the
	// live work, for a nodes/s figure while every task is long. A task's
	// last call gives its Result.Nodes; a task abandoned by a cancelled
	// run simply stops being reported. It is never called once Run has
	// returned.
	OnProgress func(id int, nodes uint64)
}

// ErrPanic wraps a panic raised while counting a task.
var ErrPanic = errors.New("task panicked")

// abandonAfter is how long Run waits, once stopped, for the running tasks
// to see it at the end of their slice; a task still running then is left
// behind. A task that keeps to its slices answers in milliseconds.
var abandonAfter = time.Second

// Run counts the tasks whose ids are listed in ids, at most opt.Workers at
// a time, and returns the exact totals.
//
// If ctx is cancelled, Run stops handing out tasks and returns within
// about a second (a slice, for tasks that keep to their slices) with
// ctx's error and the totals of the tasks that did finish, each of which
// was also reported to OnDone: those are partial and must not be shown as
// the answer. The tasks that were running are abandoned: their partial
// work is neither reported nor added. A task that fails or panics stops
// the run the same way; the panic becomes an error wrapping ErrPanic with
// the task id and stack.
func Run(ctx context.Context, ids []int, do TaskFunc, opt Options) (Totals, error) {
	one := func(ctx context.Context, ids []int, progress func(uint64)) ([]Result, error) {
		r, err := do(ctx, ids[0], progress)
		if err != nil {
			return nil, err
		}
		return []Result{r}, nil
	}
	return run(ctx, len(ids), len(ids), func(i int) []int { return ids[i : i+1] }, one, opt)
}

// BatchFunc counts several tasks together, returning each one's result
// in the order of ids: tasks that share work (what one builds, the others
// read) cost less counted at once. It keeps to slices of bounded work as
// a TaskFunc does, reporting the batch's progress through progress; a
// batch cancelled or failed half way returns an error and no result, and
// all of its tasks are counted again on resume.
type BatchFunc func(ctx context.Context, ids []int, progress func(nodes uint64)) ([]Result, error)

// RunBatches is Run for tasks counted in batches: each worker takes the
// next batch, counts it with do and reports each of its tasks to
// opt.OnDone and the totals. The progress of a batch is reported to
// opt.OnProgress under its first id. Every id appears in one batch.
func RunBatches(ctx context.Context, batches [][]int, do BatchFunc, opt Options) (Totals, error) {
	tasks := 0
	for _, b := range batches {
		if len(b) == 0 {
			return Totals{}, errors.New("count: an empty batch")
		}
		tasks += len(b)
	}
	return run(ctx, len(batches), tasks, func(i int) []int { return batches[i] }, do, opt)
}

// run counts batches 0..n-1 (batch(i) gives the ids of one), tasks ids
// in all, as Run and RunBatches say.
func run(ctx context.Context, n, tasks int, batch func(i int) []int, do BatchFunc, opt Options) (Totals, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > n {
		workers = n
	}
	var (
		next atomic.Int64
		// gate is held for reading while a task reports progress or a
		// finished task is reported and added, and for writing when Run
		// stops waiting: nothing is reported after Run has returned, and
		// the totals it returns are the ones reported.
		gate   sync.RWMutex
		closed bool // guarded by gate
		mu     sync.Mutex
		total  Totals
	)
	// progress returns the function a task reports its slices to.
	progress := func(int) func(uint64) { return func(uint64) {} }
	if opt.OnProgress != nil {
		progress = func(id int) func(uint64) {
			var sofar uint64
			return func(nodes uint64) {
				sofar += nodes
				gate.RLock()
				if !closed {
					opt.OnProgress(id, sofar)
				}
				gate.RUnlock()
			}
		}
	}
	report := func(id int, r Result) error {
		gate.RLock()
		defer gate.RUnlock()
		if closed {
			return errAbandoned
		}
		if opt.OnDone != nil {
			if err := opt.OnDone(id, r); err != nil {
				return err
			}
		}
		mu.Lock()
		total.Add(r)
		mu.Unlock()
		return nil
	}
	g, gctx := errgroup.WithContext(ctx)
	for w := 0; w < workers; w++ {
		g.Go(func() error {
			for gctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return nil
				}
				ids := batch(i)
				rs, err := runOne(gctx, do, ids, progress(ids[0]))
				if err != nil {
					return err
				}
				for j, id := range ids {
					if err := report(id, rs[j]); err != nil {
						return err
					}
				}
			}
			return nil
		})
	}
	finished := make(chan error, 1)
	go func() { finished <- g.Wait() }()
	var err error
	select {
	case err = <-finished:
	case <-gctx.Done():
		// Cancelled, or a task failed: the running tasks stop at the end
		// of their slice. Wait that long, not for a task that does not
		// keep to its slices.
		t := time.NewTimer(abandonAfter)
		select {
		case err = <-finished:
		case <-t.C:
			gate.Lock()
			closed = true
			gate.Unlock()
			err = context.Cause(gctx)
		}
		t.Stop()
	}
	mu.Lock()
	defer mu.Unlock()
	if cerr := ctx.Err(); cerr != nil {
		// Stopped by ctx (unless every task finished first): say so
		// plainly, whatever the tasks returned on their way out.
		if err == nil && total.Tasks < tasks || err != nil && (errors.Is(err, cerr) || errors.Is(err, errAbandoned)) {
			err = cerr
		}
	}
	if err == nil && total.Tasks < tasks {
		// Should not happen: every task either finished or failed.
		err = fmt.Errorf("count: %d of %d tasks counted", total.Tasks, tasks)
	}
	return total, err
}

// errAbandoned is returned by a task reported after Run stopped waiting.
var errAbandoned = errors.New("count: the run was abandoned")

func runOne(ctx context.Context, do BatchFunc, ids []int, progress func(uint64)) (rs []Result, err error) {
	name := func() string {
		if len(ids) == 1 {
			return fmt.Sprintf("task %d", ids[0])
		}
		return fmt.Sprintf("tasks %d and %d more", ids[0], len(ids)-1)
	}
	defer func() {
		if p := recover(); p != nil {
			rs, err = nil, fmt.Errorf("%s: %w: %v\n%s", name(), ErrPanic, p, debug.Stack())
		}
	}()
	rs, err = do(ctx, ids, progress)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name(), err)
	}
	if len(rs) != len(ids) {
		return nil, fmt.Errorf("%s: %d results for %d tasks", name(), len(rs), len(ids))
	}
	return rs, nil
}

// All returns the ids 0..n-1, the usual argument to Run.
func All(n int) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	return ids
}
