package queue

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
)

// The units cut the plan's largest-first order into consecutive runs:
// every task once, in that order; each unit as small as its target
// allows (it reaches the target with its last task and not before); the
// same units on every call.
func TestGroup(t *testing.T) {
	for _, s := range []queens.Spec{
		{N: 10, Method: queens.Constellations}, {N: 13, Method: queens.Constellations},
		{N: 12, Method: queens.Join}, {N: 15, Method: queens.Join},
	} {
		jp, err := queens.NewPlan(s)
		if err != nil {
			t.Fatal(err)
		}
		order := jp.LargestFirst(count.All(jp.Len()))
		est := jp.Estimates()
		var total uint64
		for _, e := range est {
			total += e
		}
		for _, u := range []int{1, 5, 64, jp.Len(), 10 * jp.Len()} {
			p, err := NewPlan(jp, u)
			if err != nil {
				t.Fatal(err)
			}
			var flat []int
			full := max(total/uint64(u), 1)
			least := max(full/16, 1)
			left := total
			for i := range p.Len() {
				ids := p.Tasks(i)
				if len(ids) == 0 {
					t.Fatalf("%+v units %d: unit %d is empty", s, u, i)
				}
				flat = append(flat, ids...)
				target := max(min(full, left/8), least)
				var sum uint64
				for _, id := range ids {
					sum += est[id]
				}
				if sum != p.Estimates()[i] {
					t.Errorf("%+v units %d: unit %d estimated %d, its tasks sum to %d", s, u, i, p.Estimates()[i], sum)
				}
				last := est[ids[len(ids)-1]]
				if i < p.Len()-1 && sum < target || len(ids) > 1 && sum-last >= target {
					t.Errorf("%+v units %d: unit %d of %d tasks sums to %d, target %d", s, u, i, len(ids), sum, target)
				}
				left -= sum
			}
			if !slices.Equal(flat, order) {
				t.Errorf("%+v units %d: the units do not cut the largest-first order", s, u)
			}
			if again, _ := NewPlan(jp, u); !again.grouped() || !slices.EqualFunc(again.units, p.units, slices.Equal) {
				t.Errorf("%+v units %d: another call cut other units", s, u)
			}
			if u == 64 && p.Len() > 120 {
				t.Errorf("%+v: %d units for 64 asked", s, p.Len())
			}
		}
	}
	if _, err := NewPlan(nil, -1); err == nil {
		t.Error("units -1: no error")
	}
}

// A unit's count is the sum of its tasks' counts, for both methods, and
// the units add up to the total; one task per unit is the plan itself.
func TestUnitsCount(t *testing.T) {
	for _, s := range []queens.Spec{{N: 11, Method: queens.Constellations}, {N: 12, Method: queens.Join}} {
		jp, err := queens.NewPlan(s)
		if err != nil {
			t.Fatal(err)
		}
		per := results(t, jp)
		for _, u := range []int{0, 3, 64} {
			p, err := NewPlan(jp, u)
			if err != nil {
				t.Fatal(err)
			}
			do, _, err := p.UnitFunc(queens.Execution{})
			if err != nil {
				t.Fatal(err)
			}
			var sum uint64
			for i := range p.Len() {
				var progress uint64
				r, err := do(context.Background(), p.Tasks(i), func(n uint64) { progress += n })
				if err != nil {
					t.Fatal(err)
				}
				var want count.Result
				for _, id := range p.Tasks(i) {
					want.Count += per[id].Count
					want.Nodes += per[id].Nodes
				}
				if r != want || progress < r.Nodes {
					t.Errorf("%+v units %d: unit %d counted %+v (progress %d), its tasks %+v", s, u, i, r, progress, want)
				}
				sum += r.Count
			}
			if k, _ := queens.Known(s.N); sum != k {
				t.Errorf("%+v units %d: the units add up to %d, want %d", s, u, sum, k)
			}
			if _, err := do(context.Background(), []int{jp.Len()}, nil); err == nil {
				t.Errorf("%+v units %d: a task out of range counted", s, u)
			}
		}
	}
}

func TestDefaultUnits(t *testing.T) {
	for _, c := range []struct{ n, tasks, want int }{
		{8, 20, 0}, {12, 127, 0}, {12, 128, 16}, {12, 1000, 16}, {17, 1152, 16}, {17, 5296, 16},
		{18, 256, 32}, {18, 5000, 128}, {19, 5000, 625}, {19, 20000, 1024}, {20, 6000, 750},
		{24, 1 << 30, 16 << 21}, {26, 1 << 30, 1 << 27}, {27, 1 << 30, 0},
	} {
		if got := DefaultUnits(c.n, c.tasks); got != c.want {
			t.Errorf("DefaultUnits(%d, %d) = %d, want %d", c.n, c.tasks, got, c.want)
		}
	}
}

// A grouped job through the queue: verified by a second worker, exact,
// and its export checks out; a job record whose grouping does not give
// its tasks is refused.
func TestGroupedJob(t *testing.T) {
	srv := serve(t, ServerConfig{})
	c := connect(t, srv.URL(), Auth{})
	sub := submit(t, c, queens.Spec{N: 11}, SubmitOptions{Units: 6, Verify: 50, Seed: 3})
	jp, _ := queens.NewPlan(queens.Spec{N: 11})
	if p, _ := NewPlan(jp, 6); sub.Job != p.ID() || sub.Tasks != p.Len() || sub.Info.PlanTasks != jp.Len() || sub.Info.Units != 6 {
		t.Fatalf("submit: %+v, want job %s of %d units of %d tasks", sub, p.ID(), p.Len(), jp.Len())
	}
	work(t, srv.URL(), 2)
	s := status(t, c, sub.Job)
	exact(t, s)
	if s.Tasks != sub.Tasks || s.Verify.Selected == 0 || s.Verify.Verified != s.Verify.Selected {
		t.Errorf("status: %+v", s)
	}
	e, err := c.Export(context.Background(), sub.Job)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := NewPlan(jp, 6)
	for _, r := range e.Records {
		if !slices.Equal(r.Tasks, p.Tasks(r.Task)) {
			t.Errorf("unit %d's record lists tasks %v, want %v", r.Task, r.Tasks, p.Tasks(r.Task))
		}
		// A record must say which tasks it counted, and they must be
		// its unit's.
		for _, tasks := range [][]int{nil, p.Tasks((r.Task + 1) % p.Len()), append(slices.Clone(r.Tasks), r.Tasks[0])} {
			x := r
			x.Tasks = tasks
			x.Seal()
			if err := x.Check(sub.Job, p); err == nil {
				t.Errorf("unit %d: a record of tasks %v was accepted", r.Task, tasks)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "x.json")
	if err := WriteExport(path, e); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadExport(path); err != nil {
		t.Errorf("the export of a grouped job: %v", err)
	}
	e.Run["units"] = "7" // other units: other tasks under the same ids
	if err := WriteExport(path, e); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadExport(path); err == nil {
		t.Error("an export whose units were changed was accepted")
	}
	info := sub.Info
	info.Units = 5
	if _, err := info.Plan(); err == nil {
		t.Error("a job record with other units than its id says was planned")
	}
	b, _ := json.Marshal(sub.Info)
	var back JobInfo
	if err := json.Unmarshal(b, &back); err != nil || back.Units != 6 || back.PlanTasks != jp.Len() {
		t.Errorf("job record round trip: %+v, %v", back, err)
	}
	if _, err := c.Submit(context.Background(), queens.Spec{N: 11}, SubmitOptions{Units: -1}); err != nil {
		t.Errorf("one task per unit: %v", err)
	}
}

// A unit's message lists its tasks, and the worker counts those: a
// message that lists other tasks gives a record readers refuse, never a
// wrong total.
func TestWrongUnitTasks(t *testing.T) {
	srv := serve(t, ServerConfig{})
	c := connect(t, srv.URL(), Auth{})
	jp, _ := queens.NewPlan(queens.Spec{N: 11})
	p, _ := NewPlan(jp, 6)
	ctx := context.Background()
	if err := c.Setup(ctx, Settings{}, false); err != nil {
		t.Fatal(err)
	}
	// Unit 0's message, in place before the job's, lists unit 1's tasks.
	body, _ := json.Marshal(taskMsg{ID: p.ID(), Task: 0, Tasks: p.Tasks(1)})
	if _, err := c.js.Publish(ctx, subject(taskPrefix, p.ID(), 0), body); err != nil {
		t.Fatal(err)
	}
	sub := submit(t, c, queens.Spec{N: 11}, SubmitOptions{Units: 6})
	if sub.Added != p.Len()-1 {
		t.Fatalf("submit added %d tasks, want %d (unit 0's subject was taken)", sub.Added, p.Len()-1)
	}
	work(t, srv.URL(), 1)
	s := status(t, c, sub.Job)
	if s.Complete || s.Total != nil || s.Done != p.Len()-1 || len(s.Refused) != 1 || s.Refused[0].Task != 0 {
		t.Errorf("status: complete %v, done %d of %d, refused %+v", s.Complete, s.Done, s.Tasks, s.Refused)
	}
}
