package worker

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count/queens/queue"
)

// running is a task being counted: its progress, which the kernel reports
// after every slice of bounded work (docs/architecture.md, contract 1),
// is what keeps its message alive and what the worker's reports show.
type running struct {
	meter   *jobMeter
	visited *atomic.Uint64 // the worker's, every node visited
	nodes   atomic.Uint64  // visited so far
	last    atomic.Int64   // time of the last progress (or the start), UnixNano
	// cancel abandons the task; abandoned says that the heartbeats did
	// it because the task stopped making progress, cancelled that its
	// job was cancelled.
	cancel    context.CancelFunc
	abandoned atomic.Bool
	cancelled atomic.Bool
}

// progress takes the running total of the task's nodes after a slice.
// It is called by the task's goroutine after every slice: two atomic
// adds and a clock read.
func (r *running) progress(nodes uint64) {
	d := nodes - r.nodes.Swap(nodes)
	r.meter.nodes.Add(d)
	r.visited.Add(d)
	r.last.Store(time.Now().UnixNano())
}

// jobMeter is this worker's work on one job, for its reports.
type jobMeter struct {
	nodes atomic.Uint64 // visited, running tasks' so far and abandoned ones' included
	// Guarded by tally.mu:
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
	for drop < len(m.samples)-1 && now.Sub(m.samples[drop].t) > queue.RateWindow {
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

// beat is the heartbeat state of a message this worker holds.
type beat struct {
	// task is set while the task is being counted: then its progress,
	// not the clock, keeps the message alive.
	task atomic.Pointer[running]
	// beaten is the progress time of the last InProgress (heart.run only).
	beaten int64
}

// heart keeps the messages a worker holds alive (see run).
type heart struct {
	every      time.Duration // how often held tasks are reported alive
	stallAfter time.Duration // a task without progress this long is abandoned
	slots      int
	logf       func(string, ...any)

	mu      sync.Mutex
	beating map[jetstream.Msg]*beat
}

func newHeart(every, stallAfter time.Duration, slots int, logf func(string, ...any)) *heart {
	return &heart{every: every, stallAfter: stallAfter, slots: slots, logf: logf, beating: map[jetstream.Msg]*beat{}}
}

// hold keeps msg alive until the returned function is called.
func (h *heart) hold(msg jetstream.Msg) (*beat, func()) {
	b := &beat{}
	h.mu.Lock()
	h.beating[msg] = b
	h.mu.Unlock()
	var once sync.Once
	return b, func() {
		once.Do(func() {
			h.mu.Lock()
			delete(h.beating, msg)
			h.mu.Unlock()
		})
	}
}

// run tells the server, every heartbeat, which held tasks are still
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
func (h *heart) run(ctx context.Context) {
	t := time.NewTicker(h.every)
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
		h.mu.Lock()
		held = held[:0]
		for m, b := range h.beating {
			held = append(held, entry{m, b})
		}
		h.mu.Unlock()
		counting, latest := 0, int64(0)
		for _, e := range held {
			if r := e.b.task.Load(); r != nil {
				counting++
				latest = max(latest, r.last.Load())
			}
		}
		hung := counting >= h.slots && latest <= lastAny
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
			if now.Sub(time.Unix(0, last)) > h.stallAfter && !r.abandoned.Swap(true) {
				h.logf("%s: no progress for %v: abandoned (the server hands it to another worker)", e.msg.Subject(), now.Sub(time.Unix(0, last)).Round(time.Second))
				r.cancel()
			}
		}
	}
}
