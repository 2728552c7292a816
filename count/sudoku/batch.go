package sudoku

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// SolveAll solves every puzzle of gs with a solution limit (0 means 2) on
// up to workers goroutines (0: GOMAXPROCS) and returns the results in the
// same order. Workers take chunks of puzzles from a shared counter.
func SolveAll(gs []Grid, limit uint64, workers int) []Result {
	res := make([]Result, len(gs))
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	const chunk = 64
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sv Solver
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= len(gs) {
					return
				}
				hi := min(lo+chunk, len(gs))
				for i := lo; i < hi; i++ {
					res[i].Count, res[i].Solution = sv.Solve(&gs[i], limit)
				}
			}
		}()
	}
	wg.Wait()
	return res
}

func defaultWorkers() int { return runtime.GOMAXPROCS(0) }
