// Package queens counts the solutions of the n-queens problem: the ways to
// place n queens on an n×n board so that no two share a row, a column or a
// diagonal (OEIS A000170), and the solutions up to the board's 8
// symmetries (A002562).
//
// A count is planned as a list of independent weighted tasks (see Method),
// run by the engine in package count on all cores, each task counted by a
// kernel from package kernel. Plan, Count and the known OEIS values are the
// API; the cmd/nqueens command is a thin layer over them.
package queens

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/bits"
	"sync"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/count/queens/kernel"
)

// MaxN is the largest n the counter accepts; kernels keep every mask in 64
// bits.
const MaxN = kernel.MaxN

// MaxDepth is the deepest split a plan accepts: prefix rows for Halving,
// extra rows beyond the border queens for Constellations.
const MaxDepth = 8

// ErrInvalid marks errors caused by arguments out of range (n, depth,
// method, kernel), as opposed to failures while counting.
var ErrInvalid = errors.New("invalid argument")

// maxTasks bounds the task list so that a deep split cannot eat memory.
const maxTasks = 4 << 20

// Plan is a count cut into tasks. The same N, Method and Depth always give
// the same tasks in the same order, so a task id means the same subtree
// in every run: checkpoints and shards rely on it.
type Plan struct {
	N      int
	Method Method
	// Depth is the split depth used (see MaxDepth). Constellations
	// split the corner classes one row deeper than Depth. For Join it
	// numbers the cut of the board, 1 for the fastest (see
	// join.Geometries(N)); a larger depth has smaller quadrant tables
	// and more, smaller tasks.
	Depth int
	// Tasks are the tasks of the backtracking methods; nil for Join,
	// whose tasks are Join's. Len counts either.
	Tasks []Task
	// Join is the plan of the join method, nil for the others.
	Join *join.Plan

	estOnce sync.Once
	est     []uint64 // Estimates, computed once
}

// NewPlan cuts the n-queens count into tasks. depth 0 chooses the split
// from n and the number of workers: enough tasks to keep every worker busy
// to the end, few enough that the list stays cheap. Method "" or Auto
// picks DefaultMethod(n). For Join, the memory limit is the default
// (NewPlanMemory).
func NewPlan(n int, method Method, depth, workers int) (*Plan, error) {
	return NewPlanMemory(n, method, depth, workers, 0)
}

// NewPlanMemory is NewPlan with a memory limit for the join method, in
// bytes (0: DefaultMemory). Depth 0 picks the fastest cut of the board
// whose tables and lists for the given workers fit in it: a smaller limit
// gives more, smaller tasks, never a count that runs out of memory. An
// explicit depth whose cut does not fit is an error.
func NewPlanMemory(n int, method Method, depth, workers int, memory uint64) (*Plan, error) {
	if (method == "" || method == Auto) && DefaultMethod(n) == Join && depth == 0 {
		// The fastest method if it fits in memory, else the backtracker.
		if p, err := newJoinPlan(n, 0, workers, memory); err == nil {
			return p, nil
		}
		method = Constellations
	}
	method = resolve(method, n)
	if n < 1 || n > MaxN {
		return nil, fmt.Errorf("%w: n = %d is out of range: the counter handles 1 to %d", ErrInvalid, n, MaxN)
	}
	if depth < 0 || depth > MaxDepth {
		return nil, fmt.Errorf("%w: depth %d is out of range: choose 1 to %d, or 0 for automatic", ErrInvalid, depth, MaxDepth)
	}
	if workers < 1 {
		workers = 1
	}
	switch method {
	case Halving:
		if depth > n {
			return nil, fmt.Errorf("%w: depth %d is out of range: a board of %d rows has at most %d prefix rows", ErrInvalid, depth, n, n)
		}
	case Constellations:
		if n >= 2 && depth > n-4 && depth > 0 {
			return nil, fmt.Errorf("%w: depth %d is out of range: %d×%d constellations leave at most %d rows to split", ErrInvalid, depth, n, n, max(n-4, 0))
		}
	case Join:
		return newJoinPlan(n, depth, workers, memory)
	default:
		return nil, fmt.Errorf("%w: unknown method %q", ErrInvalid, method)
	}
	p := &Plan{N: n, Method: method, Depth: depth}
	roots := p.roots()
	if depth > 0 {
		// Counted before it is built, and the count stops at the cap, so a
		// split too deep is refused at once, in bounded memory.
		k := p.size(roots, depth, maxTasks)
		if k > maxTasks {
			return nil, fmt.Errorf("%w: depth %d splits n = %d into more than the %d tasks allowed: choose a smaller depth", ErrInvalid, depth, n, maxTasks)
		}
		p.Tasks = p.build(roots, depth, k)
		return p, nil
	}
	// Automatic: the shallowest depth with about tasksPerWorker tasks for
	// every worker, so that the slowest finishes close to the others, and
	// never more than maxTasks.
	want := tasksPerWorker * min(workers, maxTasks/tasksPerWorker)
	d := 0
	if method == Halving {
		d = 1
	}
	k := p.size(roots, d, maxTasks)
	for k < want && d < autoMaxDepth(n, method) {
		next := p.size(roots, d+1, maxTasks)
		if next > maxTasks {
			break
		}
		d, k = d+1, next
	}
	p.Depth = d
	p.Tasks = p.build(roots, d, k)
	return p, nil
}

// tasksPerWorker is how many tasks the automatic depth aims at for each
// worker. The workers pull tasks largest first, so a few per worker
// already keep them busy to the end: simulated from measured task costs
// (bench/tasksim), 16 a worker keeps the schedule within a few per cent
// of perfect, and more tasks only cost planning time and nodes (every
// extra row adds about 3% nodes).
const tasksPerWorker = 16

func autoMaxDepth(n int, m Method) int {
	if m == Halving {
		return min(n, 5)
	}
	return max(0, min(n-4, 3))
}

// roots are the tasks every plan of the method splits further: the
// first-row placements for Halving, the border classes for
// Constellations.
func (p *Plan) roots() []Task {
	if p.Method == Halving {
		return halvingRoots(p.N)
	}
	return constellationRoots(p.N)
}

// rowsBelow is how many free rows a plan of the given depth fills below
// root t.
func (p *Plan) rowsBelow(t *Task, depth int) int {
	if p.Method == Halving {
		return depth - 1
	}
	if t.inCorner(p.N) {
		depth += cornerSplit
	}
	return min(depth, MaxPlaced-int(t.Placed))
}

// size returns the number of tasks a plan of the given depth has, or a
// number above limit as soon as it exceeds limit.
func (p *Plan) size(roots []Task, depth, limit int) int {
	k := 0
	for i := range roots {
		if k > limit {
			break
		}
		k += roots[i].countExpand(p.N, p.rowsBelow(&roots[i], depth), limit-k)
	}
	return k
}

// build lists the k tasks of a plan of the given depth.
func (p *Plan) build(roots []Task, depth, k int) []Task {
	out := make([]Task, 0, k)
	for i := range roots {
		out = roots[i].expand(p.N, p.rowsBelow(&roots[i], depth), out)
	}
	return out
}

// Len is the number of tasks of the plan, whatever its method.
func (p *Plan) Len() int {
	if p.Join != nil {
		return len(p.Join.Tasks)
	}
	return len(p.Tasks)
}

// Frame fills f with the kernel frame of task id and returns the task's
// weight: how many solutions each completion stands for.
func (p *Plan) Frame(id int, f *kernel.Frame) (weight uint64) {
	t := &p.Tasks[id]
	t.frame(p.N, f)
	return uint64(t.Weight)
}

// sliceNodes is the node budget of one slice of a task: about 10 ms of
// the bmi2 kernel on one core (70 to 150 M nodes/s), so that a worker
// looks up at least every few tens of milliseconds on any kernel.
const sliceNodes = 1 << 20

// ErrOverflow is returned when a task's weighted count does not fit in 64
// bits (far beyond any n the counter can reach in practice).
var ErrOverflow = errors.New("weighted count overflows 64 bits")

// Counter returns the function that counts one task with kernel k, for
// count.Run: the search runs in slices of about a million nodes; between
// them it reports the slice's nodes to progress and stops with ctx's
// error if ctx is done.
func (p *Plan) Counter(k kernel.Kernel) count.TaskFunc {
	return func(ctx context.Context, id int, progress func(nodes uint64)) (count.Result, error) {
		var f kernel.Frame
		w := p.Frame(id, &f)
		s := new(kernel.Search)
		if err := s.Reset(&f); err != nil {
			return count.Result{}, err
		}
		for {
			before := s.Nodes()
			done := k.Run(s, sliceNodes)
			progress(s.Nodes() - before)
			if done {
				break
			}
			if err := ctx.Err(); err != nil {
				return count.Result{}, err
			}
		}
		c, err := weighted(s.Solutions(), w)
		if err != nil {
			return count.Result{}, fmt.Errorf("%w (task %d)", err, id)
		}
		return count.Result{Count: c, Nodes: s.Nodes()}, nil
	}
}

// weighted returns solutions × weight, or ErrOverflow.
func weighted(solutions, weight uint64) (uint64, error) {
	hi, lo := bits.Mul64(solutions, weight)
	if hi != 0 {
		return 0, fmt.Errorf("%w: %d solutions × weight %d", ErrOverflow, solutions, weight)
	}
	return lo, nil
}

// Hash identifies the plan's task list: n, method, depth and every task.
// Journals and shard files carry it, so results of different plans are
// never mixed.
func (p *Plan) Hash() string {
	h := sha256.New()
	var buf [8]byte
	for _, v := range []int{p.N, p.Depth, p.Len()} {
		binary.LittleEndian.PutUint64(buf[:], uint64(v))
		h.Write(buf[:])
	}
	h.Write([]byte(p.Method))
	if p.Join != nil {
		p.Join.WriteHash(h)
	}
	for i := range p.Tasks {
		t := &p.Tasks[i]
		h.Write([]byte{t.Placed, t.Weight})
		h.Write(t.Rows[:t.Placed])
		h.Write(t.Cols[:t.Placed])
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
