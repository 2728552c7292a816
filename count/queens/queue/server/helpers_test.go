package server

import (
	"context"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
)

// The helpers of the tests that need the server's insides; the queue's
// other tests, with the client's and the worker's insides, are in
// package client.

// bound bounds every wait of these tests: far beyond what a loaded
// machine needs, it only stops a test that would hang.
const bound = 2 * time.Minute

// serve starts a server on loopback in a temporary folder, with settings
// that bring a dead worker's tasks back within seconds.
func serve(t testing.TB, cfg Config) *Server {
	t.Helper()
	if cfg.DataDir == "" {
		cfg.DataDir = t.TempDir()
	}
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:0"
	}
	if cfg.Settings == (queue.Settings{}) {
		cfg.Settings = queue.Settings{AckWait: 2 * time.Second, MaxDeliver: 3}
	}
	s, err := Serve(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func connect(t testing.TB, url string) *client.Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	c, err := client.Connect(ctx, url, client.ConnectOptions{Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// submit submits s with one task per unit.
func submit(t testing.TB, c *client.Client, s queens.Spec) *client.Submitted {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	sub, err := c.Submit(ctx, s, client.SubmitOptions{Units: -1})
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// exact checks that job id is complete and its total the OEIS's.
func exact(t testing.TB, c *client.Client, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	s, err := c.Status(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Complete || s.Total == nil {
		t.Fatalf("job %s not complete: %s", s.Job, client.Summary(s))
	}
	k, _ := queens.Known(s.N)
	if s.Total.Cmp(count.U128(k)) != 0 || s.Matches == nil || !*s.Matches {
		t.Fatalf("n = %d: total %s, want %d", s.N, s.Total, k)
	}
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
