package client

import (
	"fmt"
	"slices"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens/job"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
	"github.com/nqcount/nqcount/count/shard"
)

// collector checks a job's records as they are read and keeps what
// Status reports. It needs no server: tests and Export feed it directly.
type collector struct {
	info   queue.JobInfo
	plan   *queue.Plan
	chosen []bool // the tasks chosen for verification
	est    []uint64
	estSum uint64
	recs   [][]queue.Record // accepted records per task
	ats    [][]time.Time    // when the server stored each (zero when unknown)
	// done counts the tasks with an accepted record: a reader's hint that
	// the job may be complete (status judges the records).
	done      int
	anyRecord []bool

	refused    []Refusal
	distrusted []queue.Distrust      // named in failure records (KindDistrust)
	failures   map[int]queue.Failure // the last failure per task
	lost       map[int]uint64        // tasks the server gave up on: deliveries
	duplicates int
	byWorker   map[string]int
	lastAt     map[string]time.Time // when each worker's last record was stored

	// Times are the server's: when it stored each record.
	start time.Time // the earliest start of an accepted record (its time less its counting time)
}

func newCollector(info queue.JobInfo, p *queue.Plan) *collector {
	c := &collector{
		info: info, plan: p, est: p.Estimates(), chosen: info.Chosen(),
		recs: make([][]queue.Record, p.Len()), ats: make([][]time.Time, p.Len()), anyRecord: make([]bool, p.Len()),
		failures: map[int]queue.Failure{}, lost: map[int]uint64{}, byWorker: map[string]int{},
		lastAt: map[string]time.Time{},
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
	Task    int            `json:"task"`
	Results []queue.Record `json:"results"`
}

// add takes one record, which the server stored at time at (zero when
// unknown: an export read back).
func (c *collector) add(r queue.Record, at time.Time) {
	if err := r.Check(c.info.ID, c.plan); err != nil {
		c.refused = append(c.refused, Refusal{Task: r.Task, Worker: queue.CleanWorkerID(r.Worker), Reason: err.Error()})
		return
	}
	rs := c.recs[r.Task]
	for _, o := range rs {
		if o.Count == r.Count && o.Nodes == r.Nodes && o.Kind == r.Kind && o.Worker == r.Worker {
			c.duplicates++
		}
	}
	c.recs[r.Task] = append(rs, r)
	c.ats[r.Task] = append(c.ats[r.Task], at)
	c.byWorker[r.Worker]++
	if !c.anyRecord[r.Task] {
		c.anyRecord[r.Task] = true
		c.done++
	}
	if at.IsZero() {
		return
	}
	c.lastAt[r.Worker] = later(c.lastAt[r.Worker], at)
	// The worker measured its counting time; the server's clock says
	// when it ended. Workers' own clocks are never compared.
	start := at.Add(-time.Duration(max(r.Seconds, 0) * float64(time.Second)))
	if c.start.IsZero() || start.Before(c.start) {
		c.start = start
	}
}

// fail takes one failure record; a requeue marker clears the task's
// failures before it.
func (c *collector) fail(f queue.Failure) {
	if f.Kind == queue.KindDistrust {
		if d := f.Distrust; d != nil && queue.CheckWorkerID(d.Worker) == nil && !queue.Distrusts(c.distrusted, d.Worker) && d.Task >= 0 && d.Task < len(c.recs) {
			d.Agree = slices.DeleteFunc(slices.Clone(d.Agree), func(w string) bool { return queue.CheckWorkerID(w) != nil })
			c.distrusted = append(c.distrusted, *d)
		}
		return
	}
	f.Worker, f.Error, f.Kind = queue.CleanWorkerID(f.Worker), queue.CleanText(f.Error), queue.CleanText(queue.Clip(f.Kind, 32))
	if f.Requeued {
		delete(c.failures, f.Task)
		return
	}
	if f.Task >= 0 && f.Task < len(c.recs) {
		if old, ok := c.failures[f.Task]; !ok || old.Delivery <= f.Delivery || f.SetAside {
			c.failures[f.Task] = f
		}
	}
}

// VerifyStatus tells how far verification is.
type VerifyStatus struct {
	Percent  float64 `json:"percent"`
	Seed     uint64  `json:"seed"`
	Selected int     `json:"selected"` // tasks chosen
	Verified int     `json:"verified"` // counted again by another worker, agreeing
	Pending  int     `json:"pending"`
	// Stalled counts the pending tasks, counted already, that no active
	// worker may count again: every active worker counted them, or none
	// is active ("unverified: no second worker").
	Stalled int `json:"stalled"`
}

// Status is a job's state, as nqueens status prints it. Its times are the
// server's: workers' clocks need not agree.
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
	// PlanTasks is the number of the plan's tasks, which Units (the
	// grouping, JobInfo.Units) groups into Tasks; 0 for a job without
	// units.
	PlanTasks int `json:"plan_tasks,omitempty"`
	Units     int `json:"units,omitempty"`
	// Nodes sums the counted tasks' nodes, each task once.
	Nodes count.Uint128 `json:"nodes"`
	// Elapsed runs from the start of the first task counted to the
	// record that completed the job, or to now while it runs, in
	// seconds; Started and Finished (once complete) are those times.
	Elapsed  float64    `json:"elapsed_seconds"`
	Started  *time.Time `json:"started,omitempty"`
	Finished *time.Time `json:"finished,omitempty"`
	// NodesPerSec is, while the job runs, the rate of its active workers
	// over the last half-minute, their running tasks' progress included
	// (0 when none is at work); once complete, Nodes over Elapsed.
	NodesPerSec float64 `json:"nodes_per_second"`
	// LiveNodes counts the nodes visited so far by the job's running
	// tasks.
	LiveNodes uint64 `json:"live_nodes"`
	// ETA in seconds: the work left (counts and verifications, estimated
	// from the plan's estimates scaled by the nodes of the tasks done) at
	// NodesPerSec; null when unknown (nothing done yet, or nobody at
	// work), 0 when complete.
	ETA *float64 `json:"eta_seconds"`
	// Workers lists the workers that reported within the last minute;
	// Active counts those that reported within a few seconds and have
	// not stopped, Working the active ones holding this job's tasks.
	Workers []WorkerStatus `json:"workers"`
	Active  int            `json:"active_workers"`
	Working int            `json:"working_workers"`
	// Contributors counts the workers with accepted records of the job.
	Contributors int          `json:"contributors"`
	Verify       VerifyStatus `json:"verify"`
	// Conflicts are tasks with different results not settled yet (see
	// Distrusted): no total is given while there are any. Unsettled
	// counts those of them that no active worker can count again (every
	// active one has a result of them already): no quorum can be had
	// until another worker comes.
	Conflicts []Conflict `json:"conflicts,omitempty"`
	Unsettled int        `json:"unsettled"`
	// Distrusted names the workers outvoted on a task of the job: none of
	// their results is taken, and the tasks they counted are counted
	// again by others.
	Distrusted []queue.Distrust `json:"distrusted,omitempty"`
	// Failed lists tasks whose last count failed, or that were set
	// aside, and have no result.
	Failed []queue.Failure `json:"failed,omitempty"`
	// SetAside counts the tasks in Failed that will not be handed out
	// again (nqueens requeue puts them back); Stuck says that nothing
	// more can finish: every task still to count or verify is set aside
	// or waits for a second worker, and at least one is set aside.
	SetAside int  `json:"set_aside"`
	Stuck    bool `json:"stuck"`
	// Cancelled is when the job was cancelled (nqueens cancel), if it
	// was.
	Cancelled *time.Time `json:"cancelled,omitempty"`
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
	queue.Seen
	// Ago is the time since the report, in seconds.
	Ago float64 `json:"seen_seconds_ago"`
	// Active: reported recently and not stopped.
	Active bool `json:"active"`
	// Results counts the records of this job from this worker.
	Results int `json:"results"`
	// Work is the worker's work on this job, if it reported any.
	Work *queue.JobWork `json:"job_work,omitempty"`
	// Distrusted: outvoted on a task of this job (see Status.Distrusted).
	Distrusted bool `json:"distrusted,omitempty"`
}

// Assembled returns the checked total of a complete job, or nil.
func (s *Status) Assembled() *job.Total { return s.assembled }

// status builds the Status at time now, by the server's clock, from the
// records read and the workers' reports.
func (c *collector) status(now time.Time, reps []layout.Report) *Status {
	i := c.info
	verdicts, distrusted := c.judgeAll()
	s := &Status{
		Job: i.ID, N: i.N, Method: i.Method, Depth: i.Depth, Hash: i.Hash, Algorithm: i.Algorithm,
		Tasks: len(c.recs), Units: c.plan.Units, Duplicates: c.duplicates, Refused: c.refused,
		Submitted: i.Submitted, Verify: VerifyStatus{Percent: i.Verify, Seed: i.Seed}, Contributors: len(c.byWorker),
		Cancelled: i.Cancelled, Distrusted: distrusted,
	}
	if c.plan.Units > 0 {
		s.PlanTasks = c.plan.Queens.Len()
	}
	var estDone uint64
	for id, v := range verdicts {
		if v.standing != nil {
			s.Done++
			estDone += c.est[id]
			s.Nodes = s.Nodes.Add64(v.standing.nodes)
		}
	}
	s.Fraction = 1
	if c.estSum > 0 {
		s.Fraction = float64(estDone) / float64(c.estSum)
	}
	var active []layout.LiveWorker // the active workers, the distrusted left out
	start := c.start
	for _, r := range reps {
		ws := WorkerStatus{Seen: r.Seen, Ago: max(now.Sub(r.At).Seconds(), 0), Results: c.byWorker[r.ID], Work: r.Job(i.ID)}
		ws.Active = r.Active(now)
		ws.Distrusted = queue.Distrusts(distrusted, r.ID)
		if ws.Active {
			if !ws.Distrusted {
				active = append(active, layout.LiveWorker{ID: r.ID, Memory: r.Memory})
			}
			s.Active++
			// A worker reports once a second: one whose report
			// came before it took the job's first tasks is on the
			// job if it stored a result since.
			if jw := ws.Work; jw != nil && jw.Held > 0 || s.Done < len(c.recs) && c.lastAt[r.ID].After(r.At) {
				s.Working++
			}
			if jw := ws.Work; jw != nil {
				s.NodesPerSec += jw.Rate
				s.LiveNodes += jw.Live
				// A task that runs long leaves no record for a
				// while: the job started when its worker began.
				if t := r.At.Add(-time.Duration(jw.Since * float64(time.Second))); jw.Running > 0 && (start.IsZero() || t.Before(start)) {
					start = t
				}
			}
		}
		s.Workers = append(s.Workers, ws)
	}
	// Work left, in nodes: tasks not counted, by their estimates scaled
	// to the nodes of those counted, and tasks chosen for verification
	// not verified yet.
	var scale float64
	if estDone > 0 {
		n, _ := s.Nodes.Big().Float64()
		scale = n / float64(estDone)
	}
	left := float64(c.estSum-estDone) * scale
	end := time.Time{}    // when the last needed record came
	open, blocked := 0, 0 // tasks still to count or verify; those of them nothing will finish
	for id, v := range verdicts {
		counted := v.standing != nil
		if v.conflict {
			s.Conflicts = append(s.Conflicts, Conflict{Task: id, Results: c.recs[id]})
			if !c.canCount(v, active) {
				s.Unsettled++
			}
		}
		if counted {
			end = later(end, v.standing.first)
		}
		chosen := c.chosen[id]
		verified := chosen && v.agree() >= 2
		if chosen {
			s.Verify.Selected++
			if verified {
				s.Verify.Verified++
				end = later(end, v.standing.second)
			} else if counted {
				left += float64(v.standing.nodes)
				if !c.canCount(v, active) {
					s.Verify.Stalled++
				}
			} else {
				left += float64(c.est[id]) * scale
			}
		}
		f, failed := c.failures[id]
		if d, ok := c.lost[id]; ok && !counted {
			f, failed = queue.Failure{Job: i.ID, Task: id, Kind: queue.KindCount, Error: fmt.Sprintf("handed out %d times without an answer: its workers died or lost the server each time", d), Delivery: d, SetAside: true}, true
		}
		if failed && (f.Kind == queue.KindCount && !counted || f.Kind == queue.KindVerify && chosen && !verified) {
			s.Failed = append(s.Failed, f)
			if f.SetAside {
				s.SetAside++
			}
		}
		switch {
		case !counted:
			open++
			if failed && f.SetAside && f.Kind == queue.KindCount {
				blocked++
			}
		case chosen && !verified:
			open++
			if failed && f.SetAside && f.Kind == queue.KindVerify {
				blocked++
			}
		}
	}
	s.Stuck = blocked > 0 && blocked+s.Verify.Stalled >= open
	s.Verify.Pending = s.Verify.Selected - s.Verify.Verified
	s.Complete = s.Done == s.Tasks && s.Verify.Pending == 0 && len(s.Conflicts) == 0
	if s.Complete {
		// Reports a second or two old may still show the job's last
		// tasks held: nobody works on a complete job.
		s.Working = 0
	}
	if !start.IsZero() {
		s.Started = &start
		if s.Complete && !end.IsZero() {
			s.Finished = &end
			now = end
		}
		s.Elapsed = max(now.Sub(start).Seconds(), 0)
	}
	switch {
	case s.Finished != nil:
		if s.Elapsed > 0 {
			n, _ := s.Nodes.Big().Float64()
			s.NodesPerSec = n / s.Elapsed
		}
		eta := 0.0
		s.ETA = &eta
	case s.NodesPerSec > 0 && estDone > 0:
		eta := max(left-float64(s.LiveNodes), 0) / s.NodesPerSec
		s.ETA = &eta
	}
	if s.Complete {
		t, err := job.AssembleUnits(c.plan.Queens, c.plan.Len(), standingResults(verdicts), true)
		if err != nil { // cannot happen: every task has a standing result
			s.Complete = false
			s.Failed = append(s.Failed, queue.Failure{Job: i.ID, Task: -1, Error: err.Error()})
			return s
		}
		s.assembled = t
		s.Total, s.Unique, s.Check = &t.Total, t.Unique, t.Check
	}
	return s
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// canCount reports whether one of the active workers (the distrusted
// left out) has no result of the task and can count it in its memory, and
// so may count it again.
func (c *collector) canCount(v verdict, active []layout.LiveWorker) bool {
	for _, w := range active {
		if !v.has(w.ID) && w.CanCount(c.plan) {
			return true
		}
	}
	return false
}

// standingResults returns the standing result of every task that has one as a
// shard.TaskResult, in task order, for job.Assemble (which checks them
// again).
func standingResults(verdicts []verdict) []shard.TaskResult {
	var out []shard.TaskResult
	for id, v := range verdicts {
		if v.standing != nil {
			out = append(out, shard.TaskResult{ID: id, Count: v.standing.count, Nodes: v.standing.nodes})
		}
	}
	return out
}
