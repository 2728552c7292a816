package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/internal/clientconn"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

// Anyone with the one token could cancel jobs or join
// the cluster as a route. A server with roles keeps the operator's, the
// workers' and the routes' credentials apart on the NATS server's own
// users and permissions: a worker counts, but cannot write a job's record
// (cancel) or purge the tasks; a worker's token opens no route.
func TestRoles(t *testing.T) {
	const op, wk, rt = "operator-token-0123456789", "worker-token-0123456789", "route-token-0123456789"
	srv := serve(t, server.Config{Token: op, WorkerToken: wk})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	oc := connect(t, srv.URL(), client.Auth{User: queue.OperatorUser, Token: op})
	sub := submit(t, oc, queens.Spec{N: 9}, client.SubmitOptions{Verify: 20})
	other := submit(t, oc, queens.Spec{N: 8}, client.SubmitOptions{})
	for name, a := range map[string]client.Auth{"the worker's token as a bare token": {Token: wk}, "the worker's token as the operator": {User: queue.OperatorUser, Token: wk}} {
		if c, err := client.Connect(ctx, srv.URL(), client.ConnectOptions{Auth: a}); !errors.Is(err, client.ErrAuth) {
			if c != nil {
				c.Close()
			}
			t.Errorf("%s: %v, want it refused", name, err)
		}
	}
	// Workers count with theirs.
	var waits []func() (*Stats, error)
	for i := range 2 {
		wc, err := client.Connect(ctx, srv.URL(), client.ConnectOptions{Auth: client.Auth{User: queue.WorkerUser, Token: wk}, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		defer wc.Close()
		cfg := Config{Execution: queens.Execution{Workers: 1}, ID: fmt.Sprintf("r%d", i), ExitWhenIdle: true, Program: "test", Logf: t.Logf}
		waits = append(waits, goWork(ctx, wc, cfg))
	}
	for _, w := range waits {
		if _, err := w(); err != nil {
			t.Fatal(err)
		}
	}
	exact(t, status(t, oc, sub.Job))
	exact(t, status(t, oc, other.Job))
	// A worker cannot cancel a job nor purge the tasks.
	wc := connect(t, srv.URL(), client.Auth{User: queue.WorkerUser, Token: wk})
	short, stop := context.WithTimeout(ctx, 3*time.Second)
	defer stop()
	if _, err := wc.Cancel(short, other.Job); err == nil {
		t.Error("a worker cancelled a job")
	}
	// Through the retrying Cancel, the refusal is said at once, as one.
	began := time.Now()
	if _, err := wc.Cancel(ctx, other.Job); !errors.Is(err, client.ErrDenied) || time.Since(began) > 2**clientconn.AttemptWait {
		t.Errorf("a worker's Cancel: %v after %v, want ErrDenied at once", err, time.Since(began))
	}
	ts, err := jsOf(wc).Stream(ctx, queue.TasksStream)
	if err != nil {
		t.Fatal(err)
	}
	before := ts.CachedInfo().State.Msgs
	p2, stop2 := context.WithTimeout(ctx, 3*time.Second)
	defer stop2()
	if err := ts.Purge(p2, jetstream.WithPurgeSubject(layout.TaskPrefix+"."+other.Job+".>")); err == nil {
		t.Error("a worker purged a job's tasks")
	}
	if info, err := oc.Job(ctx, other.Job); err != nil || info.Cancelled != nil {
		t.Errorf("the job after a worker's cancel: %+v, %v", info, err)
	}
	ots, _ := jsOf(oc).Stream(ctx, queue.TasksStream)
	if after := ots.CachedInfo().State.Msgs; after != before {
		t.Errorf("the tasks stream held %d messages, %d after a worker's purge", before, after)
	}
	// The operator can.
	if _, err := oc.Cancel(ctx, other.Job); err != nil {
		t.Errorf("the operator's cancel: %v", err)
	}

	// Routes: a server showing the workers' token on its routes is not
	// let in; one with the routes' token is (64-bit builds: a 32-bit one
	// refuses clusters, see need64).
	if strconv.IntSize == 32 {
		t.Log("routes not tested: a 32-bit build refuses clusters (ErrCluster32)")
		return
	}
	aAddr, bAddr := freeAddr(t), freeAddr(t)
	cl := func(name, addr, routeToken string, routes []string) server.Config {
		return server.Config{Name: name, Listen: "127.0.0.1:0", HTTP: "127.0.0.1:0", ClusterListen: addr, DataDir: t.TempDir(), Token: op, WorkerToken: wk, RouteToken: routeToken, Routes: routes}
	}
	a := cl("a", aAddr, rt, []string{bAddr})
	sa, err := server.Serve(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer sa.Close()
	rogue := cl("rogue", freeAddr(t), "x"+wk, []string{aAddr})
	rogue.WorkerToken = "rogue-" + wk
	sr, err := server.Serve(ctx, rogue)
	if err != nil {
		t.Fatal(err)
	}
	defer sr.Close()
	b := cl("b", bAddr, rt, []string{aAddr})
	sb, err := server.Serve(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	until(t, "the server with the routes' token joins", func() bool { return numRoutes(t, sb) > 0 })
	time.Sleep(time.Second)
	if n := numRoutes(t, sr); n != 0 {
		t.Errorf("a server with another routes' token has %d routes", n)
	}
}

// rolesLiar counts an n = 11 job (--verify verify) on a server with
// roles with a liar (+2 on every count) and two honest workers, named
// liar, h1 and h2 (the liar counts first, see liarFirst), and returns the
// job's status once it is settled and the liar's end (it waits for it).
// before, when not nil, runs with a worker's client after the submit and
// before the workers start. Every worker has
// ended when it returns, before the test's clean-up restores rescueEvery.
func rolesLiar(t *testing.T, verify float64, before func(ctx context.Context, wc *client.Client, job string)) (*client.Status, error) {
	t.Helper()
	shorten(t, &rescueEvery, 200*time.Millisecond)
	const op, wk = "operator-token-0123456789", "worker-token-0123456789"
	srv := serve(t, server.Config{Token: op, WorkerToken: wk})
	oc := connect(t, srv.URL(), client.Auth{User: queue.OperatorUser, Token: op})
	sub := submit(t, oc, queens.Spec{N: 11}, client.SubmitOptions{Units: 40, Verify: verify, Seed: testSeed(t)})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	if before != nil {
		before(ctx, connect(t, srv.URL(), client.Auth{User: queue.WorkerUser, Token: wk}), sub.Job)
	}
	wctx, stop := context.WithCancel(ctx)
	var waits []func() (*Stats, error)
	defer func() {
		stop()
		for _, w := range waits {
			w()
		}
	}()
	for _, id := range []string{"liar", "h1", "h2"} {
		wc := connect(t, srv.URL(), client.Auth{User: queue.WorkerUser, Token: wk})
		cfg := Config{Execution: queens.Execution{Workers: 2}, ID: id, Program: "test", Logf: t.Logf}
		liar("liar")(&cfg)
		waits = append(waits, goWork(wctx, wc, cfg))
		if id != "liar" {
			continue
		}
		// The liar counts first: every task, or, named before it
		// starts, until it learns that it is (its first records).
		ended := make(chan struct{})
		go func(w func() (*Stats, error)) { w(); close(ended) }(waits[0])
		liarFirst(t, oc, sub.Job, func(s *client.Status, results int) bool {
			select {
			case <-ended:
				return true
			default:
			}
			if before != nil {
				return results > 0
			}
			return results >= s.Tasks
		})
	}
	s, err := oc.Wait(ctx, sub.Job, time.Second, nil)
	if err != nil {
		// What the job waits for, to tell a hang from a slow machine.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if st, serr := oc.Status(ctx, sub.Job); serr == nil {
			t.Logf("the job: %s; verify %+v; conflicts %+v; failed %+v", client.Summary(st), st.Verify, st.Conflicts, st.Failed)
		}
		t.Fatalf("wait: %v (%+v)", err, s)
	}
	liarDone := make(chan error, 1)
	go func() { _, err := waits[0](); liarDone <- err }()
	select {
	case err = <-liarDone:
	case <-time.After(30 * time.Second):
		err = errors.New("the liar did not set itself aside within 30 s")
	}
	return s, err
}

// On a server with roles a worker cannot write a job's record: the
// outvoted liar is named on the job's distrust subject instead, every
// reader leaves its results out, and the liar sets itself aside.
func TestRolesLiarOutvoted(t *testing.T) {
	s, liarErr := rolesLiar(t, 30, nil)
	exact(t, s)
	if len(s.Distrusted) != 1 || s.Distrusted[0].Worker != "liar" {
		t.Fatalf("distrusted %+v, want the liar named", s.Distrusted)
	}
	if !errors.Is(liarErr, ErrSetAside) {
		t.Errorf("the liar: %v, want it set aside", liarErr)
	}
}

// A worker named outvoted learns it late on a server with roles (its
// periodic look): the results it stores meanwhile come after the
// distrust's own pass, which could not ask for their recount, and the job
// waited for ever. Named before it counts anything, the liar must have
// each of its results counted again by others and set itself aside.
func TestRolesLateOutvoted(t *testing.T) {
	s, liarErr := rolesLiar(t, 100, func(ctx context.Context, wc *client.Client, job string) {
		named := queue.Distrust{Worker: "liar", Task: 0, Count: 3, Majority: 1, Agree: []string{"h1", "h2"}, Time: time.Now().UTC()}
		nothing := func(_ context.Context, _ string, task int, _ *queue.Plan, _ string, _ []string) (string, error) {
			return "", fmt.Errorf("recount of task %d asked with no results stored", task)
		}
		if err := clientconn.Of(wc).Distrust(ctx, job, []queue.Distrust{named}, nothing); err != nil {
			t.Fatal(err)
		}
	})
	exact(t, s)
	if !errors.Is(liarErr, ErrSetAside) {
		t.Errorf("the liar: %v, want it set aside", liarErr)
	}
}

// A worker's permissions are an allow-list: what it needs (counting,
// verifying, reporting, reading) works, as TestRoles shows, and anything
// else is refused, requests the queue never makes included: a peer's
// removal, a leader's stepdown, a message's deletion, the system account,
// a subject outside the queue's, and listening to the tasks or the jobs'
// records directly.
func TestWorkerAllowList(t *testing.T) {
	const op, wk = "operator-token-0123456789", "worker-token-0123456789"
	srv := serve(t, server.Config{Token: op, WorkerToken: wk})
	for _, c := range []struct{ subject, sub string }{
		{subject: "$JS.API.SERVER.REMOVE"},
		{subject: "$JS.API.META.LEADER.STEPDOWN"},
		{subject: "$JS.API.STREAM.MSG.DELETE." + queue.ResultsStream},
		{subject: "$JS.API.CONSUMER.DELETE." + queue.TasksStream + "." + queue.WorkConsumer},
		{subject: "$KV." + queue.JobsBucket + ".n8"},
		{subject: "$SYS.REQ.SERVER.PING"},
		{subject: "elsewhere.x"},
		{sub: "nqcount.>"},
		{sub: "$KV." + queue.JobsBucket + ".>"},
	} {
		denied := make(chan error, 1)
		nc, err := nats.Connect(srv.URL(), nats.UserInfo(queue.WorkerUser, wk), nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			if errors.Is(err, nats.ErrPermissionViolation) {
				select {
				case denied <- err:
				default:
				}
			}
		}))
		if err != nil {
			t.Fatal(err)
		}
		if c.sub != "" {
			_, err = nc.SubscribeSync(c.sub)
		} else {
			err = nc.Publish(c.subject, []byte("{}"))
		}
		if err == nil {
			err = nc.Flush()
		}
		if err != nil {
			t.Fatal(err)
		}
		select {
		case <-denied:
		case <-time.After(10 * time.Second):
			t.Errorf("a worker may publish %q / subscribe to %q", c.subject, c.sub)
		}
		nc.Close()
	}
}

// numRoutes returns the number of routes s has to other servers, as its
// monitoring endpoint (Config.HTTP) says.
func numRoutes(t testing.TB, s *server.Server) int {
	t.Helper()
	resp, err := http.Get(s.MonitorURL() + "/routez")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rz struct {
		NumRoutes int `json:"num_routes"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&rz); err != nil {
		t.Fatalf("%s/routez: %v", s.MonitorURL(), err)
	}
	return rz.NumRoutes
}
