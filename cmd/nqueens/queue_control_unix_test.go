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

	"github.com/nats-io/nats-server/v2/server"

	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/clitest"
)

// Submit right after serve, in README's order
// (serve &, then submit), failed with "the queue is not set up": the port
// answered before the streams existed. And against a NATS deployment of
// one's own, bare (nats-server -js: no stream, no bucket), submit failed
// until a worker had run. Every client sets the queue up now.
func TestQueueSubmitAnyServer(t *testing.T) {
	// A bare server with JetStream, as nats-server -js starts it (the
	// embedded server of the Go module is the same program).
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true, StoreDir: t.TempDir(), NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	defer ns.Shutdown()
	if !ns.ReadyForConnections(waitBound) {
		t.Fatal("the bare server did not start")
	}
	code, out, errs := runBin(t, "submit", "10", "--server", ns.ClientURL())
	if code != cli.ExitOK {
		t.Fatalf("submit to a bare nats-server -js: exit %d: %s", code, errs)
	}
	if code, _, errs := runBin(t, "work", "--server", ns.ClientURL(), "--exit-when-idle", "--workers", "2"); code != cli.ExitOK {
		t.Fatalf("work: %s", errs)
	}
	if code, out, errs := runBin(t, "wait", strings.TrimSpace(out), "--server", ns.ClientURL(), "--progress-every", "0"); code != cli.ExitOK || !strings.Contains(out, "724 solutions") {
		t.Fatalf("wait: exit %d, %q, %s", code, out, errs)
	}

	// serve, and submit at once: as soon as the port answers (submit
	// tried again each time it is refused a connection), submit works.
	port := freePort(t)
	url := fmt.Sprintf("nats://127.0.0.1:%d", port)
	serve := exec.Command(binary(t), "serve", "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--data", t.TempDir())
	serve.Stderr = &clitest.SyncBuffer{}
	exited := started(t, serve)
	defer func() { serve.Process.Signal(syscall.SIGTERM); waitExit(t, serve, exited) }()
	for end := time.Now().Add(waitBound); ; {
		code, _, errs := runBin(t, "submit", "9", "--server", url)
		if code == cli.ExitOK {
			break
		}
		if !strings.Contains(errs, "connection refused") && !strings.Contains(errs, "no servers available") || time.Now().After(end) {
			t.Fatalf("submit straight after serve: exit %d: %s", code, errs)
		}
	}
}

// Serve on a port
// in use hung silently (the error only with -v) and SIGINT did not stop
// it; two servers on one --data folder corrupted it; a one-character
// token protected a server on every interface.
func TestServeRefusals(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.Addr().String()
	for _, args := range [][]string{
		{"--listen", addr},
		{"--listen", "127.0.0.1:0", "--cluster-listen", addr},
		{"--listen", "127.0.0.1:0", "--http", addr},
	} {
		began := time.Now()
		code, out, errs := runBin(t, append([]string{"serve", "--data", t.TempDir()}, args...)...)
		if code != cli.ExitFail || out != "" || !strings.Contains(errs, "address already in use") || time.Since(began) > time.Minute {
			t.Errorf("serve %v on a port in use: exit %d after %v, %q, %q", args, code, time.Since(began), out, errs)
		}
		checkPrefixed(t, errs)
	}

	data := t.TempDir()
	first := startServe(t, "--listen", "127.0.0.1:0", "--data", data)
	code, out, errs := runBin(t, "serve", "--listen", "127.0.0.1:0", "--data", data)
	if code != cli.ExitFail || out != "" || !strings.Contains(errs, "in use by another server") {
		t.Errorf("a second server on one folder: exit %d, %q, %q", code, out, errs)
	}
	first.stop(t)
	// Once the first has stopped, the folder is free again.
	startServe(t, "--listen", "127.0.0.1:0", "--data", data).stop(t)

	for _, tok := range []string{"a", "short-token"} {
		code, out, errs := runBin(t, "serve", "--listen", "0.0.0.0:0", "--token", tok, "--data", t.TempDir())
		if code != cli.ExitUsage || out != "" || !strings.Contains(errs, "at least 16") {
			t.Errorf("--token %q: exit %d, %q, %q", tok, code, out, errs)
		}
	}
	// --http beyond loopback (a kubelet's probes of /healthz) takes a
	// token, and says so without one (with a token it was once
	// refused with "give --token"). Tests bind loopback only: the
	// address is TEST-NET-1's, which no machine has, so that accepted it
	// fails to bind.
	code, _, errs = runBin(t, "serve", "--listen", "127.0.0.1:0", "--http", "192.0.2.1:0", "--data", t.TempDir())
	if code != cli.ExitUsage || !strings.Contains(errs, "give --token") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("--http beyond loopback without a token: exit %d, %q", code, errs)
	}
	code, _, errs = runBin(t, "serve", "--listen", "127.0.0.1:0", "--http", "192.0.2.1:0", "--token", "a-token-of-sixteen+", "--data", t.TempDir())
	if code != cli.ExitFail || strings.Contains(errs, "give --token") || !strings.Contains(errs, "192.0.2.1") {
		t.Errorf("--http beyond loopback with a token: exit %d, %q (want it accepted, then not bound here)", code, errs)
	}
}

// Export --out replaced any file with exit 0. It
// follows count --out's rule now: a new file, an empty one or an export of
// the same job, or a link to one, written through; anything else is
// refused, untouched.
func TestQueueExportOut(t *testing.T) {
	dir := t.TempDir()
	srv := startServe(t, "--listen", "127.0.0.1:0", "--data", filepath.Join(dir, "data"))
	defer srv.stop(t)
	ids := map[int]string{}
	for _, n := range []int{8, 9} {
		code, out, errs := runBin(t, "submit", fmt.Sprint(n), "--server", srv.url)
		if code != cli.ExitOK {
			t.Fatalf("submit: %s", errs)
		}
		ids[n] = strings.TrimSpace(out)
	}
	if code, _, errs := runBin(t, "work", "--server", srv.url, "--exit-when-idle"); code != cli.ExitOK {
		t.Fatalf("work: %s", errs)
	}
	other := filepath.Join(dir, "other.json")
	if code, _, errs := runBin(t, "export", ids[9], "--server", srv.url, "--out", other); code != cli.ExitOK {
		t.Fatalf("export of n = 9: %s", errs)
	}
	shardFile := filepath.Join(dir, "shard.json")
	if code, _, errs := runBin(t, "count", "10", "--shard", "0/2", "--out", shardFile); code != cli.ExitOK {
		t.Fatal(errs)
	}
	notes := filepath.Join(dir, "notes.txt")
	journal := filepath.Join(dir, "j.journal")
	os.WriteFile(notes, []byte("my notes\n"), 0o644)
	os.WriteFile(journal, []byte("nqcount-journal/2 n=10\n"), 0o644)
	link := filepath.Join(dir, "link.json")
	os.Symlink(notes, link)
	dangling := filepath.Join(dir, "dangling.json")
	os.Symlink(filepath.Join(dir, "absent"), dangling)
	for _, path := range []string{notes, journal, shardFile, other, link, dangling, dir} {
		before, _ := os.ReadFile(path)
		code, out, errs := runBin(t, "export", ids[8], "--server", srv.url, "--out", path)
		after, _ := os.ReadFile(path)
		if code != cli.ExitUsage || out != "" || string(after) != string(before) {
			t.Errorf("export --out %s: exit %d, %q, %q; the file must stay as it was", filepath.Base(path), code, out, errs)
		}
		checkPrefixed(t, errs)
	}
	empty := filepath.Join(dir, "empty.json")
	os.WriteFile(empty, nil, 0o644)
	for range 2 { // an empty file, then the same job's export again
		if code, _, errs := runBin(t, "export", ids[8], "--server", srv.url, "--out", empty); code != cli.ExitOK {
			t.Errorf("export to %s: %s", empty, errs)
		}
	}
	if code, out, _ := runBin(t, "merge", empty); code != cli.ExitOK || !strings.Contains(out, "92 solutions") {
		t.Errorf("merge of the export: exit %d, %q", code, out)
	}
}

// Work --exit-when-idle retried an unreachable
// server for ever, burning a batch job's time; it gives up after
// --give-up-after, whether the server was never there or went away.
func TestWorkGivesUp(t *testing.T) {
	dead := fmt.Sprintf("nats://127.0.0.1:%d", freePort(t))
	began := time.Now()
	code, _, errs := runBin(t, "work", "--server", dead, "--exit-when-idle", "--give-up-after", "2s")
	if code != cli.ExitFail || !strings.Contains(errs, "no server reachable") || time.Since(began) > time.Minute {
		t.Errorf("work against no server: exit %d after %v, %q", code, time.Since(began), errs)
	}

	srv := startServe(t, "--listen", "127.0.0.1:0", "--data", t.TempDir())
	if code, _, errs := runBin(t, "submit", "16", "--server", srv.url, "--method", "constellations", "--depth", "1", "--units", "off"); code != cli.ExitOK {
		t.Fatal(errs)
	}
	work := exec.Command(binary(t), "work", "--server", srv.url, "--exit-when-idle", "--give-up-after", "2s", "--workers", "1")
	log := &clitest.SyncBuffer{}
	work.Stderr = log
	exited := started(t, work)
	time.Sleep(time.Second)
	srv.cmd.Process.Signal(syscall.SIGKILL)
	<-srv.exited
	killed := time.Now()
	waitExit(t, work, exited)
	if work.ProcessState.ExitCode() != cli.ExitFail || !strings.Contains(log.String(), "no server reachable") || time.Since(killed) > time.Minute {
		t.Errorf("work after its server died: %v after %v: %s", work.ProcessState, time.Since(killed), log)
	}
}

// jobs, cancel and requeue: a job cancelled mid-count leaves the queue
// (wait says so, exit 1; submitting it again is refused) and requeue
// resumes it to the exact total; a worker without the memory a join job
// needs has every task set aside, and wait exits 1 naming them, until
// requeue puts them back for a worker that has it.
func TestQueueJobControl(t *testing.T) {
	srv := startServe(t, "--listen", "127.0.0.1:0", "--data", t.TempDir(), "--max-deliver", "1")
	defer srv.stop(t)
	code, out, errs := runBin(t, "submit", "16", "--server", srv.url, "--method", "constellations", "--depth", "1", "--units", "off")
	if code != cli.ExitOK {
		t.Fatal(errs)
	}
	id := strings.TrimSpace(out)
	work := exec.Command(binary(t), "work", "--server", srv.url, "--workers", "1", "--id", "jc")
	log := &clitest.SyncBuffer{}
	work.Stderr = log
	workExited := started(t, work)
	waitFor(t, "the worker counts", func() bool {
		s, ok := jobsJSON(t, srv.url)
		return ok && len(s.Jobs) == 1 && s.Jobs[0].Counted > 100
	})
	if code, out, errs := runBin(t, "cancel", id, "--server", srv.url); code != cli.ExitOK || !strings.Contains(out, "cancelled") {
		t.Fatalf("cancel: exit %d, %q, %s", code, out, errs)
	}
	s, _ := jobsJSON(t, srv.url)
	if len(s.Jobs) != 1 || s.Jobs[0].State != "cancelled" || s.Jobs[0].Counted == s.Jobs[0].Tasks {
		t.Fatalf("jobs after cancel: %+v", s.Jobs)
	}
	// The worker stops counting it: the count stays where it is.
	time.Sleep(2 * time.Second)
	a, _ := jobsJSON(t, srv.url)
	time.Sleep(2 * time.Second)
	b, _ := jobsJSON(t, srv.url)
	if a.Jobs[0].Counted != b.Jobs[0].Counted {
		t.Errorf("a cancelled job is still counted: %d, then %d tasks", a.Jobs[0].Counted, b.Jobs[0].Counted)
	}
	if code, _, errs := runBin(t, "wait", id, "--server", srv.url, "--progress-every", "0"); code != cli.ExitFail || !strings.Contains(errs, "cancelled") {
		t.Errorf("wait on a cancelled job: exit %d, %q", code, errs)
	}
	if code, _, errs := runBin(t, "submit", "16", "--server", srv.url, "--method", "constellations", "--depth", "1", "--units", "off"); code != cli.ExitFail || !strings.Contains(errs, "requeue") {
		t.Errorf("submit of a cancelled job: exit %d, %q", code, errs)
	}
	if code, out, errs := runBin(t, "requeue", id, "--server", srv.url); code != cli.ExitOK || !strings.Contains(out, "resumed") {
		t.Fatalf("requeue: exit %d, %q, %s", code, out, errs)
	}
	code, out, errs = runBin(t, "wait", id, "--server", srv.url, "--json", "--progress-every", "0")
	var r jsonReport
	if code != cli.ExitOK || json.Unmarshal([]byte(out), &r) != nil || r.Total != 14772512 {
		t.Fatalf("wait after requeue: exit %d, %q, %s", code, out, errs)
	}
	work.Process.Signal(syscall.SIGTERM)
	waitExit(t, work, workExited)
	// Whether the worker held a task of the job when the cancel came is
	// timing (it may hold none between two fetches), so its saying so is
	// not required; that it stopped counting is, above.
	if !strings.Contains(log.String(), "cancelled") {
		t.Logf("the worker held no task of the cancelled job when it was cancelled: %s", log)
	}

	// A join job on a worker of 1 MiB: it counts
	// nothing, spends no delivery (max-deliver 1: nothing is set aside)
	// and, with --exit-when-idle, leaves the tasks to a worker with more
	// memory, saying so; status shows no failure.
	code, out, errs = runBin(t, "submit", "12", "--server", srv.url, "--units", "off")
	if code != cli.ExitOK {
		t.Fatal(errs)
	}
	jid := strings.TrimSpace(out)
	small := exec.Command(binary(t), "work", "--server", srv.url, "--memory", "1MiB", "--exit-when-idle", "--id", "small")
	smallLog := &clitest.SyncBuffer{}
	small.Stderr = smallLog
	waitExit(t, small, started(t, small))
	if l := smallLog.String(); !strings.Contains(l, "more than the 1 MiB allowed") || !strings.Contains(l, "tasks left in the queue that this worker cannot count") {
		t.Errorf("the small worker did not say why it left the tasks: %s", l)
	}
	code, out, errs = runBin(t, "status", jid, "--server", srv.url)
	if code != cli.ExitOK || strings.Contains(out, "failed") || strings.Contains(out, "set aside") {
		t.Fatalf("status after the small worker: exit %d, %q, %s", code, out, errs)
	}
	if code, _, errs := runBin(t, "work", "--server", srv.url, "--exit-when-idle"); code != cli.ExitOK {
		t.Fatalf("work: %s", errs)
	}
	code, out, errs = runBin(t, "wait", jid, "--server", srv.url, "--progress-every", "0")
	if code != cli.ExitOK || !strings.Contains(out, "14200 solutions") {
		t.Fatalf("wait after requeue: exit %d, %q, %s", code, out, errs)
	}
}

// Jobs and submit hung without a deadline while the
// queue could not answer. Against a server whose JetStream does not answer
// (here: a NATS server without JetStream, as a cluster without quorum
// answers), every one-shot command tries for --timeout, then fails in one
// line; against no server at all it fails at once.
func TestClientTimeout(t *testing.T) {
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	defer ns.Shutdown()
	if !ns.ReadyForConnections(waitBound) {
		t.Fatal("the server did not start")
	}
	dead := fmt.Sprintf("nats://127.0.0.1:%d", freePort(t))
	for _, c := range []struct {
		url  string
		args []string
		want string
	}{
		{ns.ClientURL(), []string{"jobs"}, "did not answer within 2s"},
		{ns.ClientURL(), []string{"submit", "9"}, "did not answer within 2s"},
		{ns.ClientURL(), []string{"status", "n9-x"}, "did not answer within 2s"},
		{dead, []string{"jobs"}, "no servers available"},
	} {
		args := append(c.args, "--server", c.url, "--timeout", "2s")
		began := time.Now()
		code, _, errs := runBin(t, args...)
		took := time.Since(began)
		lines := strings.Split(strings.TrimSpace(errs), "\n")
		if code != cli.ExitFail || len(lines) > 2 || !strings.Contains(lines[len(lines)-1], c.want) || took > 20*time.Second {
			t.Errorf("%v: exit %d after %v, %q: want exit 1 within about 2 s, saying %q in its last line", args, code, took.Round(time.Millisecond), errs, c.want)
		}
	}
}
