package worker

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

	"github.com/nqcount/nqcount/count/queens/queue"
)

// tally keeps what a worker's reports and stats say: what it did, the
// tasks it holds, and its work on each job (jobMeter). One lock.
type tally struct {
	id      string
	workers jetstream.KeyValue // where the reports go
	started time.Time
	nodes   atomic.Uint64 // the counted tasks' nodes
	visited atomic.Uint64 // every node visited

	mu         sync.Mutex
	failStreak int // counts failed in a row
	stats      Stats
	held       map[string]bool // JOB.ID
	meters     map[string]*jobMeter
}

func newTally(id string, workers jetstream.KeyValue) *tally {
	return &tally{id: id, workers: workers, started: time.Now(), stats: Stats{ID: id}, held: map[string]bool{}, meters: map[string]*jobMeter{}}
}

// add changes the stats.
func (t *tally) add(f func(*Stats)) {
	t.mu.Lock()
	f(&t.stats)
	t.mu.Unlock()
}

// failed notes a count that failed and returns how many failed in a row.
func (t *tally) failed() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.stats.Failed++
	t.failStreak++
	return t.failStreak
}

// result returns the stats.
func (t *tally) result() *Stats {
	t.mu.Lock()
	defer t.mu.Unlock()
	st := t.stats
	st.Nodes = t.nodes.Load()
	return &st
}

// hold records that the worker holds task key (JOB.ID) until the returned
// function is called.
func (t *tally) hold(key string) (release func()) {
	t.mu.Lock()
	t.held[key] = true
	t.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			t.mu.Lock()
			delete(t.held, key)
			t.mu.Unlock()
		})
	}
}

// startTask registers a task of job id that starts counting now.
func (t *tally) startTask(id string, cancel context.CancelFunc) *running {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := t.meters[id]
	if m == nil {
		m = &jobMeter{first: time.Now(), running: map[*running]bool{}}
		t.meters[id] = m
	}
	r := &running{meter: m, visited: &t.visited, cancel: cancel}
	r.last.Store(time.Now().UnixNano())
	m.running[r] = true
	return r
}

// endTask unregisters a task that finished, failed or was abandoned.
func (t *tally) endTask(r *running) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(r.meter.running, r)
	r.meter.last = time.Now()
}

// cancelJob stops the running tasks of job id and returns how many.
func (t *tally) cancelJob(id string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := t.meters[id]
	if m == nil {
		return 0
	}
	for r := range m.running {
		r.cancelled.Store(true)
		r.cancel()
	}
	return len(m.running)
}

// seen returns the worker's report, as of now, with the share of the rest
// given in s.
func (t *tally) seen(s queue.Seen, now time.Time) queue.Seen {
	t.mu.Lock()
	s.ID, s.Started, s.Time = t.id, t.started.UTC(), now.UTC()
	s.Counted, s.Nodes, s.SetAside = t.stats.Counted+t.stats.Verified, t.visited.Load(), t.stats.SetAside
	s.Refused, s.Failed, s.Conflicts = t.stats.Refused, t.stats.Failed, t.stats.Conflicts
	held := map[string]int{}
	for k := range t.held {
		s.Held = append(s.Held, k)
		held[k[:max(0, strings.LastIndexByte(k, '.'))]]++
	}
	type jm struct {
		m  *jobMeter
		jw queue.JobWork
	}
	var jobs []jm
	for id, m := range t.meters {
		if len(m.running) == 0 && held[id] == 0 && now.Sub(m.last) > queue.RateWindow {
			delete(t.meters, id) // done with it: the report stays small
			continue
		}
		jw := queue.JobWork{Job: id, Held: held[id], Running: len(m.running), Nodes: m.nodes.Load(), Since: now.Sub(m.first).Seconds()}
		for r := range m.running {
			jw.Live += r.nodes.Load()
		}
		jobs = append(jobs, jm{m, jw})
	}
	t.mu.Unlock()
	for _, j := range jobs {
		j.jw.Rate = j.m.rate(now, j.jw.Nodes)
		s.Jobs = append(s.Jobs, j.jw)
	}
	slices.SortFunc(s.Jobs, func(a, b queue.JobWork) int { return strings.Compare(a.Job, b.Job) })
	slices.Sort(s.Held)
	return s
}

// reports puts this worker's report in the workers bucket every
// reportEvery, and a last one when stopped.
func (w *worker) reports(ctx context.Context) (stop func()) {
	host, _ := os.Hostname()
	put := func(stopped bool) {
		s := w.tally.seen(queue.Seen{
			Host: host, PID: os.Getpid(), Slots: w.cfg.Workers, Memory: w.cfg.Memory, Kernel: w.units.kernel + "," + w.units.joinKernel,
			Program: w.cfg.Program, Stopped: stopped,
		}, time.Now())
		b, _ := json.Marshal(s)
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		w.tally.workers.Put(pctx, w.cfg.ID, b)
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	put(false)
	go func() {
		defer close(finished)
		t := time.NewTicker(queue.ReportEvery)
		defer t.Stop()
		for n := 1; ; n++ {
			select {
			case <-done:
				put(true)
				return
			case <-t.C:
				put(false)
			}
			if n%outvotedEvery == 0 {
				w.outvoted(ctx)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// outvotedEvery is how often, in reports, a worker looks whether it was
// named outvoted on its recent jobs' distrust subjects (where workers on
// a server with roles name the outvoted; others also write the job's
// record, which the worker watches).
const outvotedEvery = 5

// outvoted sets the worker aside if a job it worked on lately names it
// outvoted.
func (w *worker) outvoted(ctx context.Context) {
	w.tally.mu.Lock()
	var jobs []string
	for id := range w.tally.meters {
		jobs = append(jobs, id)
	}
	w.tally.mu.Unlock()
	for _, id := range jobs {
		qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		ds, err := w.c.DistrustRecords(qctx, id)
		cancel()
		if err != nil {
			continue
		}
		if d, ok := queue.DistrustOf(ds, w.cfg.ID); ok {
			w.jobs.outvotedOnce(id, d, w.store.setAsideOutvoted)
			return
		}
	}
}
