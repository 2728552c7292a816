package sudoku

import (
	"context"
	"errors"
	"math"
	"sync/atomic"
	"time"

	"github.com/nqcount/nqcount/count"
)

// CountOptions tune Count.
type CountOptions struct {
	// Limit stops counting once this many solutions are found; 0 means no
	// limit.
	Limit uint64
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
	// Tasks is the number of prefix tasks to aim for. 0 means 64 per
	// worker, after a short single-threaded try that finishes most puzzles
	// without splitting; a positive value always splits.
	Tasks int
}

// CountResult is the outcome of Count.
type CountResult struct {
	// Count is the number of solutions, exact unless LimitReached.
	Count count.Uint128 `json:"count"`
	// LimitReached is true when counting stopped at the limit: Count is then
	// the limit and the true number may be larger.
	LimitReached bool `json:"limit_reached"`
	// Solution is the first solution met, if any (not necessarily the same
	// from run to run when workers > 1).
	Solution *Grid `json:"-"`
	// Tasks is the number of prefix tasks the search was split into.
	Tasks int `json:"tasks"`
	// Nodes is the number of search nodes visited.
	Nodes count.Uint128 `json:"nodes"`
	// Seconds is the wall time.
	Seconds float64 `json:"seconds"`
}

// Count counts the solutions of g exactly (or up to opt.Limit) on all
// cores: it fills the first few undecided cells in every way that survives
// propagation, each partial grid becomes a task, and package count's engine
// runs the tasks. If ctx is cancelled the search stops within a few
// microseconds and Count returns ctx's error and no count.
func Count(ctx context.Context, g Grid, opt CountOptions) (CountResult, error) {
	start := time.Now()
	var res CountResult
	if err := g.Check(); err != nil {
		return res, err
	}
	limit := opt.Limit
	if limit == 0 {
		limit = math.MaxUint64
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = defaultWorkers()
	}
	target := opt.Tasks
	if target <= 0 {
		target = 64 * workers
	}
	var root kstate
	if !root.init(&g) {
		res.Seconds = time.Since(start).Seconds()
		return res, nil
	}
	// Most puzzles are done in well under a millisecond: try alone first,
	// with a node budget, and split only if that runs out.
	if opt.Tasks <= 0 {
		k := &kernel{limit: limit, maxNodes: quickNodes}
		k.stack[0] = root
		k.search(0)
		if !k.halt || k.count >= limit {
			res.Count = count.U128(k.count)
			res.Nodes = count.U128(k.nodes)
			res.LimitReached = opt.Limit != 0 && k.count >= limit
			if k.count > 0 {
				sol := solGrid(&k.sol)
				res.Solution = &sol
			}
			res.Tasks = 1
			res.Seconds = time.Since(start).Seconds()
			return res, nil
		}
	}
	// Expand level by level until there are enough tasks.
	var first *Grid
	var direct uint64
	var nodes uint64
	frontier := []kstate{root}
	for depth := 0; depth < 20 && len(frontier) > 0 && len(frontier) < target && direct < limit; depth++ {
		var next []kstate
		for i := range frontier {
			s := &frontier[i]
			nodes++
			st := s.settle()
			switch st {
			case settleFail:
				continue
			case settleSolved:
				if first == nil {
					sol := solGrid(&s.f)
					first = &sol
				}
				direct++
				continue
			}
			next = s.branch(next)
		}
		frontier = next
	}
	var stop atomic.Bool
	var found atomic.Uint64
	found.Add(direct)
	var firstTask atomic.Pointer[Grid]
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-ctx.Done():
			stop.Store(true)
		case <-done:
		}
	}()
	// The search polls ctx through stop every 1024 nodes, so a task needs
	// no slices of its own; it reports its nodes once, at the end.
	tot, err := count.Run(ctx, count.All(len(frontier)), func(_ context.Context, id int, progress func(uint64)) (count.Result, error) {
		if found.Load() >= limit {
			return count.Result{}, nil
		}
		k := &kernel{stop: &stop, limit: limit, shared: &found}
		k.stack[0] = frontier[id]
		k.search(0)
		if err := ctx.Err(); err != nil && k.halt {
			return count.Result{}, err
		}
		if k.count > 0 && firstTask.Load() == nil {
			sol := solGrid(&k.sol)
			firstTask.CompareAndSwap(nil, &sol)
		}
		k.publish()
		progress(k.nodes)
		return count.Result{Count: k.count, Nodes: k.nodes}, nil
	}, count.Options{Workers: workers})
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil && errors.Is(err, ctxErr) {
			return CountResult{}, ctxErr
		}
		return CountResult{}, err
	}
	res.Count = tot.Count.Add64(direct)
	res.Nodes = tot.Nodes.Add64(nodes)
	res.Tasks = len(frontier)
	if l := count.U128(limit); opt.Limit != 0 && res.Count.Cmp(l) >= 0 {
		res.Count, res.LimitReached = l, true
	}
	res.Solution = first
	if res.Solution == nil {
		res.Solution = firstTask.Load()
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// quickNodes is the node budget of Count's first, single-threaded try
// (about a millisecond).
const quickNodes = 4096

type settleState int

const (
	settleOpen settleState = iota
	settleFail
	settleSolved
)

// settle propagates s and places singles until nothing more follows.
func (s *kstate) settle() settleState {
	for {
		if !s.propagate() {
			return settleFail
		}
		if s.solved() {
			return settleSolved
		}
		found, ok := s.singles()
		if !ok {
			return settleFail
		}
		if !found {
			return settleOpen
		}
	}
}

// branch appends to out one child of a settled, open s for each candidate
// of a cell with the fewest candidates.
func (s *kstate) branch(out []kstate) []kstate {
	b, p, _, ok := s.pickCell()
	if !ok {
		return out
	}
	bit := uint32(1) << p
	for d := 0; d < 9; d++ {
		if s.f[d*3+b]&bit == 0 {
			continue
		}
		c := *s
		c.f[d*3+b] &^= rowOf[p] &^ bit
		c.dirty |= 1 << (d*3 + b)
		out = append(out, c)
	}
	return out
}
