package worker

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/internal/clientconn"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

// liar makes worker id add 2 to every count it makes.
func liar(id string) func(*Config) {
	return func(cfg *Config) {
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
	c := connect(t, srv.URL(), client.Auth{})
	sub := submit(t, c, queens.Spec{N: 11}, client.SubmitOptions{Units: 40, Verify: 30, Seed: testSeed(t)})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	var waits []func() (*Stats, error)
	for _, id := range []string{"liar", "h1", "h2"} {
		cfg := Config{Execution: queens.Execution{Workers: 2}, ID: id}
		liar("liar")(&cfg)
		waits = append(waits, startWork(t, wctx, srv.URL(), cfg))
		if id == "liar" {
			liarFirst(t, c, sub.Job, func(s *client.Status, results int) bool { return results >= s.Tasks })
		}
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
	path := filepath.Join(t.TempDir(), "export.json")
	if err := client.WriteExport(path, e); err != nil {
		t.Fatal(err)
	}
	if _, err := client.ReadExport(path); err != nil {
		t.Errorf("the export does not check: %v", err)
	}
}

// liarFirst waits, with the liar started alone, until done says it has
// stored enough of job's records (results: how many). A liar that
// counts nothing is never caught: in a CI run under load the honest
// workers once counted the whole job before the liar took a task, and
// nobody was outvoted.
func liarFirst(t testing.TB, c *client.Client, job string, done func(s *client.Status, results int) bool) {
	t.Helper()
	until(t, "the liar counts before the honest workers start", func() bool {
		s := status(t, c, job)
		for _, w := range s.Workers {
			if w.ID == "liar" {
				return done(s, w.Results)
			}
		}
		return done(s, 0)
	})
}

// With one liar and one honest worker no quorum can be had: wait ends
// with ErrNoQuorum, naming what each worker says, instead of waiting for
// ever.
func TestNoQuorum(t *testing.T) {
	shorten(t, clientconn.UnverifiedGrace, time.Second)
	shorten(t, &rescueEvery, 200*time.Millisecond)
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	sub := submit(t, c, queens.Spec{N: 8}, client.SubmitOptions{Verify: 100, Seed: testSeed(t)})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	for _, id := range []string{"liar", "h1"} {
		cfg := Config{Execution: queens.Execution{Workers: 1}, ID: id}
		liar("liar")(&cfg)
		defer startWork(t, wctx, srv.URL(), cfg)()
	}
	s, err := c.Wait(ctx, sub.Job, time.Second, nil)
	if !errors.Is(err, client.ErrNoQuorum) || s == nil || s.Complete || len(s.Conflicts) == 0 {
		t.Fatalf("wait: %v, want ErrNoQuorum", err)
	}
	if !strings.Contains(err.Error(), "liar says") || !strings.Contains(err.Error(), "h1 says") {
		t.Errorf("wait: %v, want it to say what each worker says", err)
	}
	t.Logf("wait: %v", err)
	stop()
}
