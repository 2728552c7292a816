package sudoku

import (
	"context"
	"errors"
	"math"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nqcount/nqcount/count"
)

// CountOptions tune Count.
type CountOptions struct {
	// Limit stops counting once this many solutions are found; 0 means no
	// limit.
	Limit uint64
	// Workers is the number of goroutines; see Workers.
	Workers int
	// Tasks is the number of prefix tasks to aim for. 0 means 64 per
	// worker, after a short single-threaded try that finishes most puzzles
	// without splitting; a positive value always splits. At most MaxTasks.
	Tasks int
	// Solver names the variant (see Variants); "" or "auto" the best.
	Solver string
	// Progress, if set, is called every ProgressEvery while the count
	// runs, from a goroutine of Count's own (never two calls at once),
	// with the work done so far.
	Progress func(CountProgress)
	// ProgressEvery is the time between two Progress calls; 0 means one
	// second.
	ProgressEvery time.Duration
}

// MaxTasks bounds CountOptions.Tasks: more prefix tasks than this would
// cost memory and splitting time without balancing the work any better.
const MaxTasks = 1 << 16

// CountProgress is a report on a count under way.
type CountProgress struct {
	// Solutions is the number of solutions found so far, a lower bound of
	// the total.
	Solutions uint64
	// Nodes is the number of search nodes visited so far.
	Nodes uint64
	// TasksDone and Tasks say how many of the prefix tasks are finished.
	TasksDone, Tasks int
	// Elapsed is the time since Count started.
	Elapsed time.Duration
}

// CountResult is the outcome of Count.
type CountResult struct {
	// Count is the number of solutions, exact unless LimitReached or
	// Partial.
	Count count.Uint128 `json:"count"`
	// LimitReached is true when counting stopped at the limit: Count is then
	// the limit and the true number may be larger.
	LimitReached bool `json:"limit_reached"`
	// Partial is true when the count was cancelled: Count is then the
	// number of solutions found before it stopped, a lower bound.
	Partial bool `json:"partial,omitempty"`
	// Solution is the first solution met, if any (not necessarily the same
	// from run to run when workers > 1).
	Solution *Grid `json:"-"`
	// Tasks is the number of prefix tasks the search was split into.
	Tasks int `json:"tasks"`
	// Workers is the number of goroutines that counted.
	Workers int `json:"workers"`
	// Solver is the variant that counted.
	Solver string `json:"solver"`
	// Nodes is the number of search nodes visited.
	Nodes count.Uint128 `json:"nodes"`
	// Guesses is the number of guesses made (branches tried).
	Guesses count.Uint128 `json:"guesses"`
	// Seconds is the wall time.
	Seconds float64 `json:"seconds"`
}

// Count counts the solutions of g exactly (or up to opt.Limit) on all
// cores: it fills the first few undecided cells in every way that survives
// propagation, each partial grid becomes a task, and package count's engine
// runs the tasks.
//
// Every task looks up every few hundred microseconds of work: if ctx is
// cancelled the search stops that soon, even on a grid with billions of
// solutions, and Count returns ctx's error together with a result that
// has Partial set and the solutions found so far (a lower bound).
func Count(ctx context.Context, g Grid, opt CountOptions) (CountResult, error) {
	start := time.Now()
	var res CountResult
	if err := g.Check(); err != nil {
		return res, err
	}
	v, err := LookupVariant(opt.Solver)
	if err != nil {
		return res, err
	}
	limit := opt.Limit
	if limit == 0 {
		limit = math.MaxUint64
	}
	workers := Workers(opt.Workers)
	res.Workers, res.Solver = workers, v.Name
	target := opt.Tasks
	if target <= 0 {
		target = 64 * workers
	}
	target = min(target, MaxTasks)

	var stop atomic.Bool
	defer context.AfterFunc(ctx, func() { stop.Store(true) })()
	done := func(r *CountResult) (CountResult, error) {
		r.Seconds = time.Since(start).Seconds()
		return *r, nil
	}

	// Most puzzles are done in well under a millisecond: try alone first,
	// with a node budget, and split only if that runs out.
	if opt.Tasks <= 0 {
		e := v.newEngine()
		c := e.control()
		c.reset(limit)
		c.stop, c.maxNodes = &stop, quickNodes
		if e.load(&g) {
			e.run()
		}
		if err := ctx.Err(); err != nil && c.halt {
			res.Partial, res.Count = true, count.U128(c.count)
			res.Nodes, res.Guesses = count.U128(c.nodes), count.U128(c.guesses)
			res.Seconds = time.Since(start).Seconds()
			return res, err
		}
		if !c.halt || c.count >= limit {
			res.Count = count.U128(c.count)
			res.Nodes, res.Guesses = count.U128(c.nodes), count.U128(c.guesses)
			res.LimitReached = opt.Limit != 0 && c.count >= limit
			if c.count > 0 {
				sol := e.solution()
				res.Solution = &sol
			}
			res.Tasks = 1
			return done(&res)
		}
	}

	tasks, direct, first, nodes := expand(ctx, g, target, limit)
	if err := ctx.Err(); err != nil {
		res.Partial, res.Count, res.Nodes = true, count.U128(min(direct, limit)), count.U128(nodes)
		res.Seconds = time.Since(start).Seconds()
		return res, err
	}
	res.Tasks = len(tasks)
	var sink progressSink
	var found atomic.Uint64 // solutions so far, to stop all tasks at the limit
	found.Add(direct)
	var tasksDone atomic.Int64
	var firstTask atomic.Pointer[Grid]
	pool := sync.Pool{New: func() any { return v.newEngine() }}

	if opt.Progress != nil {
		every := opt.ProgressEvery
		if every <= 0 {
			every = time.Second
		}
		quit := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				select {
				case <-quit:
					return
				case <-t.C:
					opt.Progress(CountProgress{
						Solutions: direct + sink.solutions.Load(),
						Nodes:     nodes + sink.nodes.Load(),
						TasksDone: int(tasksDone.Load()),
						Tasks:     len(tasks),
						Elapsed:   time.Since(start),
					})
				}
			}
		}()
		defer func() {
			close(quit)
			wg.Wait()
		}()
	}

	// The search looks up every sliceNodes nodes (well under a
	// millisecond): it sees stop (set when ctx is done) and hands the
	// engine the nodes of the slice just run.
	tot, err := count.Run(ctx, count.All(len(tasks)), func(_ context.Context, id int, progress func(uint64)) (count.Result, error) {
		if found.Load() >= limit {
			return count.Result{}, nil
		}
		e := pool.Get().(engine)
		defer pool.Put(e)
		c := e.control()
		c.reset(limit)
		c.stop, c.shared, c.progress, c.slice = &stop, &found, &sink, progress
		n0 := c.nodes
		c.sliced = n0
		if e.load(&tasks[id]) {
			e.run()
		}
		c.flush()
		c.report()
		progress(c.nodes - c.sliced)
		c.slice = nil
		r := count.Result{Count: c.count, Nodes: c.nodes - n0}
		if err := ctx.Err(); err != nil && c.halt {
			return count.Result{}, err
		}
		if c.count > 0 && firstTask.Load() == nil {
			sol := e.solution()
			firstTask.CompareAndSwap(nil, &sol)
		}
		return r, nil
	}, count.Options{Workers: workers, OnDone: func(int, count.Result) error {
		tasksDone.Add(1)
		return nil
	}})
	res.Guesses = count.U128(sink.guesses.Load())
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			res.Partial = true
			res.Count = count.U128(direct).Add64(sink.solutions.Load())
			res.Nodes = count.U128(nodes).Add64(sink.nodes.Load())
			res.Seconds = time.Since(start).Seconds()
			return res, ctxErr
		}
		return CountResult{}, err
	}
	res.Count = tot.Count.Add64(direct)
	res.Nodes = tot.Nodes.Add64(nodes)
	if l := count.U128(limit); opt.Limit != 0 && res.Count.Cmp(l) >= 0 {
		res.Count, res.LimitReached = l, true
	}
	res.Solution = first
	if res.Solution == nil {
		res.Solution = firstTask.Load()
	}
	return done(&res)
}

// quickNodes is the node budget of Count's first, single-threaded try
// (about a millisecond).
const quickNodes = 2 * sliceNodes

// expand splits the search of g into partial grids: level by level, it
// settles each grid by propagation and fills the unsolved cell with the
// fewest candidates in every way, until there are at least target grids.
// It returns them with the number of solutions met on the way (at most
// limit), the first of those, and the number of grids settled. The tasks'
// solutions and those met partition the solutions of g.
func expand(ctx context.Context, g Grid, target int, limit uint64) (tasks []Grid, direct uint64, first *Grid, nodes uint64) {
	level := []Grid{g}
	for depth := 0; depth < 20 && len(level) > 0 && len(level) < target && direct < limit; depth++ {
		if ctx.Err() != nil {
			return level, direct, first, nodes
		}
		var next []Grid
		for i := range level {
			nodes++
			var s triadState
			if !s.init(&level[i]) {
				continue
			}
			switch s.settle(false) {
			case settleFail:
				continue
			case settleSolved:
				if first == nil {
					sol := s.grid()
					first = &sol
				}
				direct++
				continue
			}
			next = s.branchCell(next)
		}
		level = next
	}
	return level, direct, first, nodes
}

// grid returns the cells of s that are solved.
func (s *triadState) grid() Grid {
	var g Grid
	for b := 0; b < 3; b++ {
		for d := 0; d < 9; d++ {
			placed := ^(s.rows[b] >> (3 * d)) & 7
			m := s.f[b][d] & rowsTab[placed]
			for m != 0 {
				p := bits.TrailingZeros32(m)
				m &= m - 1
				g[b*27+p] = uint8(d + 1)
			}
		}
	}
	return g
}

// branchCell appends to out, for a settled and open s, one grid for each
// candidate of the unsolved cell with the fewest candidates: the solved
// cells of s and that cell filled.
func (s *triadState) branchCell(out []Grid) []Grid {
	base := s.grid()
	best, bestN := -1, 10
	for i := 0; i < 81 && bestN > 2; i++ {
		b, bit := i/27, uint32(1)<<(i%27)
		if s.free[b]&bit == 0 {
			continue
		}
		n := 0
		for d := 0; d < 9; d++ {
			if s.f[b][d]&bit != 0 {
				n++
			}
		}
		if n < bestN {
			best, bestN = i, n
		}
	}
	if best < 0 {
		return out
	}
	b, bit := best/27, uint32(1)<<(best%27)
	for d := 0; d < 9; d++ {
		if s.f[b][d]&bit != 0 {
			c := base
			c[best] = uint8(d + 1)
			out = append(out, c)
		}
	}
	return out
}
