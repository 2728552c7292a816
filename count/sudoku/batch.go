package sudoku

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Workers returns the number of goroutines SolveAll and Count use when
// asked for n: GOMAXPROCS (every core) for n <= 0, and never more than
// GOMAXPROCS. Go runs at most GOMAXPROCS goroutines at a time, so more
// workers could not go faster; they would only cost memory (each holds a
// solver), which a mistyped --workers 10000000 would exhaust.
func Workers(n int) int {
	p := runtime.GOMAXPROCS(0)
	if n <= 0 || n > p {
		return p
	}
	return n
}

// SolveOptions tune SolveAll.
type SolveOptions struct {
	// Limit is how many solutions to look for in each puzzle; 0 means 2,
	// enough to tell a unique solution from several.
	Limit uint64
	// Workers is the number of goroutines; see Workers.
	Workers int
	// Solver names the variant (see Variants); "" or "auto" the best.
	Solver string
}

// SolveAll solves every puzzle of gs on up to opt.Workers goroutines and
// returns the results in the same order. (Package batch solves a stream
// of puzzles, as it is read, in bounded memory.) Workers take chunks of puzzles
// from a shared counter, each with its own Solver.
//
// If ctx is cancelled, every worker stops within a fraction of a
// millisecond, even inside a puzzle, and SolveAll returns ctx's error; the
// results are then incomplete and must not be used.
func SolveAll(ctx context.Context, gs []Grid, opt SolveOptions) ([]Result, error) {
	v, err := LookupVariant(opt.Solver)
	if err != nil {
		return nil, err
	}
	limit := opt.Limit
	if limit == 0 {
		limit = 2
	}
	const chunk = 64
	workers := min(Workers(opt.Workers), (len(gs)+chunk-1)/chunk)
	res := make([]Result, len(gs))
	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := v.newEngine()
			c := e.control()
			c.stop = &stop
			for !stop.Load() {
				lo := int(next.Add(chunk)) - chunk
				if lo >= len(gs) {
					return
				}
				for i := lo; i < min(lo+chunk, len(gs)) && !stop.Load(); i++ {
					c.reset(limit)
					if !e.load(&gs[i]) {
						continue
					}
					e.run()
					if c.count > 0 {
						res[i] = Result{Count: c.count, Solution: e.solution()}
					}
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return res, nil
}
