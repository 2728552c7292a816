package logic

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/nqcount/nqcount/count/sudoku"
)

// Result is the rating of one puzzle of a batch, or why it has none.
type Result struct {
	Rating Rating
	Err    error
}

// RateAll rates every puzzle of gs on up to workers goroutines (0 or more
// than GOMAXPROCS: GOMAXPROCS) and returns the results in the same order.
// If ctx ends, the puzzles not rated yet get ctx's error.
func RateAll(ctx context.Context, gs []sudoku.Grid, workers int) []Result {
	res := make([]Result, len(gs))
	if procs := runtime.GOMAXPROCS(0); workers <= 0 || workers > procs {
		workers = procs
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(workers, len(gs)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(gs) {
					return
				}
				if err := ctx.Err(); err != nil {
					res[i].Err = err
					continue
				}
				res[i].Rating, res[i].Err = RateContext(ctx, gs[i], 0)
			}
		}()
	}
	wg.Wait()
	return res
}
