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
	"strconv"
	"sync"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/count/queens/kernel"
	"github.com/nqcount/nqcount/count/shard"
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

// Spec says what to count. It decides the task list, and so the plan's
// hash, with nothing else: the same Spec gives the same tasks everywhere.
type Spec struct {
	N int
	// Method is the counting method; "" or Auto: DefaultMethod(N).
	Method Method
	// Depth is the split depth (see Plan.Depth); 0 chooses one from N
	// (and, for the backtracking methods, Workers).
	Depth int
	// Workers tunes the automatic depth of the backtracking methods: enough
	// tasks to keep that many workers busy to the end. 0 means
	// StableWorkers, the value checkpoints, shards and queues plan with so
	// that their tasks do not depend on the machine.
	Workers int
}

// Plan is a count cut into tasks: the one plan every front end counts,
// shards, checkpoints and queues. The same Spec always gives the same
// tasks in the same order, so a task id means the same work in every run:
// checkpoints and shards rely on it. Its method and depth are resolved
// once, by NewPlan, and its hash computed once.
type Plan struct {
	N int
	// Method is the method the plan counts with (never Auto).
	Method Method
	// Depth is the split depth used (see MaxDepth). Constellations split
	// the corner classes one row deeper than Depth. For Join it is how
	// finely the tasks are cut: 1 gives one task per frame and set of
	// north rows, each larger depth splits those by their south row sets
	// (see joinSplit), for the counts of weeks that need tasks of
	// minutes.
	Depth int

	tasks  []Task       // the backtracking methods' tasks
	layout *join.Layout // the join's, nil for the others
	hash   string

	estOnce sync.Once
	est     []uint64 // Estimates, computed once
}

// NewPlan cuts the count s asks for into tasks. It resolves s.Method
// ("" or Auto: DefaultMethod) and s.Depth (0: automatic) once; Plan.Spec
// gives them back. Errors for a bad Spec wrap ErrInvalid.
func NewPlan(s Spec) (*Plan, error) {
	n, depth := s.N, s.Depth
	method := resolve(s.Method, n)
	if n < 1 || n > MaxN {
		return nil, fmt.Errorf("%w: n = %d is out of range: the counter handles 1 to %d", ErrInvalid, n, MaxN)
	}
	if depth < 0 || depth > MaxDepth {
		return nil, fmt.Errorf("%w: depth %d is out of range: choose 1 to %d, or 0 for automatic", ErrInvalid, depth, MaxDepth)
	}
	workers := s.Workers
	if workers < 1 {
		workers = StableWorkers
	}
	var p *Plan
	switch method {
	case Halving, Constellations:
		var err error
		if p, err = backtrackPlan(n, method, depth, workers); err != nil {
			return nil, err
		}
	case Join:
		var err error
		if p, err = newJoinPlan(n, depth); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%w: unknown method %q", ErrInvalid, method)
	}
	p.hash = p.computeHash()
	return p, nil
}

// Spec returns the plan's Spec, with the method and depth it resolved
// to: planning it again gives the same plan on any machine.
func (p *Plan) Spec() Spec { return Spec{N: p.N, Method: p.Method, Depth: p.Depth} }

// backtrackPlan plans a backtracking method.
func backtrackPlan(n int, method Method, depth, workers int) (*Plan, error) {
	switch method {
	case Halving:
		if depth > n {
			return nil, fmt.Errorf("%w: depth %d is out of range: a board of %d rows has at most %d prefix rows", ErrInvalid, depth, n, n)
		}
	case Constellations:
		if n >= 2 && depth > n-4 && depth > 0 {
			return nil, fmt.Errorf("%w: depth %d is out of range: %d×%d constellations leave at most %d rows to split", ErrInvalid, depth, n, n, max(n-4, 0))
		}
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
		p.tasks = p.build(roots, depth, k)
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
	p.tasks = p.build(roots, d, k)
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
	if p.layout != nil {
		return p.layout.Len()
	}
	return len(p.tasks)
}

// Tasks returns the pre-placed queens of the backtracking methods'
// tasks (nil for Join, whose tasks are its Layout's).
func (p *Plan) Tasks() []Task { return p.tasks }

// Layout returns the join's tasks, nil for the backtracking methods.
func (p *Plan) Layout() *join.Layout { return p.layout }

// Frame fills f with the kernel frame of task id and returns the task's
// weight: how many solutions each completion stands for.
func (p *Plan) Frame(id int, f *kernel.Frame) (weight uint64) {
	t := &p.tasks[id]
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

// Hash identifies the plan's task list: n, method, depth and every task,
// computed once by NewPlan (the join's tasks streamed, never all held).
// Journals and shard files carry it, so results of different plans are
// never mixed.
func (p *Plan) Hash() string { return p.hash }

func (p *Plan) computeHash() string {
	h := sha256.New()
	var buf [8]byte
	for _, v := range []int{p.N, p.Depth, p.Len()} {
		binary.LittleEndian.PutUint64(buf[:], uint64(v))
		h.Write(buf[:])
	}
	h.Write([]byte(p.Method))
	if p.layout != nil {
		p.layout.WriteHash(h)
	}
	for i := range p.tasks {
		t := &p.tasks[i]
		h.Write([]byte{t.Placed, t.Weight})
		h.Write(t.Rows[:t.Placed])
		h.Write(t.Cols[:t.Placed])
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// ID names the job of counting the plan: the same for the same tasks
// counted by the same algorithm, on every machine; a word of letters,
// digits and dashes, fit for a file name or a message subject.
func (p *Plan) ID() string {
	return fmt.Sprintf("n%d-%s-a%d", p.N, p.hash, AlgorithmVersion)
}

// Pin returns the values that results of this plan must agree on, beside
// the hash and the number of tasks: board size, method, depth and
// AlgorithmVersion. Journals and shard files carry them.
func (p *Plan) Pin() map[string]string {
	return map[string]string{
		"n":         strconv.Itoa(p.N),
		"method":    string(p.Method),
		"depth":     strconv.Itoa(p.Depth),
		"algorithm": strconv.Itoa(AlgorithmVersion),
	}
}

// Shard returns the ids of shard x in the split of the plan by estimated
// cost (shard.Assign). K must not exceed the number of tasks.
func (p *Plan) Shard(x shard.Index) ([]int, error) {
	// Check before Select computes the estimates: a K of billions is
	// refused at once.
	if err := x.Check(p.Len()); err != nil {
		return nil, Usage(fmt.Errorf("%w (n = %d, depth %d; a larger depth makes more tasks)", err, p.N, p.Depth))
	}
	return shard.Select(p.Estimates(), x)
}

// Usage marks err as caused by the arguments (errors.Is(err, ErrInvalid)
// holds) while keeping its message.
func Usage(err error) error {
	if err == nil || errors.Is(err, ErrInvalid) {
		return err
	}
	return usageError{err}
}

type usageError struct{ err error }

func (e usageError) Error() string   { return e.err.Error() }
func (e usageError) Unwrap() []error { return []error{e.err, ErrInvalid} }
