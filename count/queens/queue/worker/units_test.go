package worker

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

// A grouped job through the queue: verified by a second worker, exact,
// and its export checks out; a job record whose grouping does not give
// its tasks is refused.
func TestGroupedJob(t *testing.T) {
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	sub := submit(t, c, queens.Spec{N: 11}, client.SubmitOptions{Units: 6, Verify: 50, Seed: 3})
	jp, _ := queens.NewPlan(queens.Spec{N: 11})
	if p, _ := queue.NewPlan(jp, 6); sub.Job != p.ID() || sub.Tasks != p.Len() || sub.Info.PlanTasks != jp.Len() || sub.Info.Units != 6 {
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
	p, _ := queue.NewPlan(jp, 6)
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
	if err := client.WriteExport(path, e); err != nil {
		t.Fatal(err)
	}
	if _, err := client.ReadExport(path); err != nil {
		t.Errorf("the export of a grouped job: %v", err)
	}
	e.Run["units"] = "7" // other units: other tasks under the same ids
	if err := client.WriteExport(path, e); err != nil {
		t.Fatal(err)
	}
	if _, err := client.ReadExport(path); err == nil {
		t.Error("an export whose units were changed was accepted")
	}
	info := sub.Info
	info.Units = 5
	if _, err := info.Plan(); err == nil {
		t.Error("a job record with other units than its id says was planned")
	}
	b, _ := json.Marshal(sub.Info)
	var back queue.JobInfo
	if err := json.Unmarshal(b, &back); err != nil || back.Units != 6 || back.PlanTasks != jp.Len() {
		t.Errorf("job record round trip: %+v, %v", back, err)
	}
	if _, err := c.Submit(context.Background(), queens.Spec{N: 11}, client.SubmitOptions{Units: -1}); err != nil {
		t.Errorf("one task per unit: %v", err)
	}
}

// A unit's message lists its tasks, and the worker counts those: a
// message that lists other tasks gives a record readers refuse, never a
// wrong total.
func TestWrongUnitTasks(t *testing.T) {
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	jp, _ := queens.NewPlan(queens.Spec{N: 11})
	p, _ := queue.NewPlan(jp, 6)
	ctx := context.Background()
	if err := c.Setup(ctx, queue.Settings{}, false); err != nil {
		t.Fatal(err)
	}
	// Unit 0's message, in place before the job's, lists unit 1's tasks.
	body, _ := json.Marshal(queue.TaskMsg{ID: p.ID(), Task: 0, Tasks: p.Tasks(1)})
	if _, err := jsOf(c).Publish(ctx, layout.Subject(layout.TaskPrefix, p.ID(), 0), body); err != nil {
		t.Fatal(err)
	}
	sub := submit(t, c, queens.Spec{N: 11}, client.SubmitOptions{Units: 6})
	if sub.Added != p.Len()-1 {
		t.Fatalf("submit added %d tasks, want %d (unit 0's subject was taken)", sub.Added, p.Len()-1)
	}
	work(t, srv.URL(), 1)
	s := status(t, c, sub.Job)
	if s.Complete || s.Total != nil || s.Done != p.Len()-1 || len(s.Refused) != 1 || s.Refused[0].Task != 0 {
		t.Errorf("status: complete %v, done %d of %d, refused %+v", s.Complete, s.Done, s.Tasks, s.Refused)
	}
}
