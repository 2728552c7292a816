package queue

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// running is a task being counted: its progress, which the kernel reports
// after every slice of bounded work (docs/architecture.md, contract 1),
// is what keeps its message alive and what the worker's reports show.
type running struct {
	meter *jobMeter
	nodes atomic.Uint64 // visited so far
	last  atomic.Int64  // time of the last progress (or the start), UnixNano
	// cancel abandons the task; abandoned says that the heartbeats did
	// it because the task stopped making progress.
	cancel    context.CancelFunc
	abandoned atomic.Bool
}

// progress takes the running total of the task's nodes after a slice.
// It is called by the task's goroutine after every slice: two atomic
// adds and a clock read.
func (r *running) progress(w *worker, nodes uint64) {
	d := nodes - r.nodes.Swap(nodes)
	r.meter.nodes.Add(d)
	w.visited.Add(d)
	r.last.Store(time.Now().UnixNano())
}

// jobMeter is this worker's work on one job, for its reports.
type jobMeter struct {
	nodes atomic.Uint64 // visited, running tasks' so far and abandoned ones' included
	// Guarded by worker.mu:
	first   time.Time
	last    time.Time // when a task of the job last ended
	running map[*running]bool
	// Read and written by the reports goroutine only.
	samples []sample
}

type sample struct {
	t     time.Time
	nodes uint64
}

// rate adds a sample taken at now and returns the growth of the nodes per
// second over the samples of the last rateWindow (0 over less than a
// second).
func (m *jobMeter) rate(now time.Time, nodes uint64) float64 {
	m.samples = append(m.samples, sample{now, nodes})
	drop := 0
	for drop < len(m.samples)-1 && now.Sub(m.samples[drop].t) > rateWindow {
		drop++
	}
	m.samples = m.samples[drop:]
	first := m.samples[0]
	dt := now.Sub(first.t).Seconds()
	if dt < 1 {
		return 0
	}
	return float64(nodes-first.nodes) / dt
}

// startTask registers a task of job id that starts counting now.
func (w *worker) startTask(id string, cancel context.CancelFunc) *running {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := w.meters[id]
	if m == nil {
		m = &jobMeter{first: time.Now(), running: map[*running]bool{}}
		w.meters[id] = m
	}
	r := &running{meter: m, cancel: cancel}
	r.last.Store(time.Now().UnixNano())
	m.running[r] = true
	return r
}

// endTask unregisters a task that finished, failed or was abandoned.
func (w *worker) endTask(r *running) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(r.meter.running, r)
	r.meter.last = time.Now()
}

// beat is the heartbeat state of a message this worker holds.
type beat struct {
	// task is set while the task is being counted: then its progress,
	// not the clock, keeps the message alive.
	task atomic.Pointer[running]
	// beaten is the progress time of the last InProgress (beats only).
	beaten int64
}

// hold keeps msg alive until the returned function is called (see beats).
func (w *worker) hold(msg jetstream.Msg) (*beat, func()) {
	b := &beat{}
	w.beatMu.Lock()
	w.beating[msg] = b
	w.beatMu.Unlock()
	var once sync.Once
	return b, func() {
		once.Do(func() {
			w.beatMu.Lock()
			delete(w.beating, msg)
			w.beatMu.Unlock()
		})
	}
}

// beats tells the server, every heartbeat, which held tasks are still
// being worked on (InProgress), until ctx is done:
//
//   - a task being counted, if it made progress since the last heartbeat:
//     a kernel that hangs stops heartbeating, so its task goes to another
//     worker after the ack wait; once it has made no progress for longer
//     than that, the worker abandons it (the engine gives up a task that
//     does not return within a second) and its slot counts another;
//   - a task waiting for a slot, being prepared or having its result
//     stored, unless every slot is counting and none made progress (a
//     worker whose kernels all hang keeps nothing).
//
// The clock only sets how often the server hears: at most once per
// heartbeat for each task.
func (w *worker) beats(ctx context.Context) {
	t := time.NewTicker(w.heartbeat)
	defer t.Stop()
	type entry struct {
		msg jetstream.Msg
		b   *beat
	}
	var (
		held    []entry
		lastAny int64 // the latest progress seen at the previous tick
	)
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		w.beatMu.Lock()
		held = held[:0]
		for m, b := range w.beating {
			held = append(held, entry{m, b})
		}
		w.beatMu.Unlock()
		counting, latest := 0, int64(0)
		for _, e := range held {
			if r := e.b.task.Load(); r != nil {
				counting++
				latest = max(latest, r.last.Load())
			}
		}
		hung := counting >= w.cfg.Workers && latest <= lastAny
		lastAny = max(lastAny, latest)
		now := time.Now()
		for _, e := range held {
			r := e.b.task.Load()
			if r == nil {
				if !hung {
					e.msg.InProgress()
				}
				continue
			}
			last := r.last.Load()
			if last > e.b.beaten {
				e.b.beaten = last
				e.msg.InProgress()
				continue
			}
			if now.Sub(time.Unix(0, last)) > w.stallAfter && !r.abandoned.Swap(true) {
				w.logf("%s: no progress for %v: abandoned (the server hands it to another worker)", e.msg.Subject(), now.Sub(time.Unix(0, last)).Round(time.Second))
				r.cancel()
			}
		}
	}
}

// reports puts this worker's report in the workers bucket every
// reportEvery, and a last one when stopped.
func (w *worker) reports(ctx context.Context) (stop func()) {
	host, _ := os.Hostname()
	put := func(stopped bool) {
		now := time.Now()
		w.mu.Lock()
		s := Seen{
			ID: w.cfg.ID, Host: host, PID: os.Getpid(), Slots: w.cfg.Workers, Kernel: w.kernel + "," + w.joinKernel, Program: w.cfg.Program,
			Started: w.started.UTC(), Time: now.UTC(), Counted: w.stats.Counted + w.stats.Verified,
			Nodes: w.visited.Load(), Stopped: stopped,
		}
		held := map[string]int{}
		for k := range w.held {
			s.Held = append(s.Held, k)
			held[k[:max(0, strings.LastIndexByte(k, '.'))]]++
		}
		type jm struct {
			id string
			m  *jobMeter
			jw JobWork
		}
		var jobs []jm
		for id, m := range w.meters {
			if len(m.running) == 0 && held[id] == 0 && now.Sub(m.last) > rateWindow {
				delete(w.meters, id) // done with it: the report stays small
				continue
			}
			jw := JobWork{Job: id, Held: held[id], Running: len(m.running), Nodes: m.nodes.Load(), Since: now.Sub(m.first).Seconds()}
			for r := range m.running {
				jw.Live += r.nodes.Load()
			}
			jobs = append(jobs, jm{id, m, jw})
		}
		w.mu.Unlock()
		for _, j := range jobs {
			j.jw.Rate = j.m.rate(now, j.jw.Nodes)
			s.Jobs = append(s.Jobs, j.jw)
		}
		slices.SortFunc(s.Jobs, func(a, b JobWork) int { return strings.Compare(a.Job, b.Job) })
		slices.Sort(s.Held)
		b, _ := json.Marshal(s)
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		w.workers.Put(pctx, w.cfg.ID, b)
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	put(false)
	go func() {
		defer close(finished)
		t := time.NewTicker(reportEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				put(true)
				return
			case <-t.C:
				put(false)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}
