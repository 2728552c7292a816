package worker

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

// leastMemory is the least memory in which a worker counts one task of
// p at a time.
func leastMemory(t testing.TB, p *queens.Plan) uint64 {
	lo, hi := uint64(1), uint64(1)<<36
	for lo < hi {
		mid := lo + (hi-lo)/2
		if _, err := p.Fit(queens.Execution{Workers: 1, Memory: mid}); err == nil {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// A worker started with too little memory for a job
// refused its tasks, each refusal spending a delivery, until all were
// set aside; the verify tasks were addressed to it and never counted. Now
// a refusal passes the task on without spending a delivery, verify tasks
// go only to workers that can count them, and a weak worker beside
// normal ones changes nothing but the pace.
func TestWeakWorker(t *testing.T) {
	shorten(t, &rescueEvery, 200*time.Millisecond)
	spec := queens.Spec{N: 16, Method: queens.Join}
	p, err := queens.NewPlan(spec)
	if err != nil {
		t.Fatal(err)
	}
	weak := leastMemory(t, p) - 1
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	sub := submit(t, c, spec, client.SubmitOptions{Units: 48, Verify: 10, Seed: testSeed(t)})
	began := time.Now()
	stats := work(t, srv.URL(), 3, func(cfg *Config) {
		if cfg.ID == "w0" {
			cfg.Memory = weak
		}
	})
	took := time.Since(began)
	s := status(t, c, sub.Job)
	exact(t, s)
	if took > time.Minute {
		t.Errorf("the job took %v with a weak worker beside two others, want under a minute", took)
	}
	if w := stats[0]; w.Counted != 0 || w.Verified != 0 || w.Failed != 0 || w.Refused == 0 {
		t.Errorf("the weak worker: %+v, want tasks refused and none counted", w)
	}
	if len(s.Failed) != 0 || s.Verify.Verified != s.Verify.Selected {
		t.Errorf("failed %+v, verified %d of %d: want no failure and every verification", s.Failed, s.Verify.Verified, s.Verify.Selected)
	}
	t.Logf("n = %d (%d units, %d verified) with a worker of %d bytes beside two: %v; weak worker %+v", spec.N, s.Tasks, s.Verify.Verified, weak, took.Round(time.Millisecond), stats[0])
}

// A worker whose every count fails sets itself aside after failLimit in
// a row, instead of spending the tasks' deliveries; status shows it and
// why, and the others finish the job.
func TestFailingWorkerSetAside(t *testing.T) {
	srv := serve(t, server.Config{Settings: queue.Settings{AckWait: 2 * time.Second, MaxDeliver: 5}})
	c := connect(t, srv.URL(), client.Auth{})
	sub := submit(t, c, queens.Spec{N: 9}, client.SubmitOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	bad := startWork(t, ctx, srv.URL(), Config{Execution: queens.Execution{Workers: 1}, ID: "bad", ExitWhenIdle: true,
		fail: func(string, int) error { return errors.New("simulated broken kernel") }})
	st, err := bad()
	if !errors.Is(err, ErrSetAside) || st.Failed != failLimit || !strings.Contains(st.SetAside, "simulated broken kernel") {
		t.Fatalf("the failing worker: %v, %+v; want it set aside after %d failures", err, st, failLimit)
	}
	s := status(t, c, sub.Job)
	if len(s.Workers) != 1 || !strings.Contains(s.Workers[0].SetAside, "failed") {
		t.Errorf("workers %+v, want the failing worker shown set aside", s.Workers)
	}
	work(t, srv.URL(), 1)
	exact(t, status(t, c, sub.Job))
}

// A worker asked for what it cannot do is refused before it takes a task:
// a kernel no family has, or a path (each job's plan chooses its own).
func TestConfigRefused(t *testing.T) {
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	for _, e := range []queens.Execution{{Kernel: "no-such-kernel"}, {Path: "tables"}} {
		ctx, cancel := context.WithTimeout(context.Background(), bound)
		_, err := Work(ctx, c, Config{Execution: e, ID: "refused", ExitWhenIdle: true, Program: "test"})
		cancel()
		if !errors.Is(err, queens.ErrInvalid) {
			t.Errorf("%+v: %v, want queens.ErrInvalid", e, err)
		}
	}
}
