package worker

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

// A server gone for good is removed from a cluster with roles by the
// operator: of three servers one is stopped and removed, the cluster's
// meta group says two, and a job submitted after is counted, verified
// and exact. A worker may not remove a server, and is told at once; a
// server that is up is not removed.
func TestRemovePeer(t *testing.T) {
	need64(t)
	const op, wk, rt = "operator-token-0123456789", "worker-token-0123456789", "route-token-0123456789"
	cfgs := make([]server.Config, 3)
	for i := range cfgs {
		cfgs[i] = server.Config{Name: fmt.Sprintf("s%d", i), Listen: "127.0.0.1:0", ClusterListen: freeAddr(t), DataDir: t.TempDir(),
			Token: op, WorkerToken: wk, RouteToken: rt, Settings: fast}
	}
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	srvs := serveCluster(t, ctx, cfgs)
	// Workers that were counting before the server stopped go on (a
	// worker that starts later needs three servers for its verify
	// consumer: the removed server's replacement).
	oc := connect(t, srvs[0].URL()+","+srvs[1].URL(), client.Auth{User: queue.OperatorUser, Token: op})
	wctx, stopWork := context.WithCancel(ctx)
	defer stopWork()
	var waits []func() (*Stats, error)
	for i := range 2 {
		c := connect(t, srvs[i].URL(), client.Auth{User: queue.WorkerUser, Token: wk})
		cfg := Config{Execution: queens.Execution{Workers: 1}, ID: fmt.Sprintf("w%d", i), Program: "test", Logf: t.Logf}
		waits = append(waits, goWork(wctx, c, cfg))
	}
	first := submit(t, oc, queens.Spec{N: 6}, client.SubmitOptions{Verify: 20})
	if _, err := oc.Wait(ctx, first.Job, 200*time.Millisecond, nil); err != nil {
		t.Fatal(err)
	}
	// A server that is up is not removed (by another, which has a route
	// to it, nor by itself: any server of the cluster may answer).
	if _, err := oc.RemovePeer(ctx, "s2"); !errors.Is(err, client.ErrPeer) || !strings.Contains(err.Error(), "is up") && !strings.Contains(err.Error(), "is the one answering") {
		t.Errorf("removing a server that is up: %v, want ErrPeer, up", err)
	}
	srvs[2].Close()
	url := srvs[0].URL() + "," + srvs[1].URL()

	wc := connect(t, url, client.Auth{User: queue.WorkerUser, Token: wk})
	began := time.Now()
	if _, err := wc.RemovePeer(ctx, "s2"); !errors.Is(err, client.ErrDenied) {
		t.Errorf("a worker removing a server: %v, want ErrDenied", err)
	} else if d := time.Since(began); d > 10*time.Second {
		t.Errorf("a worker's removal refused after %v", d)
	}

	if _, err := oc.RemovePeer(ctx, "nowhere"); !errors.Is(err, client.ErrPeer) {
		t.Errorf("removing a server that is not there: %v, want ErrPeer", err)
	}
	var out *queue.PeerRemoved
	var err error
	// The others may still be electing the meta group's leader.
	for range 20 {
		if out, err = oc.RemovePeer(ctx, "s2"); err == nil {
			break
		}
		t.Logf("removing s2: %v", err)
		time.Sleep(time.Second)
	}
	if err != nil {
		t.Fatal(err)
	}
	if out.Removed != "s2" || !slices.Equal(out.Peers, []string{"s0", "s1"}) {
		t.Fatalf("removed %q, peers %q; want s2 and [s0 s1]", out.Removed, out.Peers)
	}

	sub := submit(t, oc, queens.Spec{N: 8}, client.SubmitOptions{Verify: 20})
	wait, stop := context.WithTimeout(ctx, time.Minute)
	defer stop()
	st, err := oc.Wait(wait, sub.Job, 200*time.Millisecond, nil)
	if err != nil {
		if st != nil {
			t.Log(client.Summary(st))
		}
		cl, cerr := oc.Cluster(ctx)
		t.Logf("%+v %v", cl, cerr)
		t.Fatal(err)
	}
	exact(t, st)

	// Its replacement, a new server on an empty folder, joins: the
	// streams get their third copies back, and a worker that starts now
	// (its verify consumer has three copies too) counts.
	rcfg := server.Config{Name: "s3", Listen: "127.0.0.1:0", ClusterListen: freeAddr(t), DataDir: t.TempDir(),
		Token: op, WorkerToken: wk, RouteToken: rt, Settings: fast}
	rcfg.Routes = []string{rcfg.ClusterListen, cfgs[0].ClusterListen, cfgs[1].ClusterListen}
	s3, err := server.Serve(ctx, rcfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s3.Close)
	until(t, "the streams have three current copies again", func() bool {
		cl, err := oc.Cluster(ctx)
		if err != nil || !cl.Current() {
			return false
		}
		for _, st := range cl.Streams {
			if len(st.Replicas) != 3 {
				return false
			}
		}
		return true
	})
	late := connect(t, s3.URL(), client.Auth{User: queue.WorkerUser, Token: wk})
	if _, err := Work(ctx, late, Config{Execution: queens.Execution{Workers: 1}, ID: "late", ExitWhenIdle: true, Program: "test", Logf: t.Logf}); err != nil {
		t.Fatalf("a worker started after the replacement joined: %v", err)
	}
	stopWork()
	for _, w := range waits {
		if _, err := w(); err != nil && !errors.Is(err, context.Canceled) {
			t.Fatal(err)
		}
	}
}
