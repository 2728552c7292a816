package client

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

// results counts every task of p, for tests that write records by hand.
func results(t testing.TB, p *queens.Plan) []count.Result {
	t.Helper()
	rs := make([]count.Result, p.Len())
	_, err := queens.Count(context.Background(), p, queens.Execution{Workers: 1}, count.All(p.Len()), queens.Options{
		OnDone: func(id int, r count.Result) error { rs[id] = r; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func record(info queue.JobInfo, task int, r count.Result, kind, worker string, seconds float64) queue.Record {
	rec := queue.Record{Job: info.ID, Hash: info.Hash, Algorithm: info.Algorithm, Task: task, Count: r.Count, Nodes: r.Nodes,
		Kind: kind, Worker: worker, Program: "test", Seconds: seconds}
	rec.Seal()
	return rec
}

func jobInfo(p *queens.Plan, verify float64) queue.JobInfo {
	return queue.JobInfo{ID: p.ID(), N: p.N, Method: string(p.Method), Depth: p.Depth, Hash: p.Hash(),
		Algorithm: queens.AlgorithmVersion, Tasks: p.Len(), Verify: verify, Seed: 1}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-6*max(1, math.Abs(b)) }

// Elapsed, rate and ETA come from the server's times of the records and
// reports, and the workers' reported rates; checked here on a clock the
// test sets.
func TestStatusTimes(t *testing.T) {
	p, err := queens.NewPlan(queens.Spec{N: 10})
	if err != nil {
		t.Fatal(err)
	}
	info := jobInfo(p, 0)
	rs := results(t, p)
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	sec := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	c := newCollector(info, &queue.Plan{Queens: p})
	half := p.Len() / 2
	// Worker a counts the first half from t0+10 s to t0+19 s, each task
	// taking 2 s: the first started at t0+8 s.
	for i := range half {
		c.add(record(info, i, rs[i], queue.KindCount, "a", 2), sec(10+9*float64(i)/float64(half)))
	}
	est := p.Estimates()
	var estDone, estAll, nodes float64
	for i, e := range est {
		estAll += float64(e)
		if i < half {
			estDone += float64(e)
			nodes += float64(rs[i].Nodes)
		}
	}
	left := (estAll - estDone) * nodes / estDone
	live := uint64(left / 4)
	reps := []layout.Report{
		{Seen: queue.Seen{ID: "a", Jobs: []queue.JobWork{{Job: info.ID, Held: 2, Running: 1, Nodes: 9000, Live: live, Rate: 1000, Since: 12}}}, At: sec(19.5)},
		{Seen: queue.Seen{ID: "b", Stopped: true, Jobs: []queue.JobWork{{Job: info.ID, Rate: 77}}}, At: sec(19)},
		{Seen: queue.Seen{ID: "c", Jobs: []queue.JobWork{{Job: info.ID, Held: 1, Running: 1, Rate: 5000, Since: 100}}}, At: sec(20 - queue.ActiveWithin.Seconds() - 1)},
		{Seen: queue.Seen{ID: "d", Jobs: []queue.JobWork{{Job: "another-job", Held: 1, Running: 1, Rate: 3000, Since: 100}}}, At: sec(19.9)},
	}
	s := c.status(sec(20), reps)
	// a's report says it started its first task 12 s before t0+19.5 s:
	// earlier than the first record's start (t0+8 s).
	if s.Started == nil || !s.Started.Equal(sec(7.5)) || !near(s.Elapsed, 12.5) || s.Finished != nil {
		t.Errorf("running: started %v, elapsed %v, finished %v; want t0+7.5s, 12.5 s, none", s.Started, s.Elapsed, s.Finished)
	}
	if s.NodesPerSec != 1000 || s.LiveNodes != live || s.Active != 2 || s.Working != 1 {
		t.Errorf("running: %v nodes/s, %d live, %d active, %d working; want a's 1000, %d, a and d, a", s.NodesPerSec, s.LiveNodes, s.Active, s.Working, live)
	}
	wantETA := (left - float64(live)) / 1000
	if s.ETA == nil || !near(*s.ETA, wantETA) {
		t.Errorf("running: ETA %v, want %.3f s", s.ETA, wantETA)
	}
	for _, w := range s.Workers {
		if want := w.ID == "a" || w.ID == "d"; w.Active != want {
			t.Errorf("worker %s: active %v", w.ID, w.Active)
		}
	}
	// Nobody at work: no rate, no ETA, and the clock runs on.
	if s := c.status(sec(100), nil); s.NodesPerSec != 0 || s.ETA != nil || !near(s.Elapsed, 92) {
		t.Errorf("nobody at work: %v nodes/s, ETA %v, elapsed %v; want 0, null, 92 s", s.NodesPerSec, s.ETA, s.Elapsed)
	}

	// The second half comes from b, from t0+30 s to t0+40 s; then a late
	// duplicate, long after: the job finished at t0+40 s.
	for i := half; i < p.Len(); i++ {
		c.add(record(info, i, rs[i], queue.KindCount, "b", 0.5), sec(40-10*float64(p.Len()-1-i)/float64(p.Len()-half)))
	}
	c.add(record(info, 0, rs[0], queue.KindCount, "a", 2), sec(500))
	s = c.status(sec(1000), reps)
	if !s.Complete || s.Finished == nil || !s.Finished.Equal(sec(40)) || !s.Started.Equal(sec(8)) || !near(s.Elapsed, 32) {
		t.Fatalf("complete: %v, started %v, finished %v, elapsed %v; want t0+8s to t0+40s, 32 s", s.Complete, s.Started, s.Finished, s.Elapsed)
	}
	n, _ := s.Nodes.Big().Float64()
	if !near(s.NodesPerSec, n/32) || s.ETA == nil || *s.ETA != 0 || s.Duplicates != 1 {
		t.Errorf("complete: %v nodes/s, ETA %v, %d duplicates; want %v (nodes over elapsed), 0, 1", s.NodesPerSec, s.ETA, s.Duplicates, n/32)
	}
}

// A verification that no active worker may do (each counted the task) is
// stalled: "unverified: no second worker".
func TestStatusStalledVerification(t *testing.T) {
	p, _ := queens.NewPlan(queens.Spec{N: 7})
	info := jobInfo(p, 100)
	rs := results(t, p)
	c := newCollector(info, &queue.Plan{Queens: p})
	t0 := time.Now()
	for i := range p.Len() {
		c.add(record(info, i, rs[i], queue.KindCount, "a", 0.1), t0)
	}
	alone := []layout.Report{{Seen: queue.Seen{ID: "a"}, At: t0}}
	s := c.status(t0, alone)
	if s.Verify.Selected != p.Len() || s.Verify.Pending != p.Len() || s.Verify.Stalled != p.Len() || s.Complete || s.ETA != nil {
		t.Fatalf("one worker: verify %+v, complete %v, ETA %v; want every task stalled", s.Verify, s.Complete, s.ETA)
	}
	if got := Summary(s); got != "6/6 tasks (100.0%), 0/6 verified (6 unverified: no second worker)" {
		t.Errorf("summary %q", got)
	}
	if s := c.status(t0, nil); s.Verify.Stalled != p.Len() || !strings.HasSuffix(Summary(s), ", no worker active: start one with nqueens work") {
		t.Errorf("no worker: %d stalled, summary %q", s.Verify.Stalled, Summary(s))
	}
	two := append(alone, layout.Report{Seen: queue.Seen{ID: "b", Jobs: []queue.JobWork{{Job: info.ID, Rate: 100}}}, At: t0})
	if s := c.status(t0, two); s.Verify.Stalled != 0 || s.ETA == nil {
		t.Errorf("a second worker: %d stalled, ETA %v", s.Verify.Stalled, s.ETA)
	}
	c.add(record(info, 0, rs[0], queue.KindVerify, "b", 0.1), t0.Add(time.Second))
	if s := c.status(t0, alone); s.Verify.Verified != 1 || s.Verify.Stalled != p.Len()-1 {
		t.Errorf("one verified: %+v", s.Verify)
	}
}

// The elapsed time of a job does not depend on the workers' clocks, nor
// on records that come after the job was done (a duplicate). A worker's
// clock 219.8 s ahead of another's used to make a seconds-long job take
// 219.8 s.
func TestStatusIgnoresWorkerClocks(t *testing.T) {
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), Auth{})
	sub := submit(t, c, queens.Spec{N: 8}, SubmitOptions{})
	p, _ := queens.NewPlan(queens.Spec{N: 8})
	rs := results(t, p)
	ctx := context.Background()
	began := time.Now()
	pub := func(task int, worker string, skew time.Duration) {
		r := rs[task]
		rec := queue.Record{Job: sub.Job, Hash: sub.Info.Hash, Algorithm: sub.Info.Algorithm, Task: task, Count: r.Count, Nodes: r.Nodes,
			Kind: queue.KindCount, Worker: worker, Program: "test", Seconds: 0.01, Time: time.Now().Add(skew).UTC()}
		rec.Seal()
		b, _ := json.Marshal(rec)
		if _, err := c.js.Publish(ctx, layout.Subject(layout.ResultPrefix, sub.Job, task), b); err != nil {
			t.Fatal(err)
		}
	}
	for i := range p.Len() {
		if i%2 == 0 {
			pub(i, "slow-clock", 0)
		} else {
			pub(i, "fast-clock", 219800*time.Millisecond)
		}
	}
	took := time.Since(began).Seconds()
	time.Sleep(1500 * time.Millisecond)
	pub(0, "slow-clock", 0) // a duplicate, after the job was done
	s := status(t, c, sub.Job)
	exact(t, s)
	if s.Elapsed <= 0 || s.Elapsed > took+0.5 {
		t.Errorf("elapsed %.3f s for records published within %.3f s", s.Elapsed, took)
	}
	if n, _ := s.Nodes.Big().Float64(); !near(s.NodesPerSec, n/s.Elapsed) {
		t.Errorf("%v nodes/s, want nodes over elapsed (%v)", s.NodesPerSec, n/s.Elapsed)
	}
}

// A worker's report is a second old at most: one that took its first
// task of the job after its last report is on the job once it has
// stored a result of it, until the job is counted.
func TestStatusWorkingBeforeReport(t *testing.T) {
	p, err := queens.NewPlan(queens.Spec{N: 10})
	if err != nil {
		t.Fatal(err)
	}
	info := jobInfo(p, 0)
	rs := results(t, p)
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c := newCollector(info, &queue.Plan{Queens: p})
	reps := []layout.Report{{Seen: queue.Seen{ID: "e"}, At: t0}, {Seen: queue.Seen{ID: "f"}, At: t0}}
	if s := c.status(t0, reps); s.Active != 2 || s.Working != 0 {
		t.Errorf("before any result: %d active, %d working; want 2, 0", s.Active, s.Working)
	}
	c.add(record(info, 0, rs[0], queue.KindCount, "e", 0.1), t0.Add(300*time.Millisecond))
	if s := c.status(t0.Add(400*time.Millisecond), reps); s.Working != 1 {
		t.Errorf("e stored a result after its report: %d working, want 1", s.Working)
	}
	for i := 1; i < p.Len(); i++ {
		c.add(record(info, i, rs[i], queue.KindCount, "e", 0.1), t0.Add(500*time.Millisecond))
	}
	if s := c.status(t0.Add(600*time.Millisecond), reps); !s.Complete || s.Working != 0 {
		t.Errorf("counted: complete %v, %d working; want true, 0", s.Complete, s.Working)
	}
	// A report from before the last results still shows tasks held.
	held := []layout.Report{{Seen: queue.Seen{ID: "e", Jobs: []queue.JobWork{{Job: info.ID, Held: 1, Running: 1}}}, At: t0.Add(450 * time.Millisecond)}}
	if s := c.status(t0.Add(600*time.Millisecond), held); !s.Complete || s.Working != 0 || s.Active != 1 {
		t.Errorf("counted, an older report: complete %v, %d working, %d active; want true, 0, 1", s.Complete, s.Working, s.Active)
	}
}
