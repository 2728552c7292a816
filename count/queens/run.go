package queens

import (
	"context"
	"fmt"
	"runtime"
	"sort"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/internal/cputime"
	"github.com/nqcount/nqcount/internal/sysmem"
)

// Execution says how a count runs its plan on this machine: what it may
// not change without changing the answer is the plan's; this is not.
// Every front end fills one from its flags or its request and passes it
// whole; its zero fields are defaulted in one place, Resolve.
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

// DefaultMemory is the memory a count may hold when no limit is given:
// half the smallest of the machine's physical memory, the limit of the
// process's cgroup (v1 or v2) and the memory Slurm allocated to the job
// (4 GiB when the system states none); see sysmem.Limits.
func DefaultMemory() uint64 { return sysmem.DefaultLimit() }

// Resolve returns e with its defaults filled in: Workers 0 becomes
// runtime.GOMAXPROCS(0), Memory 0 DefaultMemory(). It is the one place
// they are chosen; a resolved Execution resolves to itself. The kernel
// and the path are resolved against a plan, by Plan.Fit.
func (e Execution) Resolve() Execution {
	if e.Workers <= 0 {
		e.Workers = runtime.GOMAXPROCS(0)
	}
	if e.Memory == 0 {
		e.Memory = DefaultMemory()
	}
	return e
}

// StableWorkers is the worker count to plan with (Spec.Workers) when a
// plan must not depend on the machine: a checkpointed run resumed with
// other --workers, or shards on different machines, must cut the count
// into the same tasks.
const StableWorkers = 32

// Budget is how a count of a plan runs in its memory: the Execution as
// Plan.Fit resolved it, and what the count plans to hold.
type Budget struct {
	// Execution is the one asked for, resolved: Kernel is the kernel's
	// name, Memory the limit, Path "tables" or "bounded" for the join and
	// "" for the backtracking methods (which need no memory to speak of).
	Execution
	// Planned is what the count plans to hold with its workers, and
	// PerWorker each worker's share of it.
	Planned   uint64
	PerWorker uint64
	// Arena is the bounded path's arena per worker, in bytes; KeyBits
	// the most index bits its joins take (see join.CounterOptions),
	// those whose arrays fit beside it.
	Arena   uint64
	KeyBits int
	// Batch is the most tasks the bounded path counts together (see
	// join.Counter.Batches): more than 1 only where the arena has room
	// for the row lists they hold, beyond the lists of its longest row
	// set or in an eighth of an arena below them.
	Batch int
	// MeterRuns says whether a join count takes reference runs while it
	// counts (see join.Meter): only where the memory leaves room for one
	// beside the count's own (join.CalibrateMemory, set aside in
	// Planned).
	MeterRuns bool
}

// bookBytes is what a count holds per task of its plan: the estimates,
// the largest-first order, the progress and journal indexes, a shard's
// results.
const bookBytes = 64

// Fit checks everything that could refuse the count of p as e says,
// before any work: the kernel (of the plan's method's family; a usage
// error), then the memory with e.Workers workers (an error wrapping
// ErrMemory). It returns e resolved and how the count fits: the join's
// table path when the tables and every worker's lists fit, else its
// bounded path.
func (p *Plan) Fit(e Execution) (Budget, error) {
	e = e.Resolve()
	name, err := p.tasks.kernel(e.Kernel)
	if err != nil {
		return Budget{Execution: e}, Usage(err)
	}
	e.Kernel = name
	return p.tasks.fit(e, join.Runtime+uint64(p.Len())*bookBytes)
}

// TaskFunc returns the function that counts one task of p, for a process
// that counts a plan's tasks one at a time as they come (a queue worker)
// and keeps the function, with the kernel's name and the budget chosen
// (Fit). What the tasks share (a join plan's tables) is built once, by
// the first call, which reports that work to its progress but leaves it
// out of its Result.Nodes: a task's nodes are the same whichever process
// counted it, on whichever path, and in whatever order. The function may
// be called from several goroutines at once, at most e.Workers at a
// time.
func (p *Plan) TaskFunc(e Execution) (count.TaskFunc, string, Budget, error) {
	return p.taskFunc(e, nil)
}

// taskFunc is TaskFunc, recording a join's Work and prices in m if not
// nil.
func (p *Plan) taskFunc(e Execution, m *join.Meter) (count.TaskFunc, string, Budget, error) {
	b, err := p.Fit(e)
	if err != nil {
		return nil, "", b, err
	}
	do, err := p.tasks.counter(b, m)
	if err != nil {
		return nil, "", b, err
	}
	return do, b.Kernel, b, nil
}

// Options are what a count reports as it runs.
type Options struct {
	// OnDone is passed to the engine: called once per finished task.
	OnDone func(id int, r count.Result) error
	// OnProgress is passed to the engine: called, concurrently, after
	// every slice of a task with its id and nodes so far (see
	// count.Options.OnProgress), for a live nodes/s figure.
	OnProgress func(id int, nodes uint64)
}

// Result is a finished count.
type Result struct {
	N       int            `json:"n"`
	Total   count.Uint128  `json:"total"`
	Unique  *count.Uint128 `json:"unique,omitempty"`
	Seconds float64        `json:"seconds"`
	// CPUSeconds is the CPU time (user and system) the process spent
	// while Count ran, all of its threads; 0 where the system does not
	// report it.
	CPUSeconds float64       `json:"cpu_seconds"`
	Workers    int           `json:"workers"`
	Tasks      int           `json:"tasks"`
	Depth      int           `json:"depth"`
	Nodes      count.Uint128 `json:"nodes"`
	Method     Method        `json:"method"`
	Kernel     string        `json:"kernel"`
	// PeakMemory is the process's peak resident memory when the count
	// ended, in bytes (0 where the system does not report it).
	PeakMemory uint64 `json:"peak_memory_bytes,omitempty"`
	// Path is the join's path, "tables" or "bounded" (see Budget), and
	// MemoryLimit what the count was allowed to hold.
	Path        string `json:"path,omitempty"`
	MemoryLimit uint64 `json:"memory_limit_bytes,omitempty"`
	// Metered is, for the join, the Work of the tasks this run counted
	// and the prices of the reference runs it took while it counted, one
	// every MeterInterval where its memory leaves room for them
	// (Budget.MeterRuns; see join.Meter): its CPU time set beside the
	// estimator's units.
	Metered *join.Metered `json:"metered,omitempty"`
}

// MeterInterval is the wall time between two reference runs of a join
// count (join.Meter): each takes about a tenth of a second of one core,
// so a count shorter than the interval takes none.
const MeterInterval = time.Minute

// Count counts the tasks of p whose ids are listed (count.All(p.Len())
// for the whole plan) as e says, reporting each finished one to
// opt.OnDone. It is the one way a plan is counted in a process: the
// job, the estimator and the web pages count through it. The result's
// Total, Nodes and Tasks cover the listed tasks only, so it is the answer
// only when ids lists every task; its Unique is left nil (UniqueFrom
// gives it from a whole total). Resumed runs and shards are built on it.
//
// A kernel or a memory that does not fit is refused before any work (see
// Plan.Fit). If ctx is cancelled it returns ctx's error and no result,
// within about a second whatever n: a partial total is never returned as
// if it were the answer. The tasks that finished before have been
// reported to OnDone, and the ones running are abandoned (counted again
// on resume).
func Count(ctx context.Context, p *Plan, e Execution, ids []int, opt Options) (Result, error) {
	start := time.Now()
	cpu0, cpuOK := cputime.Process()
	for _, id := range ids {
		if id < 0 || id >= p.Len() {
			return Result{}, fmt.Errorf("%w: task id %d out of range 0..%d", ErrInvalid, id, p.Len()-1)
		}
	}
	b, err := p.Fit(e)
	if err != nil {
		return Result{}, err
	}
	var m *join.Meter
	if p.Layout() != nil {
		every := time.Duration(0)
		if b.MeterRuns {
			every = MeterInterval
		}
		m = join.NewMeter(every)
	}
	if b.Workers > 1 {
		if _, err := p.EstimatesContext(ctx); err != nil {
			return Result{}, err
		}
		ids = p.LargestFirst(ids)
	}
	opts := count.Options{Workers: b.Workers, OnDone: opt.OnDone, OnProgress: opt.OnProgress}
	var tot count.Totals
	if j, ok := p.tasks.(*joinTasks); ok && b.Batch > 1 {
		batches, do, err := j.batches(b, m, ids)
		if err != nil {
			return Result{}, err
		}
		tot, err = count.RunBatches(ctx, batches, do, opts)
		if err != nil {
			return Result{}, err
		}
	} else {
		do, err := p.tasks.counter(b, m)
		if err != nil {
			return Result{}, err
		}
		if tot, err = count.Run(ctx, ids, do, opts); err != nil {
			return Result{}, err
		}
	}
	name := b.Kernel
	r := Result{
		N: p.N, Total: tot.Count, Workers: b.Workers, Tasks: tot.Tasks, Depth: p.Depth,
		Nodes: tot.Nodes, Method: p.Method, Kernel: name, Seconds: time.Since(start).Seconds(),
		Path: b.Path,
	}
	if b.Path != "" {
		r.MemoryLimit = b.Memory
	}
	if m != nil {
		mr := m.Report()
		r.Metered = &mr
	}
	if cpu1, ok := cputime.Process(); ok && cpuOK {
		r.CPUSeconds = (cpu1 - cpu0).Seconds()
	}
	if peak, ok := sysmem.Peak(); ok {
		r.PeakMemory = peak
	}
	return r, nil
}

// Estimates returns a cheap, deterministic estimate of each task's cost,
// which grows with the work of the task: for the backtracking methods
// the number of partial placements a few rows into its search, for the
// join its layout's (join.Layout.Estimates). Shards are balanced by it
// and progress reports weight tasks by it.
//
// The estimates are computed once per plan and shared: callers must not
// modify the slice.
func (p *Plan) Estimates() []uint64 {
	p.estOnce.Do(func() { p.est = p.tasks.estimates() })
	return p.est
}

// EstimatesContext is Estimates that gives up waiting when ctx is done
// (a second or two at the largest n),
// so that a count interrupted while it plans stops at once. The
// computation itself goes on in the background and is kept for the next
// call.
func (p *Plan) EstimatesContext(ctx context.Context) ([]uint64, error) {
	done := make(chan struct{})
	go func() {
		p.Estimates()
		close(done)
	}()
	select {
	case <-done:
		return p.est, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// LargestFirst returns the ids reordered by decreasing estimated cost
// (ties by id), so that the big tasks start first and the run does not
// end with one worker finishing a large task while the others idle. The
// order changes nothing but the schedule: every id is still counted once.
func (p *Plan) LargestFirst(ids []int) []int {
	est := p.Estimates()
	out := append([]int(nil), ids...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if est[a] != est[b] {
			return est[a] > est[b]
		}
		return a < b
	})
	return out
}
