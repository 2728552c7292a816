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
	return RateAllWith(ctx, gs, workers, Options{})
}

// RateAllWith is RateAll with options (a scale, a limit).
func RateAllWith(ctx context.Context, gs []sudoku.Grid, workers int, opt Options) []Result {
	res := make([]Result, len(gs))
	each(ctx, len(gs), workers, func(i int) {
		res[i].Rating, res[i].Err = RateWith(ctx, gs[i], opt)
	}, func(i int, err error) { res[i].Err = err })
	return res
}

// ExplainResult is the explanation of one puzzle of a batch, or why it has
// none.
type ExplainResult struct {
	Explanation Explanation
	Err         error
}

// ExplainAll explains every puzzle of gs as RateAll rates them.
func ExplainAll(ctx context.Context, gs []sudoku.Grid, workers int) []ExplainResult {
	return ExplainAllWith(ctx, gs, workers, Options{})
}

// ExplainAllWith is ExplainAll on a chosen scale.
func ExplainAllWith(ctx context.Context, gs []sudoku.Grid, workers int, opt Options) []ExplainResult {
	res := make([]ExplainResult, len(gs))
	each(ctx, len(gs), workers, func(i int) {
		res[i].Explanation, res[i].Err = ExplainWith(ctx, gs[i], opt)
	}, func(i int, err error) { res[i].Err = err })
	return res
}

// each calls do(i) for i in [0, n) on up to workers goroutines, and
// skip(i, ctx.Err()) instead once ctx has ended.
func each(ctx context.Context, n, workers int, do func(int), skip func(int, error)) {
	if procs := runtime.GOMAXPROCS(0); workers <= 0 || workers > procs {
		workers = procs
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				if err := ctx.Err(); err != nil {
					skip(i, err)
					continue
				}
				do(i)
			}
		}()
	}
	wg.Wait()
}
