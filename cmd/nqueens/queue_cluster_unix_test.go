//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/clitest"
)

// freePort returns a loopback port nobody listens on now (other
// engineers' tests run beside these: a port chosen by the system, then
// given back, is as free as a fixed port can be).
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// clusterServer is one server of a test cluster: its arguments, to start
// it again on the same folder and ports.
type clusterServer struct {
	args []string
	srv  *queueServer
}

// jobsState is the part of jobs --json the tests read.
type jobsState struct {
	Jobs []struct {
		Job     string `json:"job"`
		Counted int    `json:"counted"`
		Tasks   int    `json:"tasks"`
		Failed  int    `json:"failed"`
		State   string `json:"state"`
	} `json:"jobs"`
	Cluster client.ClusterState `json:"cluster"`
}

func jobsJSON(t *testing.T, url string) (jobsState, bool) {
	t.Helper()
	var s jobsState
	code, out, _ := runBin(t, "jobs", "--server", url, "--json")
	if code != cli.ExitOK || json.Unmarshal([]byte(out), &s) != nil {
		return s, false
	}
	return s, true
}

// waitFor polls cond every 200 ms until it holds, at most waitBound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(waitBound); !cond(); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%s: not within %v", what, waitBound)
		}
	}
}

// A cluster: three servers (nqueens serve --cluster-listen
// --routes) and two workers that know all three count n = 17 exactly
// while one server, then another, is killed with SIGKILL mid-job and
// started again on its folder; the restarted servers catch up (every
// replica current at the end).
func TestQueueCluster(t *testing.T) {
	dir := t.TempDir()
	os.Setenv("NQCOUNT_TOKEN", "cluster-test-token-0123456789")
	defer os.Unsetenv("NQCOUNT_TOKEN")
	var client, routes []string
	ports := make([][2]int, 3)
	for i := range ports {
		ports[i] = [2]int{freePort(t), freePort(t)}
		client = append(client, fmt.Sprintf("nats://127.0.0.1:%d", ports[i][0]))
		routes = append(routes, fmt.Sprintf("127.0.0.1:%d", ports[i][1]))
	}
	urls := strings.Join(client, ",")
	servers := make([]*clusterServer, 3)
	for i := range servers {
		servers[i] = &clusterServer{args: []string{
			"--listen", fmt.Sprintf("127.0.0.1:%d", ports[i][0]), "--cluster-listen", routes[i],
			"--routes", strings.Join(routes, ","), "--name", fmt.Sprintf("s%d", i),
			"--data", filepath.Join(dir, fmt.Sprint(i)), "--ack-wait", "3s",
		}}
		servers[i].srv = startServe(t, servers[i].args...)
	}
	defer func() {
		for _, s := range servers {
			if s.srv != nil {
				s.srv.stop(t)
			}
		}
	}()
	current := func() bool {
		s, ok := jobsJSON(t, urls)
		return ok && s.Cluster.Current() && len(s.Cluster.Streams) == 5 && len(s.Cluster.Streams[0].Replicas) == 3
	}
	waitFor(t, "the cluster sets up the queue with three replicas", current)

	// Many small tasks (49726), so that the job outlasts two server
	// kills.
	code, out, errs := runBin(t, "submit", "17", "--server", urls, "--method", "constellations", "--depth", "1", "--units", "off")
	if code != cli.ExitOK {
		t.Fatalf("submit: exit %d: %s", code, errs)
	}
	id := strings.TrimSpace(out)
	for i := range 2 {
		cmd := exec.Command(binary(t), "work", "--server", urls, "--workers", "1", "--id", fmt.Sprintf("cw%d", i))
		cmd.Stderr = &clitest.SyncBuffer{}
		started(t, cmd)
	}
	counted := func(urls string) int {
		s, ok := jobsJSON(t, urls)
		if !ok || len(s.Jobs) != 1 {
			return -1
		}
		return s.Jobs[0].Counted
	}
	total := 0
	waitFor(t, "the workers count", func() bool {
		s, ok := jobsJSON(t, urls)
		if ok && len(s.Jobs) == 1 {
			total = s.Jobs[0].Tasks
		}
		return total > 0 && counted(urls) >= total/50
	})
	for _, victim := range []int{0, 1} {
		before := counted(urls)
		// The kill must leave room for the other two servers to be seen
		// counting on (total/50 more); on a fast machine the first
		// server's restart and catch-up take much of the job.
		if before > total-total/25 {
			t.Fatalf("%d of %d tasks were done before server s%d was killed: the test needs a longer job", before, total, victim)
		}
		s := servers[victim]
		s.srv.cmd.Process.Signal(syscall.SIGKILL)
		<-s.srv.exited
		s.srv = nil
		// The other two go on: the workers count while it is gone. (Asked
		// of the live servers only: a client that tries the dead one
		// first waits for it, and the job runs on meanwhile.)
		var live []string
		for i, c := range client {
			if i != victim {
				live = append(live, c)
			}
		}
		liveURLs := strings.Join(live, ",")
		waitFor(t, fmt.Sprintf("counting goes on without s%d", victim), func() bool { return counted(liveURLs) >= before+total/50 })
		t.Logf("server s%d killed at %d of %d tasks; %d counted without it", victim, before, total, counted(liveURLs))
		s.srv = startServe(t, s.args...)
		waitFor(t, fmt.Sprintf("s%d catches up", victim), current)
	}
	code, out, errs = runBin(t, "wait", id, "--server", urls, "--json", "--progress-every", "0")
	var r jsonReport
	if code != cli.ExitOK || json.Unmarshal([]byte(out), &r) != nil || r.Total != 95815104 || r.Matches == nil || !*r.Matches {
		t.Fatalf("wait: exit %d, %q, %s", code, out, errs)
	}
	waitFor(t, "every replica current at the end", current)
}

// remove-peer is the operator's: a worker's token is refused at once; on
// a server alone (no cluster, so no peers) the operator is told what it
// takes; a call without a server's name is a usage error. (The removal
// itself, of a stopped server of three, is tested in the queue's
// packages.)
func TestClusterRemovePeerRefused(t *testing.T) {
	dir := t.TempDir()
	op, wk := filepath.Join(dir, "operator.token"), filepath.Join(dir, "worker.token")
	for f, tok := range map[string]string{op: "operator-token-0123456789", wk: "worker-token-0123456789"} {
		if err := os.WriteFile(f, []byte(tok), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	srv := startServe(t, "--listen", "127.0.0.1:0", "--data", filepath.Join(dir, "data"), "--token-file", op, "--worker-token-file", wk)
	defer srv.stop(t)
	began := time.Now()
	code, _, errs := runBin(t, "remove-peer", "s2", "--server", srv.url, "--user", "worker", "--token-file", wk)
	if code != cli.ExitFail || !strings.Contains(errs, "refused") {
		t.Errorf("a worker's remove-peer: exit %d, %s", code, errs)
	}
	if d := time.Since(began); d > 15*time.Second {
		t.Errorf("a worker's remove-peer refused after %v", d)
	}
	code, _, errs = runBin(t, "remove-peer", "s2", "--server", srv.url, "--user", "operator", "--token-file", op)
	if code != cli.ExitFail || !strings.Contains(errs, "no server answers the removal of peers") {
		t.Errorf("remove-peer on a server alone: exit %d, %s", code, errs)
	}
	if code, _, errs := runBin(t, "remove-peer", "--server", srv.url, "--user", "operator", "--token-file", op); code != cli.ExitUsage {
		t.Errorf("remove-peer without a name: exit %d, %s", code, errs)
	}
}
