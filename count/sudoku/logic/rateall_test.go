package logic

import (
	"context"
	"runtime"

	"github.com/nqcount/nqcount/count/sudoku"
	"golang.org/x/sync/errgroup"
)

// rated is the rating of one puzzle of a batch, or why it has none.
type rated struct {
	Rating Rating
	Err    error
}

// rateAll rates gs on every core at once, as the batch commands do (and,
// under -race, checks that concurrent ratings share nothing unguarded).
func rateAll(gs []sudoku.Grid, opt Options) []rated {
	res := make([]rated, len(gs))
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range gs {
		g.Go(func() error {
			res[i].Rating, res[i].Err = RateWith(context.Background(), gs[i], opt)
			return nil
		})
	}
	g.Wait()
	return res
}
