package worker

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/kernel"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/internal/clientconn"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

// jsOf is the JetStream context of c's connection.
func jsOf(c *client.Client) jetstream.JetStream {
	_, js := clientconn.Of(c).NATS()
	return js
}

// startWork runs one in-process worker in the background; wait returns
// its stats and error.
func startWork(t testing.TB, ctx context.Context, url string, cfg Config) (wait func() (*Stats, error)) {
	t.Helper()
	c := connect(t, url, client.Auth{})
	if cfg.Program == "" {
		cfg.Program = "test"
	}
	if cfg.Logf == nil {
		cfg.Logf = t.Logf
	}
	var (
		st  *Stats
		err error
	)
	done := make(chan struct{})
	go func() {
		defer close(done)
		st, err = Work(ctx, c, cfg)
	}()
	return func() (*Stats, error) {
		select {
		case <-done:
		case <-time.After(bound):
			t.Fatalf("worker %s still running after %v", cfg.ID, bound)
		}
		return st, err
	}
}

// realCount counts like the kernel, in slices (see count.TaskFunc).
func realCount(t testing.TB, s queens.Spec) count.TaskFunc {
	p, err := queens.NewPlan(s)
	if err != nil {
		t.Fatal(err)
	}
	return p.Counter(kernel.Best())
}

// slowly reports progress every 10 ms, as a kernel does, for d (or until
// ctx is done).
func slowly(ctx context.Context, d time.Duration, progress func(uint64)) error {
	for end := time.Now().Add(d); time.Now().Before(end); {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
			progress(1000)
		}
	}
	return nil
}

// until polls cond every 20 ms until it holds, at most bound.
func until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(bound); !cond(); {
		if time.Now().After(end) {
			t.Fatalf("%s: not within %v", what, bound)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A kernel that hangs stops the heartbeats of its task (they come from
// its progress, not from a clock): the server hands the task to another
// worker after the ack wait, and the hung worker abandons it and goes on.
func TestHungTaskGoesToAnotherWorker(t *testing.T) {
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	spec := queens.Spec{N: 9}
	sub := submit(t, c, spec, client.SubmitOptions{})
	p, _ := queens.NewPlan(spec)
	victim := p.LargestFirst(count.All(p.Len()))[0] // handed out first
	real := realCount(t, spec)
	hang := make(chan struct{})
	defer close(hang)
	started := make(chan struct{})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	hung := startWork(t, ctx, srv.URL(), Config{ID: "hung", Execution: queens.Execution{Workers: 1}, ExitWhenIdle: true,
		countTask: func(ctx context.Context, _ string, task int, progress func(uint64)) (count.Result, error) {
			if task == victim {
				progress(1)
				close(started)
				<-hang // a kernel that never returns nor looks at ctx
				return count.Result{}, errors.New("released")
			}
			return real(ctx, task, progress)
		}})
	<-started
	began := time.Now()
	good := startWork(t, ctx, srv.URL(), Config{ID: "good", Execution: queens.Execution{Workers: 1}, ExitWhenIdle: true})
	gs, err := good()
	if err != nil {
		t.Fatal(err)
	}
	hs, err := hung()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("hung: %+v; good: %+v; %v after the hang", hs, gs, time.Since(began).Round(time.Millisecond))
	if hs.Abandoned != 1 || hs.Counted+gs.Counted < p.Len() {
		t.Errorf("hung worker: %+v, want the victim abandoned", hs)
	}
	s := status(t, c, sub.Job)
	exact(t, s)
	for _, r := range s.Workers {
		if r.ID == "good" && r.Results == 0 {
			t.Error("the good worker has no results")
		}
	}
}

// Ctrl-C (a cancelled Work) abandons the running tasks within a slice and
// hands every held task back at once (Nak), for another worker; the same
// for a job whose tasks are units of the plan's (counted again on their
// second delivery, after a look for a stored result).
func TestInterruptHandsTasksBack(t *testing.T) {
	for _, units := range []int{-1, 3} {
		t.Run(fmt.Sprintf("units=%d", units), func(t *testing.T) { interruptHandsTasksBack(t, units) })
	}
}

func interruptHandsTasksBack(t *testing.T, units int) {
	srv := serve(t, server.Config{Settings: queue.Settings{AckWait: time.Minute}})
	c := connect(t, srv.URL(), client.Auth{})
	spec := queens.Spec{N: 9}
	sub := submit(t, c, spec, client.SubmitOptions{Units: units})
	var mu sync.Mutex
	running := 0
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wait := startWork(t, ctx, srv.URL(), Config{ID: "stopped", Execution: queens.Execution{Workers: 2},
		countTask: func(ctx context.Context, _ string, task int, progress func(uint64)) (count.Result, error) {
			mu.Lock()
			running++
			mu.Unlock()
			return count.Result{}, slowly(ctx, time.Hour, progress)
		}})
	until(t, "two tasks running", func() bool { mu.Lock(); defer mu.Unlock(); return running == 2 })
	stopped := time.Now()
	cancel()
	st, err := wait()
	took := time.Since(stopped)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Work: %v, want context.Canceled", err)
	}
	if took > 2*time.Second {
		t.Errorf("Work returned %v after the interrupt, want within a second or so", took)
	}
	if st.Returned < 2 || st.Counted != 0 {
		t.Errorf("stats %+v: want the running tasks (and those waiting) handed back", st)
	}
	// Handed back at once: another worker counts the whole job long
	// before the ack wait (a minute) would have let the tasks go.
	ctx2, cancel2 := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel2()
	next, err := startWork(t, ctx2, srv.URL(), Config{ID: "next", Execution: queens.Execution{Workers: 2}, ExitWhenIdle: true})()
	if err != nil {
		t.Fatalf("the next worker: %v (%+v)", err, next)
	}
	s := status(t, c, sub.Job)
	exact(t, s)
	if next.Counted != sub.Tasks || s.Units != max(units, 0) || units > 0 && s.PlanTasks != sub.Info.PlanTasks {
		t.Errorf("the next worker: %+v; status: %s, units %d of %d plan tasks; want all %d tasks counted", next, client.Summary(s), s.Units, s.PlanTasks, sub.Tasks)
	}
}

// With Finish, a cancelled Work finishes and publishes the tasks it is
// counting, and hands back those that wait for a slot.
func TestInterruptFinishesHeldTasks(t *testing.T) {
	srv := serve(t, server.Config{Settings: queue.Settings{AckWait: time.Minute}})
	c := connect(t, srv.URL(), client.Auth{})
	spec := queens.Spec{N: 9}
	sub := submit(t, c, spec, client.SubmitOptions{})
	real := realCount(t, spec)
	var mu sync.Mutex
	var counting []int
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wait := startWork(t, ctx, srv.URL(), Config{ID: "finisher", Execution: queens.Execution{Workers: 2}, Finish: true,
		countTask: func(ctx context.Context, _ string, task int, progress func(uint64)) (count.Result, error) {
			mu.Lock()
			counting = append(counting, task)
			mu.Unlock()
			if err := slowly(ctx, 500*time.Millisecond, progress); err != nil {
				return count.Result{}, err
			}
			return real(ctx, task, func(uint64) {})
		}})
	until(t, "two tasks counting", func() bool { mu.Lock(); defer mu.Unlock(); return len(counting) == 2 })
	cancel()
	st, err := wait()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Work: %v, want context.Canceled", err)
	}
	mu.Lock()
	held := append([]int(nil), counting...)
	mu.Unlock()
	if st.Counted != len(held) {
		t.Errorf("stats %+v: want the %d tasks being counted finished (%v)", st, len(held), held)
	}
	s := status(t, c, sub.Job)
	if s.Done != len(held) {
		t.Errorf("%d tasks done after the interrupt, want the %d being counted", s.Done, len(held))
	}
	work(t, srv.URL(), 1)
	exact(t, status(t, c, sub.Job))
}

// While a long task runs, its worker's reports carry its progress, so
// status shows a rate, the live nodes and an ETA before any result.
func TestStatusRateWhileLongTaskRuns(t *testing.T) {
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	spec := queens.Spec{N: 9}
	sub := submit(t, c, spec, client.SubmitOptions{})
	p, _ := queens.NewPlan(spec)
	order := p.LargestFirst(count.All(p.Len()))
	long := order[1] // the second: the first is done by then, so the ETA is known
	real := realCount(t, spec)
	seen := make(chan struct{})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	wait := startWork(t, ctx, srv.URL(), Config{ID: "slow", Execution: queens.Execution{Workers: 1}, ExitWhenIdle: true,
		countTask: func(ctx context.Context, _ string, task int, progress func(uint64)) (count.Result, error) {
			if task == long {
				for {
					select {
					case <-seen:
						return real(ctx, task, progress)
					case <-ctx.Done():
						return count.Result{}, ctx.Err()
					case <-time.After(10 * time.Millisecond):
						progress(1)
					}
				}
			}
			return real(ctx, task, progress)
		}})
	var s *client.Status
	until(t, "a live rate in status", func() bool {
		s = status(t, c, sub.Job)
		return s.NodesPerSec > 0 && s.ETA != nil
	})
	close(seen)
	if s.Complete || s.Done != 1 || s.LiveNodes < 10 || s.Working != 1 || s.Active != 1 || s.Elapsed <= 0 {
		t.Errorf("while the long task runs: %s, %d live nodes, %d working, %d active, elapsed %v",
			client.Summary(s), s.LiveNodes, s.Working, s.Active, s.Elapsed)
	}
	t.Logf("while the long task runs: %s, %.0f nodes/s, %d live nodes, ETA %.1f s, elapsed %.1f s", client.Summary(s), s.NodesPerSec, s.LiveNodes, *s.ETA, s.Elapsed)
	if _, err := wait(); err != nil {
		t.Fatal(err)
	}
	s = status(t, c, sub.Job)
	exact(t, s)
	if s.Finished == nil || *s.ETA != 0 {
		t.Errorf("complete: finished %v, ETA %v", s.Finished, *s.ETA)
	}
	for _, w := range s.Workers {
		if w.ID == "slow" && (!w.Stopped || w.Nodes < s.Nodes.Lo) {
			t.Errorf("the worker's last report: %+v, want stopped, with at least the job's %s nodes", w.Seen, s.Nodes)
		}
	}
}

// shorten sets a package variable for one test.
func shorten(t testing.TB, v *time.Duration, d time.Duration) {
	old := *v
	*v = d
	t.Cleanup(func() { *v = old })
}

// One worker cannot verify its own counts: it leaves them, status says
// "unverified: no second worker" and Wait gives up instead of hanging; a
// second worker started later takes them over.
func TestVerifyOneWorker(t *testing.T) {
	shorten(t, clientconn.UnverifiedGrace, time.Second)
	shorten(t, &rescueEvery, 200*time.Millisecond)
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	sub := submit(t, c, queens.Spec{N: 8}, client.SubmitOptions{Verify: 100})
	alone := work(t, srv.URL(), 1)[0]
	if alone.MineToVerify != sub.VerifyTasks || alone.Verified != 0 {
		t.Errorf("one worker: %+v, want all %d verify tasks left to another", alone, sub.VerifyTasks)
	}
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	s, err := c.Wait(ctx, sub.Job, time.Second, nil)
	if !errors.Is(err, client.ErrUnverified) || s == nil || s.Verify.Stalled != sub.VerifyTasks || s.Complete {
		t.Fatalf("Wait: %v, %+v; want ErrUnverified with every verification stalled", err, s)
	}
	t.Logf("wait: %v", err)
	second := work(t, srv.URL(), 1, func(cfg *Config) { cfg.ID = "second" })[0]
	if second.Rescued != sub.VerifyTasks || second.Verified != sub.VerifyTasks || second.Counted != 0 {
		t.Errorf("second worker: %+v, want every verify task taken over and counted", second)
	}
	s = status(t, c, sub.Job)
	exact(t, s)
	if s.Verify.Verified != sub.VerifyTasks {
		t.Errorf("verify %+v", s.Verify)
	}
}

// A verify task goes to a live worker other than its counter; if that
// worker dies before counting it, another (not the counter) takes it
// over.
func TestVerifyAddresseeGone(t *testing.T) {
	shorten(t, &rescueEvery, 200*time.Millisecond)
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	kv, err := jsOf(c).KeyValue(ctx, queue.WorkersBucket)
	if err != nil {
		t.Fatal(err)
	}
	// A ghost reports as a worker, but pulls nothing.
	ghostAlive := make(chan struct{})
	ghostDone := make(chan struct{})
	go func() {
		defer close(ghostDone)
		for {
			kv.Put(ctx, "ghost", []byte(`{"id":"ghost"}`))
			select {
			case <-ghostAlive:
				kv.Put(ctx, "ghost", []byte(`{"id":"ghost","stopped":true}`))
				return
			case <-time.After(queue.ReportEvery):
			}
		}
	}()
	sub := submit(t, c, queens.Spec{N: 8}, client.SubmitOptions{Verify: 100})
	counter := startWork(t, ctx, srv.URL(), Config{ID: "counter", Execution: queens.Execution{Workers: 2}, ExitWhenIdle: true})
	ts, _ := jsOf(c).Stream(ctx, queue.TasksStream)
	until(t, "every verify task published", func() bool {
		i, err := ts.Info(ctx, jetstream.WithSubjectFilter(layout.VerifyPrefix+".>"))
		return err == nil && len(i.State.Subjects) == sub.VerifyTasks
	})
	i, _ := ts.Info(ctx, jetstream.WithSubjectFilter(layout.VerifyPrefix+".>"))
	for subj := range i.State.Subjects {
		_, _, from, to, ok := layout.ParseVerifySubject(subj)
		if !ok || from != queue.WorkerToken("counter") || to != queue.WorkerToken("ghost") {
			t.Errorf("verify task %s: want it from the counter to the ghost, the only other worker", subj)
		}
	}
	close(ghostAlive)
	<-ghostDone
	st, err := counter()
	if err != nil {
		t.Fatal(err)
	}
	if st.MineToVerify != sub.VerifyTasks || st.Verified != 0 {
		t.Errorf("counter: %+v, want its verify tasks left for another", st)
	}
	rescuer := work(t, srv.URL(), 1, func(cfg *Config) { cfg.ID = "rescuer" })[0]
	if rescuer.Rescued != sub.VerifyTasks || rescuer.Verified != sub.VerifyTasks {
		t.Errorf("rescuer: %+v, want every verify task taken over", rescuer)
	}
	s := status(t, c, sub.Job)
	exact(t, s)
	if s.Verify.Verified != sub.VerifyTasks {
		t.Errorf("verify %+v", s.Verify)
	}
}

// Two workers verify each other's counts without handing tasks back and
// forth: every verify task is addressed to the other one.
func TestVerifyTwoWorkers(t *testing.T) {
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Both workers are there before the job: each sees the other.
	var waits []func() (*Stats, error)
	for _, id := range []string{"w0", "w1"} {
		waits = append(waits, startWork(t, ctx, srv.URL(), Config{ID: id, Execution: queens.Execution{Workers: 2}}))
	}
	until(t, "both workers reporting", func() bool {
		reps, _, err := layout.ReadReports(ctx, jsOf(c))
		return err == nil && len(reps) == 2
	})
	sub := submit(t, c, queens.Spec{N: 10}, client.SubmitOptions{Verify: 50, Seed: 5})
	wctx, wcancel := context.WithTimeout(ctx, bound)
	defer wcancel()
	s, err := c.Wait(wctx, sub.Job, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	verified := 0
	for _, wait := range waits {
		st, err := wait()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("worker: %v", err)
		}
		if st.Returned != 0 || st.Rescued != 0 {
			t.Errorf("%+v: want no task handed back nor taken over", st)
		}
		verified += st.Verified
	}
	exact(t, s)
	if s.Verify.Verified != sub.VerifyTasks || verified < sub.VerifyTasks {
		t.Errorf("verify %+v, %d verify counts, want %d", s.Verify, verified, sub.VerifyTasks)
	}
	for id, rs := range statusRecords(t, c, sub.Job) {
		var counter, verifier []string
		for _, r := range rs {
			if r.Kind == queue.KindCount {
				counter = append(counter, r.Worker)
			} else {
				verifier = append(verifier, r.Worker)
			}
		}
		for _, v := range verifier {
			for _, w := range counter {
				if v == w {
					t.Errorf("task %d verified by its counter %s", id, v)
				}
			}
		}
	}
}

// statusRecords returns the accepted records of a job by task.
func statusRecords(t testing.TB, c *client.Client, id string) map[int][]queue.Record {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	e, err := c.Export(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int][]queue.Record{}
	for _, r := range e.Records {
		out[r.Task] = append(out[r.Task], r)
	}
	return out
}

// The server removes a worker's verify consumer after verifyInactive
// without a pull (a worker busy with long count tasks for a day): the
// worker makes it again when a pull finds it gone, and counts the verify
// tasks addressed to it meanwhile.
func TestVerifyConsumerRemoved(t *testing.T) {
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var waits []func() (*Stats, error)
	for _, id := range []string{"w0", "w1"} {
		waits = append(waits, startWork(t, ctx, srv.URL(), Config{ID: id, Execution: queens.Execution{Workers: 1}}))
	}
	until(t, "both workers reporting", func() bool {
		reps, _, err := layout.ReadReports(ctx, jsOf(c))
		return err == nil && len(reps) == 2
	})
	// As the server does after verifyInactive: both consumers go.
	for _, id := range []string{"w0", "w1"} {
		if err := jsOf(c).DeleteConsumer(ctx, queue.TasksStream, "verify-"+queue.WorkerToken(id)); err != nil {
			t.Fatal(err)
		}
	}
	sub := submit(t, c, queens.Spec{N: 9}, client.SubmitOptions{Verify: 100})
	wctx, wcancel := context.WithTimeout(ctx, bound)
	defer wcancel()
	s, err := c.Wait(wctx, sub.Job, time.Second, nil)
	if err != nil {
		t.Fatal(err)
	}
	exact(t, s)
	if s.Verify.Verified != sub.VerifyTasks {
		t.Errorf("verify %+v, want all %d verified", s.Verify, sub.VerifyTasks)
	}
	for _, id := range []string{"w0", "w1"} {
		if _, err := jsOf(c).Consumer(ctx, queue.TasksStream, "verify-"+queue.WorkerToken(id)); err != nil {
			t.Errorf("verify consumer of %s: %v", id, err)
		}
	}
	cancel()
	for _, wait := range waits {
		if _, err := wait(); !errors.Is(err, context.Canceled) {
			t.Errorf("worker: %v", err)
		}
	}
}

// A worker keeps the task functions (a join job's tables) of the
// keepCounters jobs it used last, and makes one again for a job it
// dropped.
func TestUnitFuncsKept(t *testing.T) {
	w := &unitCounter{}
	var ids []string
	for _, n := range []int{11, 12, 13} {
		p, err := queens.NewPlan(queens.Spec{N: n})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID())
		if _, err := w.unitFunc(p.ID(), &queue.Plan{Queens: p}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.unitFunc(ids[0], &queue.Plan{Queens: p}); err != nil { // used again
			t.Fatal(err)
		}
	}
	var kept []string
	for _, c := range w.counters {
		kept = append(kept, c.job)
	}
	if want := []string{ids[2], ids[0]}; !slices.Equal(kept, want) {
		t.Errorf("kept %v, want %v (the last used last)", kept, want)
	}
}
