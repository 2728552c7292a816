package queens

import (
	"context"
	"fmt"
	"io"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/count/queens/kernel"
)

// backtrack is the strategy of the backtracking methods (Constellations,
// Halving): a list of tasks, each a few queens placed ahead of the
// search, whose completions a kernel of package kernel counts.
type backtrack struct {
	n      int
	method Method
	tasks  []Task
}

// planBacktrack plans a backtracking method: its tasks split at depth, or
// for depth 0 at the shallowest depth that keeps workers busy; it returns
// the depth used.
func planBacktrack(n int, method Method, depth, workers int) (int, *backtrack, error) {
	switch method {
	case Halving:
		if depth > n {
			return 0, nil, fmt.Errorf("%w: depth %d is out of range: a board of %d rows has at most %d prefix rows", ErrInvalid, depth, n, n)
		}
	case Constellations:
		if n >= 2 && depth > n-4 && depth > 0 {
			return 0, nil, fmt.Errorf("%w: depth %d is out of range: %d×%d constellations leave at most %d rows to split", ErrInvalid, depth, n, n, max(n-4, 0))
		}
	}
	c := cut{n: n, method: method}
	roots := c.roots()
	if depth > 0 {
		// Counted before it is built, and the count stops at the cap, so a
		// split too deep is refused at once, in bounded memory.
		k := c.size(roots, depth, maxTasks)
		if k > maxTasks {
			return 0, nil, fmt.Errorf("%w: depth %d splits n = %d into more than the %d tasks allowed: choose a smaller depth", ErrInvalid, depth, n, maxTasks)
		}
		return depth, &backtrack{n: n, method: method, tasks: c.build(roots, depth, k)}, nil
	}
	// Automatic: the shallowest depth with about tasksPerWorker tasks for
	// every worker, so that the slowest finishes close to the others, and
	// never more than maxTasks.
	want := tasksPerWorker * min(workers, maxTasks/tasksPerWorker)
	d := 0
	if method == Halving {
		d = 1
	}
	k := c.size(roots, d, maxTasks)
	for k < want && d < c.autoMaxDepth() {
		next := c.size(roots, d+1, maxTasks)
		if next > maxTasks {
			break
		}
		d, k = d+1, next
	}
	return d, &backtrack{n: n, method: method, tasks: c.build(roots, d, k)}, nil
}

// tasksPerWorker is how many tasks the automatic depth aims at for each
// worker. The workers pull tasks largest first, so a few per worker
// already keep them busy to the end: simulated from measured task costs
// (bench/tasksim), 16 a worker keeps the schedule within a few per cent
// of perfect, and more tasks only cost planning time and nodes (every
// extra row adds about 3% nodes).
const tasksPerWorker = 16

func (b *backtrack) len() int { return len(b.tasks) }

// writeHash writes every task's queens and weight.
func (b *backtrack) writeHash(h io.Writer) {
	for i := range b.tasks {
		t := &b.tasks[i]
		h.Write([]byte{t.Placed, t.Weight})
		h.Write(t.Rows[:t.Placed])
		h.Write(t.Cols[:t.Placed])
	}
}

// frame fills f with the kernel frame of task id and returns its weight.
func (b *backtrack) frame(id int, f *kernel.Frame) (weight uint64) {
	t := &b.tasks[id]
	t.frame(b.n, f)
	return uint64(t.Weight)
}

// estimateBudget bounds the nodes the estimates visit over the whole plan.
const estimateBudget = 1 << 24

// estimates counts the placements a few rows into each task's search
// (the frontier of a depth-limited search), which grows with the size of
// the subtree below; the depth is chosen from the number of tasks so that
// the whole plan costs a few million nodes at most.
func (b *backtrack) estimates() []uint64 {
	levels := 4
	for levels > 1 && uint64(len(b.tasks))<<(3*levels) > estimateBudget {
		levels--
	}
	// The estimates are independent of each other and every worker waits
	// for them, so they are computed on all cores, in chunks pulled from a
	// counter. Each is a pure function of its task: the result does not
	// depend on the schedule.
	est := make([]uint64, len(b.tasks))
	const chunk = 64
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), (len(est)+chunk-1)/chunk) {
		wg.Go(func() {
			var f kernel.Frame
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= len(est) {
					return
				}
				for id := lo; id < min(lo+chunk, len(est)); id++ {
					b.frame(id, &f)
					est[id] = frontier(f, levels) + 1
				}
			}
		})
	}
	wg.Wait()
	return est
}

// frontier counts the placements reachable `limit` free rows into the
// search of f, filling rows top down, or the solutions when fewer rows
// remain.
func frontier(f kernel.Frame, limit int) uint64 {
	if f.Rows == 0 {
		return 1
	}
	r := bits.TrailingZeros64(f.Rows)
	avail := f.Open(r)
	if limit == 0 || f.Rows&(f.Rows-1) == 0 {
		return uint64(bits.OnesCount64(avail))
	}
	var sum uint64
	for avail != 0 {
		bit := avail & -avail
		avail ^= bit
		g := f
		g.Place(r, bits.TrailingZeros64(bit))
		sum += frontier(g, limit-1)
	}
	return sum
}

// kernel looks name up among the backtracking kernels; a join kernel's
// name gets an error that says so.
func (b *backtrack) kernel(name string) (string, error) {
	k, err := kernel.Lookup(name)
	if err != nil && isJoinKernel(name) {
		return "", fmt.Errorf("%s is a kernel of the join; n = %d counts by %s, whose kernels are %s (or ask for --method join)", name, b.n, b.method, kernelNames(backtrackNames()))
	}
	return k.Name, err
}

// fit: the backtracking methods hold their tasks and little else.
func (b *backtrack) fit(e Execution, fixed uint64) (Budget, error) {
	bud := Budget{Execution: e, Planned: fixed}
	bud.Path = "" // no path to choose
	if fixed > e.Memory {
		return bud, fmt.Errorf("%w: the plan's %d tasks and the runtime need about %d MiB, more than the %d MiB allowed", ErrMemory, b.len(), fixed>>20, e.Memory>>20)
	}
	return bud, nil
}

func (b *backtrack) counter(bud Budget, _ *join.Meter) (count.TaskFunc, error) {
	k, err := kernel.Lookup(bud.Kernel)
	if err != nil {
		return nil, Usage(err)
	}
	return b.run(k), nil
}

// sliceNodes is the node budget of one slice of a task: about 10 ms of
// the bmi2 kernel on one core, so that a worker looks up at least every
// few tens of milliseconds on any kernel.
const sliceNodes = 1 << 20

// Counter returns the function that counts one task of a backtracking
// method's plan with kernel k, for count.Run: the search runs in slices
// of about a million nodes; between them it reports the slice's nodes to
// progress and stops with ctx's error if ctx is done.
func (p *Plan) Counter(k kernel.Kernel) count.TaskFunc {
	return p.tasks.(*backtrack).run(k)
}

func (b *backtrack) run(k kernel.Kernel) count.TaskFunc {
	return func(ctx context.Context, id int, progress func(nodes uint64)) (count.Result, error) {
		var f kernel.Frame
		w := b.frame(id, &f)
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
