package web

import (
	"context"
	"errors"
	"runtime"
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
}

// liveCount runs one n-queens count at a time for the watch page and
// reports its progress, through package job: the same orchestration and
// progress accounting as nqueens count.
type liveCount struct {
	mu   sync.Mutex
	cur  *liveRun
	last int // id of the last run started
}

// liveRun is one count.
type liveRun struct {
	id, n, workers int
	cancel         context.CancelFunc
	start          time.Time
	job            atomic.Pointer[job.Job] // set once planned

	mu     sync.Mutex // guards what follows
	state  string
	out    *job.Outcome
	err    error
	finish time.Time
}

func newLiveCount() *liveCount { return &liveCount{} }

// start stops the running count, if any, and starts counting n.
func (l *liveCount) start(n, workers int) CountProgress {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	l.mu.Lock()
	if l.cur != nil {
		l.cur.cancel()
	}
	l.last++
	ctx, cancel := context.WithCancel(context.Background())
	r := &liveRun{id: l.last, n: n, workers: workers, cancel: cancel, start: time.Now(), state: "planning"}
	l.cur = r
	l.mu.Unlock()
	go r.run(ctx)
	return r.snapshot()
}

func (r *liveRun) run(ctx context.Context) {
	defer r.cancel()
	// Constellations, not the fastest method for large n (join): a live
	// count starts at once and shows its progress from the first second,
	// where the join first builds tables of gigabytes for n >= 24.
	j, err := job.Open(job.Config{Spec: queens.Spec{N: r.n, Method: queens.Constellations}, Workers: r.workers})
	if err != nil {
		r.end(nil, err)
		return
	}
	r.job.Store(j)
	r.mu.Lock()
	if r.state == "planning" {
		r.state = "running"
	}
	r.mu.Unlock()
	out, err := j.Run(ctx)
	r.end(out, err)
}

func (r *liveRun) end(out *job.Outcome, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.finish = time.Now()
	switch {
	case err == nil:
		r.state, r.out = "done", out
	case errors.Is(err, context.Canceled):
		r.state = "stopped"
	default:
		r.state, r.err = "failed", err
	}
}

// stop cancels the running count, if any.
func (l *liveCount) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cur != nil {
		l.cur.cancel()
	}
}

func (l *liveCount) snapshot() CountProgress {
	l.mu.Lock()
	r := l.cur
	l.mu.Unlock()
	if r == nil {
		return CountProgress{State: "idle", ETASeconds: -1}
	}
	return r.snapshot()
}

func (r *liveRun) snapshot() CountProgress {
	r.mu.Lock()
	state, out, err, finish := r.state, r.out, r.err, r.finish
	r.mu.Unlock()
	p := CountProgress{ID: r.id, N: r.n, State: state, Workers: r.workers, ETASeconds: -1, Method: string(queens.Constellations)}
	if k, ok := queens.Known(r.n); ok {
		p.Known = count.U128(k).String()
	}
	end := time.Now()
	if !finish.IsZero() {
		end = finish
	}
	p.Seconds = end.Sub(r.start).Seconds()
	if j := r.job.Load(); j != nil {
		pr := j.Progress()
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
