// Package count is the problem-agnostic engine of the solution counters: it
// runs a list of independent tasks on a bounded pool of workers and adds
// their results exactly.
//
// A puzzle package (count/queens, count/sudoku) turns its search tree into
// tasks, each a subtree that can be counted alone, and gives the engine a
// function that counts one task. The engine knows nothing about boards.
//
// The pool is a fixed set of workers on golang.org/x/sync/errgroup. Each
// worker pulls the next task index from one atomic counter and keeps its own
// partial sums, so there is neither a goroutine per task nor contention on a
// shared total; the context is checked between tasks, never inside a search.
package count

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

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
type TaskFunc func(id int) (Result, error)

// Options tune Run.
type Options struct {
	// Workers is the number of tasks run at once; 0 means runtime.GOMAXPROCS(0).
	Workers int
	// OnDone, if set, is called once for every task that finished, from the
	// worker that ran it (so calls may be concurrent), before the task's
	// result is added to the totals. Checkpoint journals and progress
	// reports hook in here. An error from OnDone stops the run.
	OnDone func(id int, r Result) error
}

// ErrPanic wraps a panic raised while counting a task.
var ErrPanic = errors.New("task panicked")

// Run counts the tasks whose ids are listed in ids, at most opt.Workers at
// a time, and returns the exact totals.
//
// If ctx is cancelled, Run stops handing out tasks, waits for the running
// ones and returns ctx's error together with the totals of the tasks that
// did finish (each of which was also reported to OnDone): those are
// partial and must not be shown as the answer. A task that fails or
// panics stops the run the same way; the panic becomes an error wrapping
// ErrPanic with the task id and stack.
func Run(ctx context.Context, ids []int, do TaskFunc, opt Options) (Totals, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if workers > len(ids) {
		workers = len(ids)
	}
	var (
		next  atomic.Int64
		mu    sync.Mutex
		total Totals
	)
	g, gctx := errgroup.WithContext(ctx)
	for w := 0; w < workers; w++ {
		g.Go(func() error {
			var local Totals
			defer func() {
				mu.Lock()
				total.Merge(local)
				mu.Unlock()
			}()
			for gctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(ids) {
					return nil
				}
				id := ids[i]
				r, err := runOne(do, id)
				if err != nil {
					return err
				}
				if opt.OnDone != nil {
					if err := opt.OnDone(id, r); err != nil {
						return err
					}
				}
				local.Add(r)
			}
			return nil
		})
	}
	err := g.Wait()
	if err == nil && total.Tasks < len(ids) {
		// errgroup cancels gctx only on a task error; a cancelled parent
		// context leaves workers stopping early with nil errors.
		err = ctx.Err()
	}
	return total, err
}

func runOne(do TaskFunc, id int) (r Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("task %d: %w: %v\n%s", id, ErrPanic, p, debug.Stack())
		}
	}()
	r, err = do(id)
	if err != nil {
		err = fmt.Errorf("task %d: %w", id, err)
	}
	return r, err
}

// All returns the ids 0..n-1, the usual argument to Run.
func All(n int) []int {
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	return ids
}
