package server

import (
	"context"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue/worker"
	"github.com/nqcount/nqcount/internal/clitest"
)

// When its store filled, the NATS server shut its
// JetStream down and waited for a restart: workers counted but stored
// nothing, --exit-when-idle never exited, growing the file system changed
// nothing, and serve printed nothing. Now serve says so in one line and
// starts JetStream again by itself once a probe write succeeds in its
// folder; the queue goes on. (The full disk is simulated: the server's
// own out-of-space report, then its own shutdown of JetStream, exactly
// what it does when a write fails for space; the space is there again at
// once.)
func TestFullStoreResumes(t *testing.T) {
	events := &clitest.Lines{}
	srv := serve(t, Config{Events: events.Logf})
	c := connect(t, srv.URL())
	sub := submit(t, c, queens.Spec{N: 9})
	srv.log.Errorf("JetStream out of %s resources, will be DISABLED", "File")
	srv.ns.ShutdownJetStream()
	until(t, "serve says the store is full", func() bool { return events.Has("JetStream cannot write") })
	until(t, "serve says the queue goes on", func() bool { return events.Has("writing again") })
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	wctx, stop := context.WithTimeout(ctx, time.Minute)
	defer stop()
	w := connect(t, srv.URL())
	if _, err := worker.Work(wctx, w, worker.Config{Execution: queens.Execution{Workers: 2}, ID: "after", ExitWhenIdle: true, Program: "test", Logf: t.Logf}); err != nil {
		t.Fatalf("worker after the store came back: %v", err)
	}
	exact(t, c, sub.Job)
	if h := srv.health.state(); h.DiskFull != "" {
		t.Errorf("health still says the store is full: %q", h.DiskFull)
	}
}
