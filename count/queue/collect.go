package queue

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens/job"
	"github.com/nqcount/nqcount/count/shard"
)

// collector checks a job's records as they are read and keeps what
// Status reports. It needs no server: tests and Export feed it directly.
type collector struct {
	info    JobInfo
	plan    *job.Plan
	est     []uint64
	estSum  uint64
	recs    [][]Record // accepted records per task
	counted []bool     // a count record accepted
	done    int
	estDone uint64
	nodes   count.Uint128

	refused    []Refusal
	failures   map[int]Failure // the last failure per task
	lost       map[int]uint64  // tasks the server gave up on: deliveries
	duplicates int
	conflicts  map[int]bool
	first      time.Time // the earliest start of a counted task
	last       time.Time // the latest end
	byWorker   map[string]int
}

func newCollector(info JobInfo, p *job.Plan) *collector {
	c := &collector{
		info: info, plan: p, est: p.Estimates(),
		recs: make([][]Record, p.Len()), counted: make([]bool, p.Len()),
		failures: map[int]Failure{}, lost: map[int]uint64{}, conflicts: map[int]bool{}, byWorker: map[string]int{},
	}
	for _, e := range c.est {
		c.estSum += e
	}
	return c
}

// Refusal is a record that was not accepted, and why.
type Refusal struct {
	Task   int    `json:"task"`
	Worker string `json:"worker"`
	Reason string `json:"reason"`
}

// Conflict is a task with different results: at least one is wrong.
type Conflict struct {
	Task    int      `json:"task"`
	Results []Record `json:"results"`
}

// add takes one record.
func (c *collector) add(r Record) {
	if err := r.Check(c.info.ID, c.plan); err != nil {
		c.refused = append(c.refused, Refusal{Task: r.Task, Worker: r.Worker, Reason: err.Error()})
		return
	}
	rs := c.recs[r.Task]
	for _, o := range rs {
		if o.Count != r.Count || o.Nodes != r.Nodes {
			c.conflicts[r.Task] = true
		} else if o.Kind == r.Kind && o.Worker == r.Worker {
			c.duplicates++
		}
	}
	c.recs[r.Task] = append(rs, r)
	c.byWorker[r.Worker]++
	if r.Kind == KindCount && !c.counted[r.Task] {
		c.counted[r.Task] = true
		c.done++
		c.estDone += c.est[r.Task]
		c.nodes = c.nodes.Add64(r.Nodes)
	}
	start := r.Time.Add(-time.Duration(r.Seconds * float64(time.Second)))
	if c.first.IsZero() || start.Before(c.first) {
		c.first = start
	}
	if r.Time.After(c.last) {
		c.last = r.Time
	}
}

// fail takes one failure record.
func (c *collector) fail(f Failure) {
	if f.Task >= 0 && f.Task < len(c.recs) {
		if old, ok := c.failures[f.Task]; !ok || old.Delivery <= f.Delivery || f.SetAside {
			c.failures[f.Task] = f
		}
	}
}

// verified reports whether task id, chosen for verification, has a
// verify record from another worker than one that counted it, agreeing.
func (c *collector) verified(id int) bool {
	for _, v := range c.recs[id] {
		if v.Kind != KindVerify {
			continue
		}
		for _, o := range c.recs[id] {
			if o.Kind == KindCount && o.Worker != v.Worker && o.Count == v.Count && o.Nodes == v.Nodes {
				return true
			}
		}
	}
	return false
}

// VerifyStatus tells how far verification is.
type VerifyStatus struct {
	Percent  float64 `json:"percent"`
	Seed     uint64  `json:"seed"`
	Selected int     `json:"selected"` // tasks chosen
	Verified int     `json:"verified"` // counted again by another worker, agreeing
	Pending  int     `json:"pending"`
}

// Status is a job's state, as nqueens status prints it.
type Status struct {
	Job       string `json:"job"`
	N         int    `json:"n"`
	Method    string `json:"method"`
	Depth     int    `json:"depth"`
	Hash      string `json:"hash"`
	Algorithm int    `json:"algorithm"`
	// Tasks is the number of tasks, Done those with an accepted count;
	// Fraction is the share of the estimated work done.
	Tasks    int     `json:"tasks"`
	Done     int     `json:"done"`
	Fraction float64 `json:"fraction"`
	// Nodes sums the counted tasks' nodes; the rate is over the time
	// since the first task started (until the last finished, when
	// complete).
	Nodes       count.Uint128 `json:"nodes"`
	NodesPerSec float64       `json:"nodes_per_second"`
	Elapsed     float64       `json:"elapsed_seconds"`
	// ETA in seconds, null when unknown, 0 when done.
	ETA *float64 `json:"eta_seconds"`
	// Workers lists the workers that reported within the last minute.
	Workers []WorkerStatus `json:"workers"`
	Verify  VerifyStatus   `json:"verify"`
	// Conflicts are tasks with different results: no total is given
	// while there are any.
	Conflicts []Conflict `json:"conflicts,omitempty"`
	// Failed lists tasks whose last count failed, or that were set
	// aside, and have no result.
	Failed []Failure `json:"failed,omitempty"`
	// Refused lists records that were not accepted.
	Refused []Refusal `json:"refused,omitempty"`
	// Duplicates counts records that repeat one accepted before.
	Duplicates int `json:"duplicates"`
	// Complete: every task counted, every chosen task verified, no
	// conflict. Then Total (and Unique) are the exact answer, checked
	// against the OEIS where known.
	Complete bool           `json:"complete"`
	Total    *count.Uint128 `json:"total,omitempty"`
	Unique   *count.Uint128 `json:"unique,omitempty"`
	job.Check
	// Submitted is when the job was submitted.
	Submitted time.Time `json:"submitted"`

	assembled *job.Total
}

// WorkerStatus is a worker's last report.
type WorkerStatus struct {
	Seen
	// Ago is the time since the report, in seconds.
	Ago float64 `json:"seen_seconds_ago"`
	// Active: reported recently and not stopped.
	Active bool `json:"active"`
	// Results counts the records of this job from this worker.
	Results int `json:"results"`
}

// Assembled returns the checked total of a complete job, or nil.
func (s *Status) Assembled() *job.Total { return s.assembled }

// status builds the Status at time now.
func (c *collector) status(now time.Time, seen []Seen) *Status {
	i := c.info
	s := &Status{
		Job: i.ID, N: i.N, Method: i.Method, Depth: i.Depth, Hash: i.Hash, Algorithm: i.Algorithm,
		Tasks: len(c.recs), Done: c.done, Nodes: c.nodes, Duplicates: c.duplicates, Refused: c.refused,
		Submitted: i.Submitted, Verify: VerifyStatus{Percent: i.Verify, Seed: i.Seed},
	}
	s.Fraction = 1
	if c.estSum > 0 {
		s.Fraction = float64(c.estDone) / float64(c.estSum)
	}
	for _, id := range slices.Sorted(maps.Keys(c.conflicts)) {
		s.Conflicts = append(s.Conflicts, Conflict{Task: id, Results: c.recs[id]})
	}
	for id := range c.recs {
		chosen := Verified(i.Seed, id, i.Verify)
		if chosen {
			s.Verify.Selected++
			if c.verified(id) {
				s.Verify.Verified++
			}
		}
		f, failed := c.failures[id]
		if d, ok := c.lost[id]; ok && !c.counted[id] {
			f, failed = Failure{Job: i.ID, Task: id, Kind: KindCount, Error: fmt.Sprintf("handed out %d times without an answer: its workers died or lost the server each time", d), Delivery: d, SetAside: true}, true
		}
		if failed && (f.Kind == KindCount && !c.counted[id] || f.Kind == KindVerify && chosen && !c.verified(id)) {
			s.Failed = append(s.Failed, f)
		}
	}
	s.Verify.Pending = s.Verify.Selected - s.Verify.Verified
	end := now
	s.Complete = s.Done == s.Tasks && s.Verify.Pending == 0 && len(s.Conflicts) == 0
	if s.Done == s.Tasks {
		end = c.last
	}
	if !c.first.IsZero() {
		el := end.Sub(c.first)
		s.Elapsed = el.Seconds()
		if s.Elapsed > 0 {
			n, _ := c.nodes.Big().Float64()
			s.NodesPerSec = n / s.Elapsed
		}
		if s.Fraction > 0 {
			eta := s.Elapsed * (1 - s.Fraction) / s.Fraction
			if s.Done == s.Tasks {
				eta = 0
			}
			s.ETA = &eta
		}
	}
	for _, w := range seen {
		ws := WorkerStatus{Seen: w, Ago: now.Sub(w.Time).Seconds(), Results: c.byWorker[w.ID]}
		ws.Active = !w.Stopped && ws.Ago < 3*reportEvery.Seconds()
		s.Workers = append(s.Workers, ws)
	}
	if s.Complete {
		t, err := job.Assemble(c.plan, c.results(), true)
		if err != nil { // cannot happen: every task has agreeing results
			s.Complete = false
			s.Failed = append(s.Failed, Failure{Job: i.ID, Task: -1, Error: err.Error()})
			return s
		}
		s.assembled = t
		s.Total, s.Unique, s.Check = &t.Total, t.Unique, t.Check
	}
	return s
}

// results returns every accepted count record as a shard.TaskResult, in
// task order, for job.Assemble (which checks them again).
func (c *collector) results() []shard.TaskResult {
	var out []shard.TaskResult
	for id, rs := range c.recs {
		for _, r := range rs {
			if r.Kind == KindCount {
				out = append(out, shard.TaskResult{ID: id, Count: r.Count, Nodes: r.Nodes})
			}
		}
	}
	return out
}
