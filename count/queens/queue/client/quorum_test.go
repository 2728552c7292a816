package client

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

func TestJudge(t *testing.T) {
	rec := func(w string, c uint64) queue.Record { return queue.Record{Worker: w, Count: c, Nodes: c} }
	for _, c := range []struct {
		name     string
		recs     []queue.Record
		standing int64 // -1: none
		conflict bool
		outvoted int
	}{
		{"none", nil, -1, false, 0},
		{"one", []queue.Record{rec("a", 5)}, 5, false, 0},
		{"two agree", []queue.Record{rec("a", 5), rec("b", 5)}, 5, false, 0},
		{"two disagree", []queue.Record{rec("a", 5), rec("b", 7)}, -1, true, 0},
		{"the same worker twice is one vote", []queue.Record{rec("a", 7), rec("a", 7), rec("b", 5)}, -1, true, 0},
		{"majority", []queue.Record{rec("a", 7), rec("b", 5), rec("c", 5)}, 5, false, 1},
		{"three ways", []queue.Record{rec("a", 7), rec("b", 5), rec("c", 6)}, -1, true, 0},
		{"two against two", []queue.Record{rec("a", 7), rec("b", 5), rec("c", 5), rec("d", 7)}, -1, true, 0},
	} {
		v := judge(opinions(c.recs, nil, func(string) bool { return false }))
		got := int64(-1)
		if v.standing != nil {
			got = int64(v.standing.count)
		}
		if got != c.standing || v.conflict != c.conflict || len(v.outvoted) != c.outvoted {
			t.Errorf("%s: standing %d, conflict %v, %d outvoted; want %d, %v, %d", c.name, got, v.conflict, len(v.outvoted), c.standing, c.conflict, c.outvoted)
		}
	}
}

// liar makes worker id add 2 to every count it makes.
func liar(id string) func(*WorkerConfig) {
	return func(cfg *WorkerConfig) {
		if cfg.ID == id {
			cfg.tamper = func(_ string, _ int, _ string, r count.Result) count.Result {
				r.Count += 2
				return r
			}
		}
	}
}

// One lying worker (+2 on every count) and honest
// ones, --verify 30. A conflict was reported and never settled: wait
// printed nothing for ever, requeue put nothing back. Now a third worker
// recounts, the majority stands, the liar is named (and sets itself
// aside) and its other results are counted again: the total is exact.
func TestLiarOutvoted(t *testing.T) {
	shorten(t, &rescueEvery, 200*time.Millisecond)
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), Auth{})
	sub := submit(t, c, queens.Spec{N: 11}, SubmitOptions{Units: 40, Verify: 30, Seed: testSeed(t)})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	var waits []func() (*WorkStats, error)
	for _, id := range []string{"liar", "h1", "h2"} {
		cfg := WorkerConfig{Workers: 2, ID: id}
		liar("liar")(&cfg)
		waits = append(waits, startWork(t, wctx, srv.URL(), cfg))
	}
	s, err := c.Wait(ctx, sub.Job, time.Second, nil)
	if err != nil {
		t.Fatalf("wait: %v (%+v)", err, s)
	}
	exact(t, s)
	if len(s.Distrusted) != 1 || s.Distrusted[0].Worker != "liar" || s.Distrusted[0].Count != s.Distrusted[0].Majority+2 {
		t.Fatalf("distrusted %+v, want the liar named", s.Distrusted)
	}
	st, err := waits[0]()
	if !errors.Is(err, ErrSetAside) || !strings.Contains(err.Error(), "outvoted") {
		t.Errorf("the liar: %v (%+v), want it set aside as outvoted", err, st)
	}
	stop()
	for _, w := range waits[1:] {
		w()
	}
	// The record of the job names it, for every reader.
	info, err := c.Job(ctx, sub.Job)
	if err != nil || len(info.Distrusted) != 1 {
		t.Errorf("job record: %+v, %v", info, err)
	}
	// The export stands on the honest records alone.
	e, err := c.Export(ctx, sub.Job)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range e.Records {
		if r.Worker == "liar" {
			t.Fatalf("the export holds the liar's record of task %d", r.Task)
		}
	}
	if err := e.check(); err != nil {
		t.Errorf("the export does not check: %v", err)
	}
}

// With one liar and one honest worker no quorum can be had: wait ends
// with ErrNoQuorum, naming what each worker says, instead of waiting for
// ever.
func TestNoQuorum(t *testing.T) {
	shorten(t, &unverifiedGrace, time.Second)
	shorten(t, &rescueEvery, 200*time.Millisecond)
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), Auth{})
	sub := submit(t, c, queens.Spec{N: 8}, SubmitOptions{Verify: 100, Seed: testSeed(t)})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	for _, id := range []string{"liar", "h1"} {
		cfg := WorkerConfig{Workers: 1, ID: id}
		liar("liar")(&cfg)
		defer startWork(t, wctx, srv.URL(), cfg)()
	}
	s, err := c.Wait(ctx, sub.Job, time.Second, nil)
	if !errors.Is(err, ErrNoQuorum) || s == nil || s.Complete || len(s.Conflicts) == 0 {
		t.Fatalf("wait: %v, want ErrNoQuorum", err)
	}
	if !strings.Contains(err.Error(), "liar says") || !strings.Contains(err.Error(), "h1 says") {
		t.Errorf("wait: %v, want it to say what each worker says", err)
	}
	t.Logf("wait: %v", err)
	stop()
}
