package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/internal/clientconn"
	"github.com/nqcount/nqcount/count/queens/queue/server"
	"github.com/nqcount/nqcount/internal/clitest"
)

// freeAddr returns a loopback address with a port free now.
func freeAddr(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// While a cluster had lost the quorum of its
// servers, wait exited 1 at once on a complete job, jobs hung without a
// deadline, /metrics did not answer, and the servers said nothing. Now the
// server says so, /metrics answers with the quorum gauge at 0, a client
// with a deadline fails in one line when the outage outlasts it, and
// clients started during the outage finish once the quorum is back.
func TestClientThroughQuorumLoss(t *testing.T) {
	need64(t)
	shorten(t, clientconn.AttemptWait, 5*time.Second)
	t0 := time.Now()
	step := func(what string) { t.Logf("%5.1f s: %s", time.Since(t0).Seconds(), what) }
	cfgs := make([]server.Config, 3)
	var routes []string
	for i := range cfgs {
		cfgs[i] = server.Config{Name: fmt.Sprintf("s%d", i), Listen: freeAddr(t), ClusterListen: freeAddr(t), DataDir: t.TempDir(), Settings: fast}
		routes = append(routes, cfgs[i].ClusterListen)
	}
	events := &clitest.Lines{}
	defer func() {
		if t.Failed() {
			t.Logf("events:\n%s", events)
		}
	}()
	cfgs[0].Metrics, cfgs[0].Events = "127.0.0.1:0", events.Logf
	srvs := make([]*server.Server, 3)
	start := func(i int) {
		cfgs[i].Routes = routes
		s, err := server.Serve(context.Background(), cfgs[i])
		if err != nil {
			t.Fatal(err)
		}
		srvs[i] = s
	}
	for i := range srvs {
		start(i)
	}
	defer func() {
		for _, s := range srvs {
			if s != nil {
				s.Close()
			}
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	for _, s := range srvs {
		if err := s.WaitSetup(ctx); err != nil {
			t.Fatal(err)
		}
	}
	step("cluster set up")
	url := srvs[0].URL()
	c := connect(t, url, client.Auth{})
	sub := submit(t, c, queens.Spec{N: 8}, client.SubmitOptions{})
	work(t, url, 1)
	exact(t, status(t, c, sub.Job))

	step("job counted")
	// Two servers of three go: no quorum.
	srvs[1].Close()
	srvs[2].Close()
	srvs[1], srvs[2] = nil, nil
	until(t, "the server says the quorum is lost", func() bool { return events.Has("QUORUM LOST") })
	step("quorum lost")
	began := time.Now()
	resp, err := http.Get(srvs[0].MetricsURL())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if took := time.Since(began); resp.StatusCode != http.StatusOK || took > 8*time.Second {
		t.Errorf("/metrics during the outage: HTTP %d after %v", resp.StatusCode, took)
	}
	for _, want := range []string{"nqcount_queue_up 0", "nqcount_cluster_quorum 0", "go_goroutines", "go_build_info"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics during the outage lacks %q:\n%s", want, body)
		}
	}
	// A client whose deadline the outage outlasts fails in one line.
	short, stop := context.WithTimeout(ctx, 2*time.Second)
	_, err = c.Jobs(short)
	stop()
	if !errors.Is(err, client.ErrNoAnswer) || strings.Contains(err.Error(), "\n") {
		t.Errorf("jobs with a 2 s deadline during the outage: %v, want ErrNoAnswer in one line", err)
	}
	// Clients started during the outage go on once it ends: a wait on
	// the complete job gives its total, jobs lists it.
	c2 := connect(t, url, client.Auth{})
	type waited struct {
		s   *client.Status
		err error
	}
	wdone := make(chan waited, 1)
	go func() {
		s, err := c2.Wait(ctx, sub.Job, time.Second, nil)
		wdone <- waited{s, err}
	}()
	jdone := make(chan error, 1)
	go func() {
		_, err := c.Jobs(ctx)
		jdone <- err
	}()
	time.Sleep(2 * time.Second)
	select {
	case w := <-wdone:
		t.Fatalf("wait ended during the outage: %v", w.err)
	default:
	}
	step("restarting a server")
	start(1)
	if err := <-jdone; err != nil {
		t.Errorf("jobs through the outage: %v", err)
	}
	step("jobs answered")
	w := <-wdone
	if w.err != nil {
		t.Fatalf("wait through the outage: %v", w.err)
	}
	exact(t, w.s)
	step("wait answered")
	until(t, "the server says the quorum is back", func() bool { return events.Has("quorum back") })
}

// need64 skips a test of a cluster on a 32-bit build, which refuses
// clusters (ErrCluster32; TestCluster32Refused checks that it does).
func need64(t *testing.T) {
	t.Helper()
	if strconv.IntSize == 32 {
		t.Skip("a cluster needs a 64-bit build: nats-server's clustered JetStream crashes on 32-bit platforms (ErrCluster32)")
	}
}

// TestCluster32Refused: a 32-bit build refuses to join or start a cluster
// in one line, before any server starts; a 64-bit one accepts it.
func TestCluster32Refused(t *testing.T) {
	if strconv.IntSize != 32 {
		t.Skip("64-bit build: clusters are tested by TestClientThroughQuorumLoss and others")
	}
	_, err := server.Serve(t.Context(), server.Config{Name: "s0", Listen: "127.0.0.1:0", ClusterListen: freeAddr(t), DataDir: t.TempDir()})
	if !errors.Is(err, server.ErrCluster32) {
		t.Fatalf("a cluster on a 32-bit build: %v, want ErrCluster32", err)
	}
}
