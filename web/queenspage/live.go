package queenspage

import (
	"context"
	"errors"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/job"
)

// CountProgress is a snapshot of the live n-queens count.
type CountProgress struct {
	// ID numbers the counts this server started; 0: none yet.
	ID int `json:"id"`
	N  int `json:"n"`
	// State is "idle" (no count yet), "planning", "running", "done",
	// "stopped" or "failed".
	State string `json:"state"`
	// Tasks and TasksDone count the plan's tasks.
	Tasks     int `json:"tasks"`
	TasksDone int `json:"tasks_done"`
	// Fraction is the part of the expected work done, from the plan's
	// per-task estimates (not the part of the tasks).
	Fraction float64 `json:"fraction"`
	// Nodes is the number of search nodes visited (a float: it can pass
	// 2^53 on long runs, and it is for display).
	Nodes          float64 `json:"nodes"`
	Seconds        float64 `json:"seconds"`
	NodesPerSecond float64 `json:"nodes_per_second"`
	// ETASeconds estimates the time left; -1 while unknown.
	ETASeconds float64 `json:"eta_seconds"`
	Workers    int     `json:"workers"`
	Method     string  `json:"method,omitempty"`
	Kernel     string  `json:"kernel,omitempty"`
	// Total is the exact number of solutions, as a decimal string, once
	// done.
	Total string `json:"total,omitempty"`
	// Known is OEIS A000170's value, when it has one, as a decimal string.
	Known string `json:"known,omitempty"`
	// Matches says whether Total equals Known (when both are there).
	Matches *bool  `json:"matches_known,omitempty"`
	Error   string `json:"error,omitempty"`
	// BudgetSeconds is the most a count may run (Options.CountBudget).
	BudgetSeconds float64 `json:"budget_seconds"`
	// StopReason says why a stopped count stopped: "asked" (a DELETE),
	// "replaced" (another count started), "budget" (its time budget
	// spent), "unwatched" (no request for its progress within
	// Options.CountIdle: the page was closed) or "shutdown".
	StopReason string `json:"stop_reason,omitempty"`
}

// Why a live count stopped (CountProgress.StopReason).
const (
	StopAsked     = "asked"
	StopReplaced  = "replaced"
	StopBudget    = "budget"
	StopUnwatched = "unwatched"
	StopShutdown  = "shutdown"
)

// The bounds of a live count, when Options leave them 0: it stops after
// DefaultCountBudget, and DefaultCountIdle after the last request for its
// progress (the page polls twice a second).
const (
	DefaultCountBudget = 10 * time.Minute
	DefaultCountIdle   = 5 * time.Second
)

// stopCause is the cause a live count's context is cancelled with.
type stopCause struct{ reason string }

func (c *stopCause) Error() string { return "live count stopped: " + c.reason }

// liveCount runs one n-queens count at a time for the watch page and
// reports its progress, through package job: the same orchestration,
// method and progress accounting as nqueens count. Work started by a
// request ends with its requester: a count stops after its time budget,
// and when no request has asked for its progress for the idle time (the
// page that started it was closed).
type liveCount struct {
	budget, idle time.Duration

	mu   sync.Mutex
	cur  *liveRun
	last int // id of the last run started
}

// closedChan is the done of the run before the first.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// liveRun is one count.
type liveRun struct {
	id, n  int
	exec   queens.Execution // resolved once, in start
	budget time.Duration
	cancel context.CancelCauseFunc
	start  time.Time
	// prev is closed when the run before this one has ended, done when
	// this one has: a run starts its work only after the one it replaced
	// let go of its own, so that however many requests start counts at
	// once, one plan at a time holds memory.
	prev, done chan struct{}
	job        atomic.Pointer[job.Job] // set once planned, cleared when the count ends
	polled     atomic.Int64            // time of the last request for the progress, in ns since start

	mu     sync.Mutex // guards what follows
	state  string
	out    *job.Outcome
	err    error
	reason string
	finish time.Time
	method string
	last   *job.Progress // the progress when the count ended (its job is then let go)
}

func newLiveCount(budget, idle time.Duration) *liveCount {
	if budget <= 0 {
		budget = DefaultCountBudget
	}
	if idle <= 0 {
		idle = DefaultCountIdle
	}
	return &liveCount{budget: budget, idle: idle}
}

// start stops the running count, if any, and starts counting n.
func (l *liveCount) start(n, workers int) CountProgress {
	exec := queens.Execution{Workers: workers}.Resolve() // nqueens count's defaults
	l.mu.Lock()
	if l.cur != nil {
		l.cur.cancel(&stopCause{StopReplaced})
	}
	l.last++
	ctx, cancel := context.WithCancelCause(context.Background())
	prev := closedChan
	if l.cur != nil {
		prev = l.cur.done
	}
	r := &liveRun{id: l.last, n: n, exec: exec, budget: l.budget, cancel: cancel, start: time.Now(), state: "planning",
		prev: prev, done: make(chan struct{})}
	l.cur = r
	l.mu.Unlock()
	go r.run(ctx)
	go r.watch(ctx, l.idle)
	return r.snapshot()
}

// watch stops the count when its budget is spent or when nobody has asked
// for its progress for idle.
func (r *liveRun) watch(ctx context.Context, idle time.Duration) {
	budget := time.NewTimer(r.budget)
	defer budget.Stop()
	tick := time.NewTicker(max(idle/10, time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-budget.C:
			r.cancel(&stopCause{StopBudget})
			return
		case <-tick.C:
			if time.Since(r.start)-time.Duration(r.polled.Load()) > idle {
				r.cancel(&stopCause{StopUnwatched})
				return
			}
		}
	}
}

// touch notes a request for the progress.
func (r *liveRun) touch() { r.polled.Store(int64(time.Since(r.start))) }

func (r *liveRun) run(ctx context.Context) {
	defer close(r.done)
	defer r.cancel(nil)
	<-r.prev
	if ctx.Err() != nil {
		r.end(ctx, nil, ctx.Err())
		return
	}
	// The memory of the plan and the workers goes back to the system when
	// the count ends, before the next one starts.
	defer debug.FreeOSMemory()
	// The same call as nqueens count's, with its defaults: the fastest
	// method for n (the join from n = 12 but 13), every core.
	j, err := job.OpenContext(ctx, job.Config{Spec: queens.Spec{N: r.n}, Execution: r.exec})
	if err != nil {
		r.end(ctx, nil, err)
		return
	}
	r.job.Store(j)
	r.mu.Lock()
	if r.state == "planning" {
		r.state = "running"
	}
	r.mu.Unlock()
	out, err := j.Run(ctx)
	r.end(ctx, out, err)
}

// end records how the count ended and lets its job go: a stopped or
// finished count keeps only its last progress, and the memory its plan
// and workers held goes back to the system at once rather than when the
// next count starts (a page closed on n = 21 left the server holding it).
func (r *liveRun) end(ctx context.Context, out *job.Outcome, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if j := r.job.Load(); j != nil {
		p := j.Progress()
		r.last, r.method = &p, string(j.Plan().Spec().Method)
		r.job.Store(nil)
		j.Close()
	}
	r.finish = time.Now()
	var sc *stopCause
	switch {
	case err == nil:
		r.state, r.out = "done", out
	case ctx.Err() != nil && errors.As(context.Cause(ctx), &sc):
		r.state, r.reason = "stopped", sc.reason
	case errors.Is(err, context.Canceled):
		r.state = "stopped"
	default:
		r.state, r.err = "failed", err
	}
}

// stop cancels the running count, if any, for the reason given.
func (l *liveCount) stop(reason string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cur != nil {
		l.cur.cancel(&stopCause{reason})
	}
}

// snapshot returns the progress of the last count; a poll (a request for
// it) keeps a running count alive.
func (l *liveCount) snapshot(poll bool) CountProgress {
	l.mu.Lock()
	r := l.cur
	l.mu.Unlock()
	if r == nil {
		return CountProgress{State: "idle", ETASeconds: -1, BudgetSeconds: l.budget.Seconds()}
	}
	if poll {
		r.touch()
	}
	return r.snapshot()
}

func (r *liveRun) snapshot() CountProgress {
	r.mu.Lock()
	state, out, err, finish, reason := r.state, r.out, r.err, r.finish, r.reason
	last, method := r.last, r.method
	j := r.job.Load() // under r.mu: either last or j is set once planned
	r.mu.Unlock()
	p := CountProgress{ID: r.id, N: r.n, State: state, Workers: r.exec.Workers, ETASeconds: -1, BudgetSeconds: r.budget.Seconds(), StopReason: reason}
	if k, ok := queens.Known(r.n); ok {
		p.Known = count.U128(k).String()
	}
	end := time.Now()
	if !finish.IsZero() {
		end = finish
	}
	p.Seconds = end.Sub(r.start).Seconds()
	if j != nil && last == nil {
		method = string(j.Plan().Spec().Method)
		pr := j.Progress()
		last = &pr
	}
	if last != nil {
		pr := *last
		p.Method = method
		p.Tasks, p.TasksDone, p.Fraction = pr.Tasks, pr.Done, pr.Fraction
		p.Nodes, _ = pr.Nodes.Big().Float64()
		p.NodesPerSecond = pr.NodesPerSec
		if state == "running" && pr.ETA >= 0 {
			p.ETASeconds = pr.ETA.Seconds()
		}
	}
	switch state {
	case "done":
		p.Fraction, p.ETASeconds = 1, 0
		p.Total, p.Kernel, p.Method = out.Total.String(), out.Kernel, string(out.Method)
		p.Nodes, _ = out.Nodes.Big().Float64()
		p.Matches = out.Matches
	case "failed":
		p.Error = err.Error()
	}
	return p
}
