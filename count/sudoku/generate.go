package sudoku

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
)

// GenerateOptions tune Generate.
type GenerateOptions struct {
	// Level is the difficulty wanted (default Hard).
	Level Level
	// Symmetric makes the clue pattern symmetric under a half turn.
	Symmetric bool
	// Seed makes the output reproducible: the same seed, options and index
	// give the same puzzle, whatever the number of workers.
	Seed uint64
}

// Generated is one generated puzzle.
type Generated struct {
	// Puzzle has exactly one solution.
	Puzzle Grid `json:"puzzle"`
	// Solution is the puzzle's solution.
	Solution Grid `json:"solution"`
	// Level is the puzzle's rating, the level asked for.
	Level Level `json:"level"`
	// Index is the puzzle's position in the run; with the seed it
	// identifies the puzzle.
	Index int `json:"index"`
	// Tries is the number of solution grids tried before one gave a
	// puzzle of the level.
	Tries int `json:"tries"`
}

// Generate returns puzzle number index of the run described by opt: a
// puzzle with exactly one solution whose Rate is opt.Level. It fills a
// random grid, then removes clues (or symmetric pairs of clues) in random
// order as long as the puzzle stays unique and, below Hard, no harder than
// the level; it keeps the result if it rates exactly the level, else starts
// over with a new grid.
func Generate(opt GenerateOptions, index int) Generated {
	lv := opt.Level
	if lv == 0 {
		lv = Hard
	}
	rng := &rnd{rand.NewPCG(opt.Seed, uint64(index)*0x9E3779B97F4A7C15+1)}
	var sv Solver
	for tries := 1; ; tries++ {
		sol := randomGrid(rng)
		p := sol
		order := rng.perm81()
		for _, c := range order {
			c2 := c
			if opt.Symmetric {
				c2 = 80 - c
				if c2 < c {
					continue // the pair is handled from its first cell
				}
			}
			if p[c] == 0 {
				continue
			}
			v, v2 := p[c], p[c2]
			p[c], p[c2] = 0, 0
			if n, _ := sv.Solve(&p, 2); n != 1 || (lv < Hard && rateUnique(&p) > lv) {
				p[c], p[c2] = v, v2
			}
		}
		if got := rateUnique(&p); got == lv {
			return Generated{Puzzle: p, Solution: sol, Level: lv, Index: index, Tries: tries}
		}
	}
}

// GenerateN generates puzzles first..first+n-1 of the run on up to workers
// goroutines (0: GOMAXPROCS) and calls emit with each, in index order, from
// the calling goroutine. Work goes in batches of 16 puzzles per worker, so
// memory stays bounded whatever n. It stops early, returning ctx's error,
// if ctx is cancelled, or emit's error.
func GenerateN(ctx context.Context, opt GenerateOptions, first, n, workers int, emit func(Generated) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if opt.Level != 0 && (opt.Level < Singles || opt.Level > Hard) {
		return fmt.Errorf("unknown level %d", int(opt.Level))
	}
	batch := make([]Generated, 16*workers)
	for lo := 0; lo < n; lo += len(batch) {
		if err := ctx.Err(); err != nil {
			return err
		}
		m := min(len(batch), n-lo)
		var next atomic.Int64
		var wg sync.WaitGroup
		for w := 0; w < min(workers, m); w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					i := int(next.Add(1) - 1)
					if i >= m {
						return
					}
					batch[i] = Generate(opt, first+lo+i)
				}
			}()
		}
		wg.Wait()
		if err := ctx.Err(); err != nil {
			return err
		}
		for i := 0; i < m; i++ {
			if err := emit(batch[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// randomGrid returns a random completed grid: backtracking over the cells
// in order with the digits in random order.
func randomGrid(rng *rnd) Grid {
	for {
		var g Grid
		var row, col, box [9]uint16
		budget := 2000
		if fill(&g, 0, &row, &col, &box, rng, &budget) {
			return g
		}
	}
}

func fill(g *Grid, i int, row, col, box *[9]uint16, rng *rnd, budget *int) bool {
	if i == 81 {
		return true
	}
	*budget--
	if *budget < 0 {
		return false
	}
	r, c := i/9, i%9
	b := r/3*3 + c/3
	free := 0x1FF &^ (row[r] | col[c] | box[b])
	for free != 0 {
		// Pick a random candidate.
		k := rng.intN(bits.OnesCount16(free))
		m := free
		for ; k > 0; k-- {
			m &= m - 1
		}
		bit := m & -m
		free &^= bit
		row[r] |= bit
		col[c] |= bit
		box[b] |= bit
		g[i] = uint8(bits.TrailingZeros16(bit) + 1)
		if fill(g, i+1, row, col, box, rng, budget) {
			return true
		}
		row[r] &^= bit
		col[c] &^= bit
		box[b] &^= bit
		g[i] = 0
	}
	return false
}

// rnd draws from a PCG source with its own bounded-integer and shuffle
// algorithms (not math/rand's, which a Go release may change), so that a
// seed gives the same puzzles on every Go version.
type rnd struct{ src *rand.PCG }

// intN returns a uniform integer in [0, n), n > 0 (Lemire's method).
func (r *rnd) intN(n int) int {
	bound := uint64(n)
	hi, lo := bits.Mul64(r.src.Uint64(), bound)
	if lo < bound {
		thresh := -bound % bound
		for lo < thresh {
			hi, lo = bits.Mul64(r.src.Uint64(), bound)
		}
	}
	return int(hi)
}

// perm81 returns a uniform random permutation of 0..80 (Fisher-Yates).
func (r *rnd) perm81() []int {
	p := make([]int, 81)
	for i := range p {
		p[i] = i
	}
	for i := 80; i > 0; i-- {
		j := r.intN(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}
