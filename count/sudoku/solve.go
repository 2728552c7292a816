package sudoku

import (
	"context"
	"sync"
)

// Solver solves puzzles with one solver variant. The zero value is ready
// to use and takes the best variant (BestVariant); NewSolver chooses one.
// A Solver is not safe for concurrent use (give each goroutine its own);
// after its first use, solving allocates nothing.
type Solver struct {
	e       engine
	variant string
}

// NewSolver returns a Solver using the named variant ("" or "auto": the
// best this machine supports).
func NewSolver(variant string) (*Solver, error) {
	v, err := LookupVariant(variant)
	if err != nil {
		return nil, err
	}
	return &Solver{e: v.newEngine(), variant: v.Name}, nil
}

func (sv *Solver) engine() engine {
	if sv.e == nil {
		v := BestVariant()
		sv.e, sv.variant = v.newEngine(), v.Name
	}
	return sv.e
}

// Variant returns the name of the variant the Solver uses.
func (sv *Solver) Variant() string {
	sv.engine()
	return sv.variant
}

// Solve counts the solutions of g up to limit (limit 0 means 2: enough to
// tell unique from several) and returns how many it found, at most limit,
// and the first solution found if there is one (see Nodes and Guesses for
// the work done). g should have passed Check; clashing givens give 0
// solutions.
func (sv *Solver) Solve(g *Grid, limit uint64) (n uint64, sol Grid) {
	if limit == 0 {
		limit = 2
	}
	e := sv.engine()
	c := e.control()
	c.reset(limit)
	if !e.load(g) {
		return 0, sol
	}
	e.run()
	if c.count > 0 {
		sol = e.solution()
	}
	return c.count, sol
}

// SolveContext is Solve, stopped when ctx ends: the search looks at ctx
// every few hundred microseconds of work, and if it has ended returns
// ctx's error (the count and solution are then incomplete and must not be
// used).
func (sv *Solver) SolveContext(ctx context.Context, g *Grid, limit uint64) (n uint64, sol Grid, err error) {
	if err := ctx.Err(); err != nil {
		return 0, sol, err
	}
	c := sv.engine().control()
	c.ctx = ctx
	n, sol = sv.Solve(g, limit)
	c.ctx = nil
	if limit == 0 {
		limit = 2
	}
	if c.halt && n < limit {
		if err := ctx.Err(); err != nil {
			return n, Grid{}, err
		}
	}
	return n, sol, nil
}

// SolveEach solves every puzzle of gs as SolveContext does, up to limit
// solutions each (0 means 2), into res (at least as long as gs). Variants
// that settle several puzzles at once (lanes-avx512) are faster so. It
// returns ctx's error if ctx ends first; res is then incomplete.
func (sv *Solver) SolveEach(ctx context.Context, gs []Grid, limit uint64, res []Result) error {
	if limit == 0 {
		limit = 2
	}
	if me, ok := sv.engine().(manyEngine); ok {
		return me.solveMany(ctx, gs, limit, res)
	}
	for i := range gs {
		n, sol, err := sv.SolveContext(ctx, &gs[i], limit)
		if err != nil {
			return err
		}
		res[i] = Result{Count: n, Solution: sol}
	}
	return nil
}

// Nodes returns the number of search nodes visited by this Solver so far.
func (sv *Solver) Nodes() uint64 { return sv.engine().control().nodes }

// Guesses returns the number of guesses this Solver made so far: each is a
// branch of the search tried on a copy of the state.
func (sv *Solver) Guesses() uint64 { return sv.engine().control().guesses }

var solverPool = sync.Pool{New: func() any { return new(Solver) }}

// Solve counts the solutions of g up to limit (0 means 2) and returns the
// count and the first solution, with the best variant. See Solver.Solve; a
// Solver of one's own saves the pool's synchronisation.
func Solve(g Grid, limit uint64) (uint64, Grid) {
	sv := solverPool.Get().(*Solver)
	n, sol := sv.Solve(&g, limit)
	solverPool.Put(sv)
	return n, sol
}

// Result is the outcome of solving one puzzle.
type Result struct {
	// Count is the number of solutions found, at most the limit asked for.
	Count uint64
	// Solution is the first solution found (valid when Count > 0).
	Solution Grid
}
