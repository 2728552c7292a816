package worker

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
)

// unitCounter counts units: it picks the kernel for each job's method,
// keeps the task functions of the jobs counted last (a join job's holds
// its tables), and fits the counts in the worker's memory.
type unitCounter struct {
	kernel     string // for the backtracking methods
	joinKernel string // for the join method
	slots      int
	memory     uint64 // bytes the counts may take
	countTask  func(ctx context.Context, jobID string, task int, progress func(nodes uint64)) (count.Result, error)

	mu       sync.Mutex
	counters []jobCounter
	// limits holds, for a job whose memory leaves room for fewer tasks
	// than slots, a semaphore of that many; width the tasks at once a
	// job's counts are fitted for.
	limits map[string]chan struct{}
	width  map[string]int
	noFit  map[string]bool // jobs whose tasks do not fit
}

// jobCounter is the task function of one job.
type jobCounter struct {
	job string
	do  queue.UnitFunc
}

// keepCounters is how many jobs' task functions a worker keeps: a join
// job's holds its tables (built once per worker, not once per task), the
// plan's one large piece of memory.
const keepCounters = 2

// fits reports, for job id planned as p, whether one of its tasks fits in
// the worker's memory, and limits its tasks at once to as many as fit
// (queens.Plan.Fit: the join's table path when it fits, else its
// bounded path).
func (u *unitCounter) fits(id string, p *queue.Plan) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if _, ok := u.limits[id]; ok {
		return nil
	}
	k := u.slots
	var err error
	for ; k > 0; k-- {
		if _, err = p.Queens.Fit(queens.Execution{Workers: k, Memory: u.memory}); err == nil {
			break
		}
	}
	if k == 0 {
		if u.noFit == nil {
			u.noFit = map[string]bool{}
		}
		u.noFit[id] = true
		return &noFitError{fmt.Sprintf("job %s cannot be counted in this worker's memory (--memory %s): %v; it is left for a worker with more", id, queens.Mebibytes(u.memory), err)}
	}
	if u.limits == nil {
		u.limits = map[string]chan struct{}{}
		u.width = map[string]int{}
	}
	var sem chan struct{}
	if k < u.slots {
		sem = make(chan struct{}, k)
	}
	u.limits[id], u.width[id] = sem, k
	return nil
}

// acquire waits until a task of job id may start counting within the
// memory, and returns the function that says it has ended.
func (u *unitCounter) acquire(ctx context.Context, id string) (release func(), err error) {
	u.mu.Lock()
	sem := u.limits[id]
	u.mu.Unlock()
	if sem == nil {
		return func() {}, nil
	}
	select {
	case sem <- struct{}{}:
		return func() { <-sem }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// kernelFor names the kernel that counts the tasks of p.
func (u *unitCounter) kernelFor(p *queue.Plan) string {
	if p.Queens.Method == queens.Join {
		return u.joinKernel
	}
	return u.kernel
}

// count counts one task's unit through the engine, which reports its
// progress after every slice and abandons it within a second of ctx's
// end.
func (u *unitCounter) count(ctx context.Context, t *task, run *running) (count.Result, error) {
	var r count.Result
	onDone := func(_ int, res count.Result) error { r = res; return nil }
	onProgress := func(_ int, nodes uint64) { run.progress(nodes) }
	if hook := u.countTask; hook != nil {
		do := func(ctx context.Context, id int, progress func(uint64)) (count.Result, error) {
			return hook(ctx, t.m.ID, id, progress)
		}
		_, err := count.Run(ctx, []int{t.m.Task}, do, count.Options{Workers: 1, OnDone: onDone, OnProgress: onProgress})
		return r, err
	}
	unit, err := u.unitFunc(t.m.ID, t.plan)
	if err != nil {
		return r, err
	}
	tasks := t.tasks
	if tasks == nil {
		tasks = []int{t.m.Task}
	}
	do := func(ctx context.Context, _ int, progress func(uint64)) (count.Result, error) {
		return unit(ctx, tasks, progress)
	}
	_, err = count.Run(ctx, []int{t.m.Task}, do, count.Options{Workers: 1, OnDone: onDone, OnProgress: onProgress})
	return r, err
}

// unitFunc returns the function that counts the units of job id, made
// once per job (Plan.UnitFunc) and kept for the keepCounters jobs used
// last.
func (u *unitCounter) unitFunc(id string, p *queue.Plan) (queue.UnitFunc, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	i := slices.IndexFunc(u.counters, func(c jobCounter) bool { return c.job == id })
	if i >= 0 {
		c := u.counters[i]
		u.counters = append(slices.Delete(u.counters, i, i+1), c)
		return c.do, nil
	}
	k := u.width[id]
	if k == 0 {
		k = u.slots
	}
	do, _, err := p.UnitFunc(queens.Execution{Kernel: u.kernelFor(p), Workers: k, Memory: u.memory})
	if err != nil {
		return nil, err
	}
	if len(u.counters) >= keepCounters {
		u.counters = slices.Delete(u.counters, 0, 1)
	}
	u.counters = append(u.counters, jobCounter{id, do})
	return do, nil
}

// noFitError is fits' error for a job whose tasks do not fit in the
// worker's memory: not a failure of the task, which another worker
// counts.
type noFitError struct{ msg string }

func (e *noFitError) Error() string { return e.msg }

// cannot reports whether job id is known not to fit in the worker's
// memory.
func (u *unitCounter) cannot(id string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.noFit[id]
}
