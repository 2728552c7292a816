package queens

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens/join"
)

// maxJoinDepth is the finest split of the join's tasks (see joinSplit).
const maxJoinDepth = 6

// joinSplit is the most south row sets a join task of depth d holds: all
// of its top's at depth 1, then 256, 64, 16, 4 and 1.
func joinSplit(d int) int {
	if d <= 1 {
		return 0
	}
	return 1 << uint(2*(maxJoinDepth-d))
}

// joinWant is the number of tasks the automatic depth of the join aims
// at: none split below n = 20 (the tasks of a top take seconds at most),
// then twice as many for every n more, 2^(n-11), so that a task stays
// minutes of one core as the work grows about 6.5 times per n (2^9 tasks
// at n = 20); from n = 26, the campaigns of many machines, eight times
// as many, and from n = 28 sixteen (2^21 at n = 28: depth 5, 5 M tasks of
// 4 row sets), so that a task is about an hour and a worker lost costs
// little.
func joinWant(n int) int {
	switch {
	case n < 20:
		return 0
	case n < 26:
		return 1 << uint(n-11)
	case n < 28:
		return 1 << uint(n-8)
	}
	return 1 << uint(n-7)
}

// joinTasks is the join's strategy: its tasks streamed from a layout
// (package join), counted by a join kernel.
type joinTasks struct {
	n      int
	layout *join.Layout
}

// planJoin plans the join method: the board cut by join.Cut(n), its
// tasks split at depth d (0: the shallowest with joinWant(n) tasks); it
// returns the depth used.
func planJoin(n, depth int) (int, *joinTasks, error) {
	if depth > maxJoinDepth {
		return 0, nil, fmt.Errorf("%w: depth %d is out of range: the join splits its tasks at depth 1 to %d", ErrInvalid, depth, maxJoinDepth)
	}
	want := joinWant(n) // the automatic depth's aim
	g := join.Cut(n)
	if depth > 0 {
		l, err := join.NewLayout(g, joinSplit(depth))
		if err != nil {
			return 0, nil, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		return depth, &joinTasks{n: n, layout: l}, nil
	}
	for d := 1; ; d++ {
		l, err := join.NewLayout(g, joinSplit(d))
		if err != nil {
			return 0, nil, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		if l.Len() >= want || d == maxJoinDepth {
			return d, &joinTasks{n: n, layout: l}, nil
		}
	}
}

func (j *joinTasks) len() int              { return j.layout.Len() }
func (j *joinTasks) writeHash(h io.Writer) { j.layout.WriteHash(h) }
func (j *joinTasks) estimates() []uint64   { return j.layout.Estimates() }

// kernel looks name up among the join kernels; a backtracking kernel's
// name gets an error that says so.
func (j *joinTasks) kernel(name string) (string, error) {
	k, err := join.Lookup(name)
	if err != nil && isBacktrackKernel(name) {
		return "", fmt.Errorf("%s is a kernel of the backtracking methods; n = %d counts by the join, whose kernels are %s (or ask for --method constellations)", name, j.n, kernelNames(joinNames()))
	}
	return k.Name, err
}

// fit takes the table path when the tables and every worker's lists fit
// (or e.Path asks for it), else the bounded path with a budget per
// worker sized from what is left.
func (j *joinTasks) fit(e Execution, fixed uint64) (Budget, error) {
	b := Budget{Execution: e}
	limit, workers := e.Memory, e.Workers
	switch e.Path {
	case "", "auto", "tables", "bounded":
	default:
		return b, fmt.Errorf("%w: unknown path %q (choose auto, tables or bounded)", ErrInvalid, e.Path)
	}
	m := join.MemoryOf(j.layout.Geometry)
	// A reference run of the count's meter, where it takes a small part
	// of the memory.
	if join.CalibrateMemory <= limit/8 {
		fixed += join.CalibrateMemory
		b.MeterRuns = true
	}
	if need := fixed + m.Tables + uint64(workers)*m.TableWorker; e.Path != "bounded" && (need <= limit || e.Path == "tables") {
		b.Path, b.Planned, b.PerWorker, b.KeyBits = "tables", need, m.TableWorker, m.KeyBits
		if need > limit {
			return b, fmt.Errorf("%w: the join's table path at n = %d needs about %d MiB with %d workers (tables of %d MiB), more than the %d MiB allowed: choose the bounded path or give it more memory",
				ErrMemory, j.n, need>>20, workers, m.Tables>>20, limit>>20)
		}
		return b, nil
	}
	least := m.RowLists + m.MinArena
	if fixed+uint64(workers)*least > limit {
		fit := 0
		if limit > fixed {
			fit = int((limit - fixed) / least)
		}
		hint := "give it more memory"
		switch {
		case fit == 1:
			hint = "1 worker fits: ask for --workers 1, or give it more memory"
		case fit > 1:
			hint = fmt.Sprintf("%d workers fit: ask for --workers %d, or give it more memory", fit, fit)
		}
		return b, fmt.Errorf("%w: counting n = %d needs at least %d MiB a worker on the join's bounded path (its tables would take %d MiB), %d MiB for %d workers with the plan and the runtime, more than the %d MiB allowed: %s",
			ErrMemory, j.n, least>>20, m.Tables>>20, (fixed+uint64(workers)*least)>>20, workers, limit>>20, hint)
	}
	share := (limit - fixed) / uint64(workers)
	// The arena takes what the lists leave, less the arrays by key of
	// the deepest joins (as deep as the lists call for, as long as those
	// take at most a quarter of it: more index bits only prune more), and
	// less a tenth of the share for what the Go runtime holds beyond live
	// data.
	arena := share - m.RowLists // at least m.MinArena: checked above
	keyBits := m.KeyBits
	for keyBits > keyFloor && join.KeyMemory(keyBits) > arena/4 {
		keyBits--
	}
	arena -= min(arena, join.KeyMemory(keyBits))
	arena = max(m.MinArena, arena-min(arena, share/10))
	// Tasks counted together hold each one's north row lists: they take
	// the arena beyond the lists of the longest row set, or an eighth of
	// an arena below them (more would make the passes dearer than the
	// row lists they save), maxBatch tasks at most, and none from n = 26,
	// where a task is what a campaign's worker may lose.
	b.Batch = 1
	if j.n < 26 && m.BatchTask > 0 {
		room := arena / 8
		if arena > m.Lists {
			room = arena - m.Lists
		}
		b.Batch = int(min(maxBatch, 1+room/m.BatchTask))
		arena -= uint64(b.Batch-1) * m.BatchTask
	}
	b.Path, b.PerWorker, b.Arena, b.KeyBits = "bounded", share, arena, keyBits
	b.Planned = fixed + uint64(workers)*share
	return b, nil
}

// counter counts each task with one join.Counter, whose tables (what the
// tasks share) the first call builds.
func (j *joinTasks) counter(b Budget, m *join.Meter) (count.TaskFunc, error) {
	c, err := j.joinCounter(b, m)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context, id int, progress func(nodes uint64)) (count.Result, error) {
		if err := c.Prepare(ctx, progress); err != nil {
			return count.Result{}, err
		}
		n, nodes, err := c.Count(ctx, id, progress)
		if err != nil {
			if errors.Is(err, join.ErrOverflow) {
				return count.Result{}, fmt.Errorf("%w: %v (task %d)", ErrOverflow, err, id)
			}
			return count.Result{}, err
		}
		return count.Result{Count: n, Nodes: nodes}, nil
	}, nil
}

// batches cuts ids into the batches b allows (see Budget.Batch) and
// returns the function that counts one, with one join.Counter as counter
// does.
func (j *joinTasks) batches(b Budget, m *join.Meter, ids []int) ([][]int, count.BatchFunc, error) {
	c, err := j.joinCounter(b, m)
	if err != nil {
		return nil, nil, err
	}
	do := func(ctx context.Context, ids []int, progress func(nodes uint64)) ([]count.Result, error) {
		if err := c.Prepare(ctx, progress); err != nil {
			return nil, err
		}
		ns, nodes, err := c.CountBatch(ctx, ids, progress)
		if err != nil {
			if errors.Is(err, join.ErrOverflow) {
				return nil, fmt.Errorf("%w: %v", ErrOverflow, err)
			}
			return nil, err
		}
		rs := make([]count.Result, len(ids))
		for i := range rs {
			rs[i] = count.Result{Count: ns[i], Nodes: nodes[i]}
		}
		return rs, nil
	}
	return c.Batches(ids, b.Batch), do, nil
}

// maxBatch is the most tasks the bounded path counts together: their
// south row lists are built once instead of maxBatch times.
const maxBatch = 16

// keyFloor is the fewest index bits a budget leaves the bounded path's
// joins: the depth where they start to weigh deeper keys (join's
// deepMin), whose arrays are small beside any arena.
const keyFloor = 12

// joinCounter makes the join's counter on the path and with the kernel b
// says.
func (j *joinTasks) joinCounter(b Budget, m *join.Meter) (*join.Counter, error) {
	k, err := join.Lookup(b.Kernel)
	if err != nil {
		return nil, Usage(err)
	}
	opt := join.CounterOptions{Bounded: b.Path == "bounded", Arena: int(b.Arena / 8), KeyBits: b.KeyBits, Meter: m}
	return join.NewCounter(j.layout, k, opt)
}

// JoinCounter returns the counter of a join plan's tasks as e says, with
// the budget chosen (Fit; Budget.Kernel names its kernel): what the
// estimator samples with.
func (p *Plan) JoinCounter(e Execution) (*join.Counter, Budget, error) {
	j, ok := p.tasks.(*joinTasks)
	if !ok {
		return nil, Budget{}, fmt.Errorf("%w: a %s plan has no join counter", ErrInvalid, p.Method)
	}
	b, err := p.Fit(e)
	if err != nil {
		return nil, b, err
	}
	c, err := j.joinCounter(b, nil)
	return c, b, err
}
