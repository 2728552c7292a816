package job

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
)

// Progress is a snapshot of how far a count is.
type Progress struct {
	// Tasks is the number of tasks of the count (a shard's, or the whole
	// plan's); Done how many are finished, Resumed included (those were
	// finished by an earlier run and read from its journal).
	Tasks, Done, Resumed int
	// Fraction is the share of the estimated work that is done, Resumed
	// included, from 0 to 1. Tasks differ in size by orders of magnitude,
	// so this is weighted by each task's estimated cost, not Done/Tasks.
	Fraction float64
	// Nodes counts the search nodes visited since Start: by the tasks
	// finished, and so far by the running ones (see Tracker.Partial).
	Nodes count.Uint128
	// NodesPerSec is Nodes over Elapsed.
	NodesPerSec float64
	// Elapsed is the time since Start (zero before).
	Elapsed time.Duration
	// ETA estimates the time left, from the rate at which estimated work
	// was done since Start; it is negative when unknown (nothing finished
	// yet) and zero when every task is done.
	ETA time.Duration
}

// MarshalJSON writes durations in seconds: elapsed_seconds, and
// eta_seconds (null when unknown).
func (p Progress) MarshalJSON() ([]byte, error) {
	var eta *float64
	if p.ETA >= 0 {
		s := p.ETA.Seconds()
		eta = &s
	}
	return json.Marshal(struct {
		Tasks       int           `json:"tasks"`
		Done        int           `json:"done"`
		Resumed     int           `json:"resumed"`
		Fraction    float64       `json:"fraction"`
		Nodes       count.Uint128 `json:"nodes"`
		NodesPerSec float64       `json:"nodes_per_second"`
		Elapsed     float64       `json:"elapsed_seconds"`
		ETA         *float64      `json:"eta_seconds"`
	}{p.Tasks, p.Done, p.Resumed, p.Fraction, p.Nodes, p.NodesPerSec, p.Elapsed.Seconds(), eta})
}

// Tracker accounts for the progress of counting a set of a plan's tasks.
// Feed it finished tasks (Resumed, Done) from anywhere, for instance a
// stream of results from queue workers, and read Progress from any
// goroutine. Its methods are safe for concurrent use.
type Tracker struct {
	now func() time.Time // time.Now; tests replace it

	mu       sync.Mutex
	est      []uint64 // estimated cost per task id of the plan
	mine     []bool   // the ids tracked
	done     []bool   // finished ids
	estTotal uint64   // estimated work of the tracked tasks
	p        Progress
	estDone  uint64 // estimated work finished, resumed included
	estNew   uint64 // estimated work finished since Start
	live     map[int]uint64
	liveSum  uint64 // sum of live (a few running tasks: no overflow)
	start    time.Time
}

// NewTracker tracks the tasks ids of p (nil means all of them).
func NewTracker(p *queens.Plan, ids []int) *Tracker {
	t := &Tracker{now: time.Now, est: p.Estimates(), mine: make([]bool, p.Len()), done: make([]bool, p.Len())}
	if ids == nil {
		ids = count.All(p.Len())
	}
	for _, id := range ids {
		if id >= 0 && id < len(t.mine) && !t.mine[id] {
			t.mine[id] = true
			t.estTotal += t.est[id]
			t.p.Tasks++
		}
	}
	return t
}

// Start starts the clock of the rate, Elapsed and the ETA; tasks resumed
// before count as done but not towards the rate.
func (t *Tracker) Start() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.start = t.now()
}

// Resumed records a task finished by an earlier run. It reports whether
// the task was tracked and not already finished.
func (t *Tracker) Resumed(id int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.finish(id) {
		return false
	}
	t.p.Resumed++
	return true
}

// Done records a task finished now. It reports whether the task was
// tracked and not already finished: a task counted twice (a queue may hand
// it out again) counts once.
func (t *Tracker) Done(id int, r count.Result) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.finish(id) {
		return false
	}
	t.estNew += t.est[id]
	t.p.Nodes = t.p.Nodes.Add64(r.Nodes)
	if n, ok := t.live[id]; ok {
		t.liveSum -= n
		delete(t.live, id)
	}
	return true
}

// Partial records that the running task id has visited nodes search
// nodes so far (a running total, not an increment), so that the rate moves
// while tasks that take hours run. When the task finishes, Done replaces
// its partial count with the final one; the partial counts of tasks
// abandoned by a cancelled run stay in Nodes, as work that was done.
func (t *Tracker) Partial(id int, nodes uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if id < 0 || id >= len(t.mine) || !t.mine[id] || t.done[id] {
		return
	}
	if t.live == nil {
		t.live = map[int]uint64{}
	}
	t.liveSum += nodes - t.live[id]
	t.live[id] = nodes
}

func (t *Tracker) finish(id int) bool {
	if id < 0 || id >= len(t.mine) || !t.mine[id] || t.done[id] {
		return false
	}
	t.done[id] = true
	t.p.Done++
	t.estDone += t.est[id]
	return true
}

// Progress returns a snapshot.
func (t *Tracker) Progress() Progress {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.p
	p.Nodes = p.Nodes.Add64(t.liveSum)
	p.Fraction = 1
	if t.estTotal > 0 {
		p.Fraction = float64(t.estDone) / float64(t.estTotal)
	}
	p.ETA = -1
	if p.Done == p.Tasks {
		p.ETA = 0
	}
	if t.start.IsZero() {
		return p
	}
	p.Elapsed = t.now().Sub(t.start)
	if s := p.Elapsed.Seconds(); s > 0 {
		nodes, _ := p.Nodes.Big().Float64()
		p.NodesPerSec = nodes / s
	}
	if t.estNew > 0 && p.Done < p.Tasks {
		p.ETA = time.Duration(float64(p.Elapsed) * float64(t.estTotal-t.estDone) / float64(t.estNew))
	}
	return p
}
