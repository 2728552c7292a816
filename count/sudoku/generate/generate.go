// Package generate makes sudoku puzzles with exactly one solution, a
// difficulty score in a chosen range (package logic's scale) and a
// symmetric clue pattern, reproducibly from a seed.
//
// A puzzle starts as a random solution grid; clues (or whole orbits of
// clues under the symmetry) are removed in random order as long as the
// puzzle keeps one solution and, when the range has an upper bound below
// the scale's end, scores no more than it. The result is kept if it scores
// at least the range's lower bound, else a new grid is tried.
package generate

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/internal/pipe"
	"github.com/nqcount/nqcount/count/sudoku/logic"
)

// Symmetry is the symmetry of a puzzle's clue pattern: which cells must be
// empty or filled together.
type Symmetry int

// The symmetries.
const (
	// None: no constraint.
	None Symmetry = iota
	// Rot180: a half turn maps the pattern onto itself (r, c) -> (10-r,
	// 10-c), the classic newspaper symmetry.
	Rot180
	// Rot90: a quarter turn does (r, c) -> (c, 10-r), and so a half turn.
	Rot90
	// Mirror: left-right reflection, (r, c) -> (r, 10-c).
	Mirror
	// Diagonal: reflection in the main diagonal, (r, c) -> (c, r).
	Diagonal
	// Random: one of Rot180, Rot90, Mirror and Diagonal, drawn for each
	// puzzle from the seed; Puzzle.Symmetry says which.
	Random
)

var symNames = [...]string{None: "none", Rot180: "rot180", Rot90: "rot90", Mirror: "mirror", Diagonal: "diagonal", Random: "random"}

// String returns the symmetry's name, as ParseSymmetry reads it.
func (s Symmetry) String() string {
	if s >= 0 && int(s) < len(symNames) {
		return symNames[s]
	}
	return fmt.Sprintf("Symmetry(%d)", int(s))
}

// ParseSymmetry reads a symmetry's name.
func ParseSymmetry(s string) (Symmetry, error) {
	for i, n := range symNames {
		if strings.EqualFold(s, n) {
			return Symmetry(i), nil
		}
	}
	return 0, fmt.Errorf("unknown symmetry %q: choose %s", s, strings.Join(symNames[:], ", "))
}

// MarshalText writes the symmetry's name.
func (s Symmetry) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a symmetry's name.
func (s *Symmetry) UnmarshalText(b []byte) error {
	v, err := ParseSymmetry(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// image maps a cell (0-80) by the symmetry.
func (s Symmetry) image(c int) int {
	r, k := c/9, c%9
	switch s {
	case Rot180:
		return (8-r)*9 + 8 - k
	case Rot90:
		return k*9 + 8 - r
	case Mirror:
		return r*9 + 8 - k
	case Diagonal:
		return k*9 + r
	}
	return c
}

// orbits returns, at [s][c], the cells that symmetry s ties to cell c, c
// first (made on first use, not at the start of every command that links
// the package).
var orbits = sync.OnceValue(func() *[Random][81][]int {
	var o [Random][81][]int
	for s := None; s < Random; s++ {
		for c := 0; c < 81; c++ {
			orb := []int{c}
			for x := s.image(c); x != c; x = s.image(x) {
				orb = append(orb, x)
			}
			o[s][c] = orb
		}
	}
	return &o
})

// Symmetric reports whether g's clue pattern has symmetry s (Random: any of
// the four).
func Symmetric(g sudoku.Grid, s Symmetry) bool {
	if s == Random {
		return Symmetric(g, Rot180) || Symmetric(g, Rot90) || Symmetric(g, Mirror) || Symmetric(g, Diagonal)
	}
	for c := 0; c < 81; c++ {
		if (g[c] == 0) != (g[s.image(c)] == 0) {
			return false
		}
	}
	return true
}

// Options describe a run of puzzles.
type Options struct {
	// Level is the score range wanted, by name, when MinScore and
	// MaxScore are both 0; default sudoku.Hard.
	Level sudoku.Level
	// MinScore and MaxScore bound the score wanted, both included (one
	// decimal, within 1.0-12.0); they override Level.
	MinScore, MaxScore float64
	// Symmetry of the clue pattern (default None).
	Symmetry Symmetry
	// Seed makes the run reproducible: the same seed, options and index
	// give the same puzzle, whatever the number of workers.
	Seed uint64
	// MaxTries bounds the solution grids tried for one puzzle (0: no
	// bound); past it, One returns ErrTooManyTries. Ranges that few
	// puzzles reach (12.0, needing a guess, is the rarest) may otherwise
	// take very long; a context also stops them. DefaultMaxTries is a
	// bound that ranges reached at all rarely meet.
	MaxTries int
}

// DefaultMaxTries is the sudoku command's bound on the grids tried for
// one puzzle: far above what ranges reached at all need (about 2.5 grids
// a puzzle for "hard", 30 for 8.0-12.0, 600 for 8.5-12.0), and some
// twenty seconds of one core.
const DefaultMaxTries = 5000

// ErrTooManyTries is returned when Options.MaxTries grids gave no puzzle.
var ErrTooManyTries = errors.New("no puzzle in the score range within the tries allowed")

// TooManyTriesError is Run's error when Options.MaxTries grids gave no
// puzzle; errors.Is matches it with ErrTooManyTries.
type TooManyTriesError struct {
	// Index is the puzzle's index in the run, Tries the grids tried.
	Index, Tries int
}

func (e *TooManyTriesError) Error() string {
	return fmt.Sprintf("puzzle %d: %d solution grids gave none in the score range", e.Index, e.Tries)
}

// Is makes errors.Is(err, ErrTooManyTries) hold.
func (e *TooManyTriesError) Is(target error) bool { return target == ErrTooManyTries }

// Scores returns the score range the options ask for, or an error if it is
// invalid: a bound outside 1.0-12.0, an empty range, an unknown level, a
// range no step can score in, or an unknown symmetry.
func (o Options) Scores() (lo, hi float64, err error) {
	if o.Symmetry < None || o.Symmetry > Random {
		return 0, 0, fmt.Errorf("unknown symmetry %d", int(o.Symmetry))
	}
	if o.MaxTries < 0 {
		return 0, 0, fmt.Errorf("max tries %d: want 0 (no bound) or more", o.MaxTries)
	}
	if o.MinScore == 0 && o.MaxScore == 0 {
		lv := o.Level
		if lv == 0 {
			lv = sudoku.Hard
		}
		if !lv.Valid() {
			return 0, 0, fmt.Errorf("unknown level %d", int(lv))
		}
		lo, hi = lv.Scores()
		return lo, hi, nil
	}
	lo, hi = o.MinScore, o.MaxScore
	if !(lo >= sudoku.MinScore && hi <= sudoku.MaxScore && lo <= hi) { // also rejects NaN
		return 0, 0, fmt.Errorf("score range %g-%g: want %.1f <= low <= high <= %.1f", lo, hi, sudoku.MinScore, sudoku.MaxScore)
	}
	if !logic.Attainable(lo, hi) {
		return 0, 0, fmt.Errorf("score range %.1f-%.1f: no technique scores there (see 'sudoku explain' for the scale)", lo, hi)
	}
	return lo, hi, nil
}

// ParseScores reads a score range: "4.0-6.0", or one score "4.2".
func ParseScores(s string) (lo, hi float64, err error) {
	a, b, ok := strings.Cut(s, "-")
	lo, err1 := strconv.ParseFloat(strings.TrimSpace(a), 64)
	hi, err2 := lo, error(nil)
	if ok {
		hi, err2 = strconv.ParseFloat(strings.TrimSpace(b), 64)
	}
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("score range %q: want LOW-HIGH like 4.0-6.0, or one score", s)
	}
	if !(lo >= sudoku.MinScore && hi <= sudoku.MaxScore && lo <= hi) {
		return 0, 0, fmt.Errorf("score range %q: want %.1f <= low <= high <= %.1f", s, sudoku.MinScore, sudoku.MaxScore)
	}
	return lo, hi, nil
}

// Puzzle is one generated puzzle.
type Puzzle struct {
	// Puzzle has exactly one solution.
	Puzzle sudoku.Grid `json:"puzzle"`
	// Solution is the puzzle's solution.
	Solution sudoku.Grid `json:"solution"`
	// Score is the puzzle's rating (logic.Rate), within the range asked
	// for, and Level the range's name holding it.
	Score float64      `json:"score"`
	Level sudoku.Level `json:"level"`
	// Symmetry is the clue pattern's symmetry (Random drawn as one).
	Symmetry Symmetry `json:"symmetry"`
	// Index is the puzzle's position in the run; with the seed and the
	// options it identifies the puzzle.
	Index int `json:"index"`
	// Tries is the number of solution grids tried to get it.
	Tries int `json:"tries"`
}

// One returns puzzle number index of the run opt describes. It returns an
// error for invalid options, ErrTooManyTries, or ctx's error if ctx ends
// first (it looks between clue removals: within milliseconds, or within
// the rating of one step for ranges that need forcing chains).
func One(ctx context.Context, opt Options, index int) (Puzzle, error) {
	lo, hi, err := opt.Scores()
	if err != nil {
		return Puzzle{}, err
	}
	rng := &rnd{rand.NewPCG(opt.Seed, uint64(index)*0x9E3779B97F4A7C15+1)}
	sym := opt.Symmetry
	if sym == Random {
		sym = Rot180 + Symmetry(rng.intN(4))
	}
	// Below the scale's end, every removal is rated up to hi; a puzzle
	// that needs more stops the rating early.
	limit := 0.0
	if hi < sudoku.MaxScore {
		limit = hi
	}
	var sv sudoku.Solver
	for tries := 1; opt.MaxTries == 0 || tries <= opt.MaxTries; tries++ {
		sol := randomGrid(rng)
		p := sol
		var saved [4]uint8
		for _, c := range rng.perm81() {
			if p[c] == 0 {
				continue
			}
			if err := ctx.Err(); err != nil {
				return Puzzle{}, err
			}
			orbit := orbits()[sym][c]
			for i, x := range orbit {
				saved[i], p[x] = p[x], 0
			}
			var keep bool
			if limit > 0 {
				// The rater checks uniqueness first: no second solve here.
				r, err := logic.RateContext(ctx, p, limit)
				var nu *sudoku.ErrNotUnique
				switch {
				case errors.As(err, &nu):
					keep = true
				case err != nil:
					return Puzzle{}, err
				default:
					keep = r.Capped
				}
			} else {
				n, _ := sv.Solve(&p, 2)
				keep = n != 1
			}
			if keep {
				for i, x := range orbit {
					p[x] = saved[i]
				}
			}
		}
		r, err := logic.RateContext(ctx, p, limit)
		if err != nil {
			return Puzzle{}, err
		}
		if !r.Capped && r.Score >= lo {
			return Puzzle{Puzzle: p, Solution: sol, Score: r.Score, Level: r.Level, Symmetry: sym, Index: index, Tries: tries}, nil
		}
	}
	return Puzzle{}, ErrTooManyTries
}

// Workers returns the number of goroutines Run uses for n puzzles when
// asked for w: w <= 0 means GOMAXPROCS, and more than GOMAXPROCS or than
// n would only cost memory (the work is all computation), so w is capped
// at both.
func Workers(w, n int) int {
	procs := runtime.GOMAXPROCS(0)
	if w <= 0 || w > procs {
		w = procs
	}
	return max(1, min(w, n))
}

// Run generates puzzles first..first+n-1 of the run opt describes on
// Workers(workers, n) goroutines and calls emit with each, in index
// order, from the calling goroutine, as soon as it and those before it are
// ready. At most a few puzzles per worker wait for their turn, so memory
// stays bounded whatever n. It returns the first error: invalid options,
// One's (ErrTooManyTries as a *TooManyTriesError), emit's, or
// ctx's if ctx ends (after emitting the puzzles finished by then).
func Run(ctx context.Context, opt Options, first, n, workers int, emit func(Puzzle) error) error {
	if _, _, err := opt.Scores(); err != nil {
		return err
	}
	if n < 0 || first < 0 {
		return fmt.Errorf("first %d, n %d: want both 0 or more", first, n)
	}
	if n == 0 {
		return nil
	}
	workers = Workers(workers, n)
	type job struct {
		index int
		p     Puzzle
		err   error
	}
	return pipe.Run(ctx, workers, 4*workers, func(put func(job) bool) error {
		for i := 0; i < n && put(job{index: first + i}); i++ {
		}
		return nil
	}, func(ctx context.Context, j *job) {
		j.p, j.err = One(ctx, opt, j.index)
		if errors.Is(j.err, ErrTooManyTries) {
			j.err = &TooManyTriesError{Index: j.index, Tries: opt.MaxTries}
		}
	}, func(j *job) error {
		if j.err != nil {
			return j.err
		}
		return emit(j.p)
	})
}

// Stats sums up a run, for the command's --stats and the benchmarks.
type Stats struct {
	Puzzles int `json:"puzzles"`
	// Tries is the number of solution grids tried in all.
	Tries int `json:"tries"`
	// Clues is the number of clues of all puzzles together.
	Clues int `json:"clues"`
	// ByScore counts the puzzles of each score, in tenths (index 10-120).
	ByScore [121]int `json:"-"`
}

// Add counts p.
func (s *Stats) Add(p Puzzle) {
	s.Puzzles++
	s.Tries += p.Tries
	s.Clues += p.Puzzle.Clues()
	if t := int(p.Score*10 + 0.5); t >= 0 && t < len(s.ByScore) {
		s.ByScore[t]++
	}
}

// randomGrid returns a random completed grid: backtracking over the cells
// in order with the digits in random order.
func randomGrid(rng *rnd) sudoku.Grid {
	for {
		var g sudoku.Grid
		var row, col, box [9]uint16
		budget := 2000
		if fill(&g, 0, &row, &col, &box, rng, &budget) {
			return g
		}
	}
}

func fill(g *sudoku.Grid, i int, row, col, box *[9]uint16, rng *rnd, budget *int) bool {
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
