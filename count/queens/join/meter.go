package join

import (
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/nqcount/nqcount/internal/cputime"
)

// A Meter records what a count did in the units of Work, and the prices
// of reference runs (Calibrate) taken while it ran, each by a counting
// goroutine between two of its tasks while the others go on counting. So
// a count's CPU time can be set beside its Work priced as the estimator
// prices a sample's: the Work tells how good the estimator's projection
// was, the prices how fast the machine was while the count ran.
//
// The first reference run is taken once the count has run for the
// Meter's interval, so that a short count pays for none. One Meter may
// serve several Counters and goroutines.
type Meter struct {
	every  time.Duration
	mu     sync.Mutex
	next   time.Time // when the next reference run is due
	busy   bool      // a reference run is being taken
	work   Work
	tasks  int
	prices []Prices
}

// NewMeter returns a Meter that takes a reference run every interval of
// wall time (none if interval is 0 or less), the first an interval from
// now.
func NewMeter(interval time.Duration) *Meter {
	return &Meter{every: interval, next: time.Now().Add(interval)}
}

// add records the Work of tasks counted tasks.
func (m *Meter) add(w Work, tasks int) {
	m.mu.Lock()
	m.work.Add(w)
	m.tasks += tasks
	m.mu.Unlock()
}

// maybeCalibrate takes a reference run with kernel k if one is due and
// none is being taken, on the calling goroutine's thread, timed by that
// thread's CPU clock.
func (m *Meter) maybeCalibrate(k Kernel) {
	if m.every <= 0 {
		return
	}
	m.mu.Lock()
	due := !m.busy && !time.Now().Before(m.next)
	if due {
		m.busy = true
	}
	m.mu.Unlock()
	if !due {
		return
	}
	runtime.LockOSThread()
	var p Prices
	_, ok := cpuThread()
	if ok {
		p = Calibrate(k, func() time.Duration { d, _ := cputime.Thread(); return d })
	}
	runtime.UnlockOSThread()
	m.mu.Lock()
	if ok {
		m.prices = append(m.prices, p)
	}
	m.busy, m.next = false, time.Now().Add(m.every)
	m.mu.Unlock()
}

// cpuThread reads the calling thread's CPU clock (cputime.Thread).
var cpuThread = cputime.Thread

// Metered is what a Meter recorded.
type Metered struct {
	// Work is the Work of the tasks counted (not of building the table
	// path's tables), Tasks their number.
	Work  Work `json:"work"`
	Tasks int  `json:"tasks"`
	// PriceRuns is the reference runs taken; Prices the least of each
	// of their prices, as the estimator prices a sample (nil with no run).
	PriceRuns int     `json:"price_runs"`
	Prices    *Prices `json:"prices_ns,omitempty"`
	// LeastSeconds is Work at Prices, in CPU seconds of one core: what
	// the estimator would have said of this Work. MedianSeconds is Work
	// at the prices of the median reference run (by that cost): the
	// machine's typical speed while the count ran.
	LeastSeconds  float64 `json:"least_cpu_seconds,omitempty"`
	MedianSeconds float64 `json:"median_cpu_seconds,omitempty"`
}

// Report returns what m has recorded so far.
func (m *Meter) Report() Metered {
	m.mu.Lock()
	defer m.mu.Unlock()
	r := Metered{Work: m.work, Tasks: m.tasks, PriceRuns: len(m.prices)}
	if len(m.prices) == 0 {
		return r
	}
	least := m.prices[0]
	costs := make([]float64, len(m.prices))
	for i, p := range m.prices {
		least = least.Least(p)
		costs[i] = p.Cost(m.work).Seconds()
	}
	slices.Sort(costs)
	r.Prices = &least
	r.LeastSeconds = least.Cost(m.work).Seconds()
	r.MedianSeconds = costs[len(costs)/2]
	return r
}
