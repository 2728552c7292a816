package client

import (
	"context"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

// The queue's tests with workers are package worker's; these read and
// write without one.

// bound bounds every wait of a test.
const bound = 2 * time.Minute

// serve starts a server on loopback in a temporary folder.
func serve(t testing.TB, cfg server.Config) *server.Server {
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
	s, err := server.Serve(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func connect(t testing.TB, url string, a Auth) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	c, err := Connect(ctx, url, ConnectOptions{Auth: a, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// submit submits s, every task its own unit.
func submit(t testing.TB, c *Client, s queens.Spec, opt SubmitOptions) *Submitted {
	t.Helper()
	if opt.Units == 0 {
		opt.Units = -1
	}
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	sub, err := c.Submit(ctx, s, opt)
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

func status(t testing.TB, c *Client, id string) *Status {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	s, err := c.Status(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// exact checks a complete status against the OEIS.
func exact(t testing.TB, s *Status) {
	t.Helper()
	if !s.Complete || s.Total == nil {
		t.Fatalf("job %s not complete: %s", s.Job, Summary(s))
	}
	k, _ := queens.Known(s.N)
	if s.Total.Cmp(count.U128(k)) != 0 || s.Matches == nil || !*s.Matches {
		t.Fatalf("n = %d: total %s, want %d", s.N, s.Total, k)
	}
}
