package queens

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens/kernel"
	"github.com/nqcount/nqcount/internal/sysmem"
)

// StableWorkers is the worker count to plan with (NewPlan's last argument)
// when a plan must not depend on the machine: a checkpointed run resumed
// with other --workers, or shards on different machines, must cut the
// count into the same tasks.
const StableWorkers = 32

// CountTasks counts only the tasks of p whose ids are listed, reporting
// each finished one to opt.OnDone; opt.Method and opt.Depth are ignored
// (the plan fixes them) and opt.Unique is ignored (the unique count needs
// the whole total: see UniqueFrom). The result's Total, Nodes and Tasks
// cover the listed tasks only, so it is the answer only when ids lists
// every task. Resumed runs and shards are built on it.
//
// If ctx is cancelled it returns ctx's error and no result, within about
// a second whatever n; the tasks that finished before have been reported
// to OnDone, and the ones running are abandoned (counted again on
// resume).
func CountTasks(ctx context.Context, p *Plan, ids []int, opt Options) (Result, error) {
	start := time.Now()
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	for _, id := range ids {
		if id < 0 || id >= p.Len() {
			return Result{}, fmt.Errorf("%w: task id %d out of range 0..%d", ErrInvalid, id, p.Len()-1)
		}
	}
	do, name, budget, err := p.TaskFunc(Execution{Kernel: opt.Kernel, Workers: workers, Memory: opt.Memory, Path: opt.Path})
	if err != nil {
		return Result{}, err
	}
	if workers > 1 {
		if _, err := p.EstimatesContext(ctx); err != nil {
			return Result{}, err
		}
		ids = p.LargestFirst(ids)
	}
	tot, err := count.Run(ctx, ids, do, count.Options{Workers: workers, OnDone: opt.OnDone, OnProgress: opt.OnProgress})
	if err != nil {
		return Result{}, err
	}
	r := Result{
		N: p.N, Total: tot.Count, Workers: workers, Tasks: tot.Tasks, Depth: p.Depth,
		Nodes: tot.Nodes, Method: p.Method, Kernel: name, Seconds: time.Since(start).Seconds(),
		Path: budget.Path,
	}
	if budget.Path != "" {
		r.MemoryLimit = budget.Limit
	}
	if peak, ok := sysmem.Peak(); ok {
		r.PeakMemory = peak
	}
	return r, nil
}

// UniqueFrom returns the number of solutions up to symmetry (A002562)
// from the total number of solutions of the n×n board (A000170).
func UniqueFrom(n int, total count.Uint128) count.Uint128 {
	if total.IsUint64() {
		return count.U128(uniqueFrom(n, total.Lo))
	}
	return uniqueBig(n, total)
}

// estimateBudget bounds the nodes Estimates visits over the whole plan.
const estimateBudget = 1 << 24

// Estimates returns a cheap, deterministic estimate of each task's cost:
// the number of partial placements a few rows into its search (the
// frontier of a depth-limited search), which grows with the size of the
// subtree below. The depth is chosen from the number of tasks so that the
// whole plan costs a few million nodes at most. Shards are balanced by it
// and progress reports weight tasks by it.
//
// The estimates are computed once per plan and shared: callers must not
// modify the slice.
func (p *Plan) Estimates() []uint64 {
	p.estOnce.Do(func() { p.est = p.estimates() })
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

func (p *Plan) estimates() []uint64 {
	if p.layout != nil {
		return p.layout.Estimates()
	}
	levels := 4
	for levels > 1 && uint64(len(p.tasks))<<(3*levels) > estimateBudget {
		levels--
	}
	// The estimates are independent of each other and every worker waits
	// for them, so they are computed on all cores, in chunks pulled from a
	// counter. Each is a pure function of its task: the result does not
	// depend on the schedule.
	est := make([]uint64, len(p.tasks))
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
					p.Frame(id, &f)
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
