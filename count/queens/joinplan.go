package queens

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/count/queens/kernel"
	"github.com/nqcount/nqcount/internal/sysmem"
)

// DefaultMemory is the memory a count may hold when no limit is given:
// half the smallest of the machine's physical memory, the limit of the
// process's cgroup (v1 or v2) and the memory Slurm allocated to the job
// (4 GiB when the system states none); see sysmem.Limits.
func DefaultMemory() uint64 { return sysmem.DefaultLimit() }

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

// joinTasks is the number of tasks the automatic depth of the join aims
// at: none split below n = 20 (the tasks of a top take seconds at most),
// then twice as many for every n more, 2^(n-11), so that a task stays
// minutes of one core as the work grows about 6.5 times per n (2^9 tasks
// at n = 20); from n = 26, the campaigns of many machines, eight times
// as many, and from n = 28 sixteen (2^21 at n = 28: depth 5, 5 M tasks of
// 4 row sets), so that a task is about an hour and a worker lost costs
// little.
func joinTasks(n int) int {
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

// newJoinPlan plans the join method: the board cut by join.Cut(n), its
// tasks split at depth d (0: the shallowest with joinTasks(n) tasks).
func newJoinPlan(n, depth int) (*Plan, error) {
	if depth > maxJoinDepth {
		return nil, fmt.Errorf("%w: depth %d is out of range: the join splits its tasks at depth 1 to %d", ErrInvalid, depth, maxJoinDepth)
	}
	g := join.Cut(n)
	if depth > 0 {
		l, err := join.NewLayout(g, joinSplit(depth))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		return &Plan{N: n, Method: Join, Depth: depth, layout: l}, nil
	}
	want := joinTasks(n)
	for d := 1; ; d++ {
		l, err := join.NewLayout(g, joinSplit(d))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		if l.Len() >= want || d == maxJoinDepth {
			return &Plan{N: n, Method: Join, Depth: d, layout: l}, nil
		}
	}
}

// LookupKernel returns the name of the kernel a count with method m uses
// for the name asked for ("" or "auto": the fastest this CPU supports),
// or an error naming the choices of m's family. The join method has its
// own kernels (package join), the others share package kernel's; a name
// of the other family says so.
func LookupKernel(m Method, n int, name string) (string, error) {
	m = resolve(m, n)
	if m == Join {
		k, err := join.Lookup(name)
		if err != nil && isBacktrackKernel(name) {
			return "", fmt.Errorf("%s is a kernel of the backtracking methods; n = %d counts by the join, whose kernels are %s (or ask for --method constellations)", name, n, kernelNames(joinNames()))
		}
		return k.Name, err
	}
	k, err := kernel.Lookup(name)
	if err != nil && isJoinKernel(name) {
		return "", fmt.Errorf("%s is a kernel of the join; n = %d counts by %s, whose kernels are %s (or ask for --method join)", name, n, m, kernelNames(backtrackNames()))
	}
	return k.Name, err
}

// Execution says how a count runs its plan on this machine: what it may
// not change without changing the answer is the plan's; this is not.
type Execution struct {
	// Kernel names the kernel; "" or "auto" picks the fastest this CPU
	// supports for the plan's method.
	Kernel string
	// Workers is the number of tasks counted at once; 0 means every
	// logical core.
	Workers int
	// Memory is what the whole count may hold, in bytes: tables, lists,
	// the plan, the bookkeeping of its tasks (0: DefaultMemory). The
	// join counts on its table path when that fits, else on its bounded
	// path, which holds only each task's rows; when neither fits with
	// Workers workers, the count is refused before any work.
	Memory uint64
	// Path forces the join's path: "tables" or "bounded"; "" or "auto"
	// takes the table path when it fits. Both give the same counts and
	// nodes.
	Path string
}

// Paths lists the values of Execution.Path.
var Paths = []string{"auto", "tables", "bounded"}

// Budget is how a count fits in its memory: the path the join takes and
// what it plans to hold.
type Budget struct {
	// Path is "tables" or "bounded" for the join, "" for the
	// backtracking methods (which need no memory to speak of).
	Path string `json:"path,omitempty"`
	// Limit is the memory the count may hold, Planned what it plans to
	// hold with its workers, and PerWorker each worker's share of it.
	Limit     uint64 `json:"memory_limit_bytes"`
	Planned   uint64 `json:"memory_planned_bytes"`
	PerWorker uint64 `json:"memory_per_worker_bytes"`
	// Arena is the bounded path's arena per worker, in bytes.
	Arena uint64 `json:"arena_bytes,omitempty"`
}

// bookBytes is what a count holds per task of its plan: the estimates,
// the largest-first order, the progress and journal indexes, a shard's
// results.
const bookBytes = 64

// Fit chooses how the count of p fits in the memory e allows with its
// workers, or says why it cannot (an error wrapping ErrMemory).
func (p *Plan) Fit(e Execution) (Budget, error) {
	limit := e.Memory
	if limit == 0 {
		limit = DefaultMemory()
	}
	workers := e.Workers
	if workers < 1 {
		workers = 1
	}
	b := Budget{Limit: limit}
	fixed := join.Runtime + uint64(p.Len())*bookBytes
	if p.layout == nil {
		b.Planned = fixed
		if fixed > limit {
			return b, fmt.Errorf("%w: the plan's %d tasks and the runtime need about %d MiB, more than the %d MiB allowed", ErrMemory, p.Len(), fixed>>20, limit>>20)
		}
		return b, nil
	}
	switch e.Path {
	case "", "auto", "tables", "bounded":
	default:
		return b, fmt.Errorf("%w: unknown path %q (choose auto, tables or bounded)", ErrInvalid, e.Path)
	}
	m := join.MemoryOf(p.layout.Geometry)
	if need := fixed + m.Tables + uint64(workers)*m.TableWorker; e.Path != "bounded" && (need <= limit || e.Path == "tables") {
		b.Path, b.Planned, b.PerWorker = "tables", need, m.TableWorker
		if need > limit {
			return b, fmt.Errorf("%w: the join's table path at n = %d needs about %d MiB with %d workers (tables of %d MiB), more than the %d MiB allowed: choose the bounded path or give it more memory",
				ErrMemory, p.N, need>>20, workers, m.Tables>>20, limit>>20)
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
			ErrMemory, p.N, least>>20, m.Tables>>20, (fixed+uint64(workers)*least)>>20, workers, limit>>20, hint)
	}
	share := (limit - fixed) / uint64(workers)
	// The arena takes what the lists leave, less a tenth of the share
	// for what the Go runtime holds beyond live data.
	arena := share - m.RowLists // at least m.MinArena: checked above
	arena = max(m.MinArena, arena-min(arena, share/10))
	b.Path, b.PerWorker, b.Arena = "bounded", share, arena
	b.Planned = fixed + uint64(workers)*share
	return b, nil
}

// ErrMemory reports a count that does not fit in the memory allowed.
var ErrMemory = errors.New("not enough memory")

// TaskFunc returns the function that counts one task of p, for a process
// that counts a plan's tasks one at a time as they come (a queue worker)
// and keeps the function, with the kernel's name and the memory budget
// chosen (Fit). What the tasks share (a join plan's tables) is built once,
// by the first call, which reports that work to its progress but leaves
// it out of its Result.Nodes: a task's nodes are the same whichever
// process counted it, on whichever path, and in whatever order. The
// function may be called from several goroutines at once, at most
// e.Workers at a time.
func (p *Plan) TaskFunc(e Execution) (count.TaskFunc, string, Budget, error) {
	b, err := p.Fit(e)
	if err != nil {
		return nil, "", b, err
	}
	if p.layout == nil {
		k, err := kernel.Lookup(e.Kernel)
		if err != nil {
			return nil, "", b, Usage(err)
		}
		return p.Counter(k), k.Name, b, nil
	}
	c, name, err := p.joinCounter(e, b)
	if err != nil {
		return nil, "", b, err
	}
	return func(ctx context.Context, id int, progress func(nodes uint64)) (count.Result, error) {
		if err := c.Prepare(ctx, progress); err != nil {
			return count.Result{}, err
		}
		return joinResult(ctx, c, id, progress)
	}, name, b, nil
}

// JoinCounter returns the counter of a join plan's tasks as e says, with
// its kernel's name and the budget chosen (Fit): what the estimator
// samples with.
func (p *Plan) JoinCounter(e Execution) (*join.Counter, string, Budget, error) {
	if p.layout == nil {
		return nil, "", Budget{}, fmt.Errorf("%w: a %s plan has no join counter", ErrInvalid, p.Method)
	}
	b, err := p.Fit(e)
	if err != nil {
		return nil, "", b, err
	}
	c, name, err := p.joinCounter(e, b)
	return c, name, b, err
}

func (p *Plan) joinCounter(e Execution, b Budget) (*join.Counter, string, error) {
	if _, err := LookupKernel(Join, p.N, e.Kernel); err != nil {
		return nil, "", Usage(err)
	}
	k, _ := join.Lookup(e.Kernel)
	opt := join.CounterOptions{Bounded: b.Path == "bounded", Arena: int(b.Arena / 8)}
	c, err := join.NewCounter(p.layout, k, opt)
	if err != nil {
		return nil, "", err
	}
	return c, k.Name, nil
}

// joinResult counts task id with c.
func joinResult(ctx context.Context, c *join.Counter, id int, progress func(nodes uint64)) (count.Result, error) {
	n, nodes, err := c.Count(ctx, id, progress)
	if err != nil {
		if errors.Is(err, join.ErrOverflow) {
			return count.Result{}, fmt.Errorf("%w: %v (task %d)", ErrOverflow, err, id)
		}
		return count.Result{}, err
	}
	return count.Result{Count: n, Nodes: nodes}, nil
}
