package sudoku

// Solver solves puzzles with the bitmask kernel. The zero value is ready to
// use; a Solver is not safe for concurrent use (give each goroutine its
// own), and solving allocates nothing.
type Solver struct {
	k kernel
}

// Solve counts the solutions of g up to limit (limit 0 means 2: enough to
// tell unique from several) and returns how many it found, at most limit,
// and the first solution found if there is one (see Nodes for the work
// done). g should have passed Check; clashing givens give 0 solutions.
func (sv *Solver) Solve(g *Grid, limit uint64) (n uint64, sol Grid) {
	if limit == 0 {
		limit = 2
	}
	sv.k.limit = limit
	sv.k.count = 0
	sv.k.halt = false
	if !sv.k.stack[0].init(g) {
		return 0, sol
	}
	sv.k.search(0)
	if sv.k.count > 0 {
		sol = solGrid(&sv.k.sol)
	}
	return sv.k.count, sol
}

// Nodes returns the number of search nodes visited by this Solver so far.
func (sv *Solver) Nodes() uint64 { return sv.k.nodes }

// Solve counts the solutions of g up to limit (0 means 2) and returns the
// count and the first solution. See Solver.Solve; a Solver reused across
// puzzles saves allocating its 11 KB search stack each time.
func Solve(g Grid, limit uint64) (uint64, Grid) {
	var sv Solver
	return sv.Solve(&g, limit)
}

// Result is the outcome of solving one puzzle.
type Result struct {
	// Count is the number of solutions found, at most the limit asked for.
	Count uint64
	// Solution is the first solution found (valid when Count > 0).
	Solution Grid
}
