//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/clitest"
)

// queueServer is a running 'nqueens serve' process.
type queueServer struct {
	cmd    *exec.Cmd
	exited <-chan struct{}
	url    string
	stderr *clitest.SyncBuffer
}

// startServe starts nqueens serve on loopback and reads the URL it prints.
func startServe(t *testing.T, args ...string) *queueServer {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"serve"}, args...)...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &queueServer{cmd: cmd, stderr: &clitest.SyncBuffer{}}
	cmd.Stderr = s.stderr
	s.exited = started(t, cmd)
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		sc.Scan()
		line <- sc.Text()
		for sc.Scan() {
		}
	}()
	select {
	case s.url = <-line:
	case <-time.After(waitBound):
		t.Fatalf("serve printed no URL: %s", s.stderr)
	}
	if !strings.HasPrefix(s.url, "nats://127.0.0.1:") {
		t.Fatalf("serve printed %q, want a loopback URL; stderr: %s", s.url, s.stderr)
	}
	return s
}

func (s *queueServer) stop(t *testing.T) {
	t.Helper()
	s.cmd.Process.Signal(syscall.SIGTERM)
	waitExit(t, s.cmd, s.exited)
}

// queueStatus is the part of status --json the tests read.
type queueStatus struct {
	Tasks, Done int
	Complete    bool
	Total       *uint64
	Matches     *bool `json:"matches_known"`
	Workers     []struct {
		ID      string
		Held    []string
		Results int
	}
}

func jobStatus(t *testing.T, env []string, url, id string) queueStatus {
	t.Helper()
	cmd := exec.Command(binary(t), "status", id, "--server", url, "--json")
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	began := time.Now()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("status: %v after %v: %s", err, time.Since(began).Round(time.Millisecond), stderr.String())
	}
	var s queueStatus
	if err := json.Unmarshal(out, &s); err != nil {
		t.Fatalf("status --json: %v: %q", err, out)
	}
	return s
}

// A campaign through the queue, with everything that goes wrong in one:
// a server and three worker processes count n = 17 and 15; the second
// submit of a job adds nothing; a worker holding tasks is killed with
// SIGKILL (its tasks go to the others); the server is stopped and
// started again on the same folder mid-job (the workers reconnect); both
// totals come out exact, and the export passes merge's checks.
func TestQueueCampaign(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 0))
	dir := t.TempDir()
	env := append(os.Environ(), "NQCOUNT_TOKEN=campaign-token-0123456")
	// The token comes from the environment, for every process.
	os.Setenv("NQCOUNT_TOKEN", "campaign-token-0123456")
	defer os.Unsetenv("NQCOUNT_TOKEN")
	srv := startServe(t, "--listen", "127.0.0.1:0", "--data", filepath.Join(dir, "data"), "--ack-wait", "2s")
	url := srv.url

	jobs := map[int]string{}
	for _, n := range []int{17, 15, 17} {
		// One message per task, counted by backtracking: thousands of
		// small tasks, so that the jobs last long enough to kill a
		// worker and restart the server in the middle (grouped tasks
		// have TestQueueUnits).
		code, out, errs := runBin(t, "submit", fmt.Sprint(n), "--server", url, "--json", "--method", "constellations", "--units", "off")
		var sub struct {
			Job          string
			Tasks, Added int
			New          bool
		}
		if code != cli.ExitOK || json.Unmarshal([]byte(out), &sub) != nil {
			t.Fatalf("submit %d: exit %d, %q, %s", n, code, out, errs)
		}
		if id, again := jobs[n]; again {
			if sub.Job != id || sub.New || sub.Added != 0 {
				t.Fatalf("second submit of %d: %+v, want job %s, nothing added", n, sub, id)
			}
		} else if !sub.New || sub.Added != sub.Tasks {
			t.Fatalf("submit %d: %+v", n, sub)
		}
		jobs[n] = sub.Job
	}

	var cmds []*exec.Cmd
	var exits []<-chan struct{}
	var logs []*clitest.SyncBuffer
	startWorker := func(i int) {
		cmd := exec.Command(binary(t), "work", "--server", url, "--workers", "1", "--id", fmt.Sprintf("w%d", i), "--exit-when-idle")
		cmd.Env = env
		log := &clitest.SyncBuffer{}
		cmd.Stderr = log
		cmds, exits, logs = append(cmds, cmd), append(exits, started(t, cmd)), append(logs, log)
	}

	// The victim starts alone, so that the jobs cannot end before it is
	// seen holding a task however slowly status answers on a loaded
	// machine; it is killed once it has published results and holds a
	// task, and only then do the other two start (they count its tasks).
	const victim = 0
	startWorker(victim)
	name := fmt.Sprintf("w%d", victim)
	deadline := time.Now().Add(waitBound)
	var held []string
	for held == nil {
		if time.Now().After(deadline) {
			t.Fatalf("worker %s never reported holding a task; its stderr:\n%s", name, logs[victim])
		}
		time.Sleep(200 * time.Millisecond)
		results := 0
		var holds []string
		for _, id := range []string{jobs[15], jobs[17]} {
			s := jobStatus(t, env, url, id)
			if s.Complete && id == jobs[17] {
				t.Fatalf("n = 17 finished before %s was seen holding a task: the test needs a larger job", name)
			}
			for _, w := range s.Workers {
				if w.ID == name {
					results += w.Results
					holds = w.Held
				}
			}
		}
		if results > 0 && len(holds) > 0 {
			held = holds
		}
	}
	cmds[victim].Process.Signal(syscall.SIGKILL)
	<-exits[victim]
	t.Logf("killed %s holding %v", name, held)
	for i := 1; i < 3; i++ {
		startWorker(i)
	}

	// Stop the server mid-job and start it again on the same folder and
	// port: the workers reconnect and go on.
	s17 := jobStatus(t, env, url, jobs[17])
	if s17.Complete {
		t.Fatalf("n = 17 finished before the restart: the test needs a larger job")
	}
	srv.stop(t)
	time.Sleep(time.Duration(rng.IntN(1000)) * time.Millisecond)
	port := strings.TrimPrefix(url, "nats://127.0.0.1:")
	srv = startServe(t, "--listen", "127.0.0.1:"+port, "--data", filepath.Join(dir, "data"), "--ack-wait", "2s")
	if srv.url != url {
		t.Fatalf("restarted at %s, was %s", srv.url, url)
	}
	t.Logf("restarted the server with %d of %d tasks of n = 17 done", s17.Done, s17.Tasks)

	for n, id := range map[int]string{15: jobs[15], 17: jobs[17]} {
		code, out, errs := runBin(t, "wait", id, "--server", url, "--json", "--progress-every", "0")
		if code != cli.ExitOK {
			t.Fatalf("wait %d: exit %d: %s", n, code, errs)
		}
		var r struct {
			jsonReport
			Unique   uint64
			Complete bool
			Job      string
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("wait --json: %v: %q", err, out)
		}
		k, _ := queens.Known(n)
		if !r.Complete || r.Total != k || r.Matches == nil || !*r.Matches || r.Job != id || r.Unique == 0 {
			t.Errorf("n = %d: %+v, want complete with total %d", n, r, k)
		}
	}
	for i, c := range cmds {
		if i != victim {
			waitExit(t, c, exits[i])
			if !c.ProcessState.Success() {
				t.Errorf("worker w%d: %v; its stderr:\n%s", i, c.ProcessState, logs[i])
			}
		}
	}

	out := filepath.Join(dir, "q17.json")
	if code, _, errs := runBin(t, "export", jobs[17], "--server", url, "--out", out); code != cli.ExitOK {
		t.Fatalf("export: %s", errs)
	}
	code, stdout, errs := runBin(t, "merge", out)
	if code != cli.ExitOK || !strings.Contains(stdout, "95815104 solutions (matches OEIS") || !strings.Contains(errs, "records checked") {
		t.Errorf("merge of the export: exit %d, %q, %q", code, stdout, errs)
	}
	srv.stop(t)
}

// The tasks grouped into units, as submit does by default: the job's
// queue tasks are fewer than the plan's, each counted once, and the
// total, the export and merge's checks of it come out exact.
func TestQueueUnits(t *testing.T) {
	dir := t.TempDir()
	srv := startServe(t, "--listen", "127.0.0.1:0", "--data", filepath.Join(dir, "data"))
	defer srv.stop(t)
	for _, c := range []struct {
		n     int
		args  []string
		units int
	}{
		{15, nil, 16}, // the join, units by N
		{14, []string{"--method", "constellations"}, 16},    // backtracking
		{13, []string{"--units", "5", "--verify", "50"}, 5}, // few units, verified by a second worker
	} {
		code, out, errs := runBin(t, append([]string{"submit", fmt.Sprint(c.n), "--server", srv.url, "--json"}, c.args...)...)
		var sub struct {
			Job   string
			Tasks int
			Info  struct {
				Units     int
				PlanTasks int `json:"plan_tasks"`
			}
		}
		if code != cli.ExitOK || json.Unmarshal([]byte(out), &sub) != nil {
			t.Fatalf("submit %d %v: exit %d, %q, %s", c.n, c.args, code, out, errs)
		}
		if sub.Info.Units != c.units || sub.Tasks < c.units || sub.Tasks >= sub.Info.PlanTasks || !strings.HasSuffix(sub.Job, fmt.Sprintf("-u%d", c.units)) {
			t.Fatalf("submit %d %v: %+v, want about %d units of more plan tasks", c.n, c.args, sub, c.units)
		}
		for i := range 2 {
			if code, _, errs := runBin(t, "work", "--server", srv.url, "--workers", "2", "--id", fmt.Sprintf("u%d", i), "--exit-when-idle"); code != cli.ExitOK {
				t.Fatalf("work: exit %d: %s", code, errs)
			}
		}
		code, out, errs = runBin(t, "wait", sub.Job, "--server", srv.url, "--json", "--progress-every", "0")
		var r struct {
			jsonReport
			Complete  bool
			PlanTasks int `json:"plan_tasks"`
			Units     int
		}
		k, _ := queens.Known(c.n)
		if code != cli.ExitOK || json.Unmarshal([]byte(out), &r) != nil || !r.Complete || r.Total != k || r.Tasks != sub.Tasks ||
			r.PlanTasks != sub.Info.PlanTasks || r.Units != c.units {
			t.Fatalf("wait %d %v: exit %d, %q, %s", c.n, c.args, code, out, errs)
		}
		code, out, errs = runBin(t, "status", sub.Job, "--server", srv.url)
		if want := fmt.Sprintf("the plan's %d tasks in %d units", sub.Info.PlanTasks, sub.Tasks); code != cli.ExitOK || !strings.Contains(out, want) {
			t.Errorf("status %s: exit %d, %q (want it to say %q), %s", sub.Job, code, out, want, errs)
		}
		file := filepath.Join(dir, sub.Job+".json")
		if code, _, errs := runBin(t, "export", sub.Job, "--server", srv.url, "--out", file); code != cli.ExitOK {
			t.Fatalf("export: %s", errs)
		}
		code, stdout, errs := runBin(t, "merge", file)
		if code != cli.ExitOK || !strings.Contains(stdout, fmt.Sprintf("%d solutions (matches OEIS", k)) || !strings.Contains(errs, "records checked") {
			t.Errorf("merge of the export of %s: exit %d, %q, %q", sub.Job, code, stdout, errs)
		}
	}
}

// submit --wait submits and waits in one process: stdout has what wait
// prints (--json: count's fields), the job id goes to stderr.
func TestQueueSubmitWait(t *testing.T) {
	srv := startServe(t, "--listen", "127.0.0.1:0", "--data", filepath.Join(t.TempDir(), "data"))
	defer srv.stop(t)
	work := exec.Command(binary(t), "work", "--server", srv.url, "--workers", "2", "--id", "waiting")
	work.Stderr = &clitest.SyncBuffer{}
	started(t, work)
	for _, c := range []struct {
		n    int
		args []string
	}{
		{15, []string{"--json"}},
		{12, []string{"--method", "constellations", "--units", "off", "--json"}},
		{13, nil},
	} {
		code, out, errs := runBin(t, append([]string{"submit", fmt.Sprint(c.n), "--server", srv.url, "--wait", "--progress-every", "0"}, c.args...)...)
		k, _ := queens.Known(c.n)
		if code != cli.ExitOK || !strings.Contains(errs, "job ") {
			t.Fatalf("submit %d %v --wait: exit %d, %q, %s", c.n, c.args, code, out, errs)
		}
		if c.args == nil {
			if want := fmt.Sprintf("%d solutions", k); !strings.Contains(out, want) {
				t.Errorf("submit %d --wait printed %q, want it to say %q", c.n, out, want)
			}
			continue
		}
		var r struct {
			jsonReport
			Complete bool
			Job      string
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || !r.Complete || r.Total != k || !strings.Contains(errs, r.Job) {
			t.Errorf("submit %d %v --wait: %q (%v), stderr %s", c.n, c.args, out, err, errs)
		}
	}
}

// A wrong token is refused with a clear message; so is a server asked to
// listen beyond loopback without one.
func TestQueueRefusals(t *testing.T) {
	dir := t.TempDir()
	srv := startServe(t, "--listen", "127.0.0.1:0", "--data", filepath.Join(dir, "a"), "--token", "right-token-0123456")
	for _, tok := range []string{"wrong", ""} {
		code, _, errs := runBin(t, "status", "n8-00-a1", "--server", srv.url, "--token", tok)
		if code != cli.ExitFail || !strings.Contains(errs, "refused the credentials") {
			t.Errorf("token %q: exit %d, %q", tok, code, errs)
		}
		checkPrefixed(t, errs)
	}
	srv.stop(t)
	for _, listen := range []string{"0.0.0.0:0", ":0"} {
		code, out, errs := runBin(t, "serve", "--listen", listen, "--data", filepath.Join(dir, "b"))
		if code != cli.ExitUsage || out != "" || !strings.Contains(errs, "refusing to listen beyond loopback") {
			t.Errorf("serve --listen %s without a token: exit %d, %q, %q", listen, code, out, errs)
		}
	}
	if code, _, errs := runBin(t, "status", "not a job", "--server", "nats://127.0.0.1:1"); code != cli.ExitUsage {
		t.Errorf("a bad job id: exit %d, %q", code, errs)
	}
}

// Soak: trials of a count through the queue with two workers (n = 14 one
// task a message, and n = 17 in units, in turn), where at seeded moments
// a worker is killed with SIGKILL (and replaced) and the server is killed
// with SIGKILL and started again on its folder; every total must be
// exact. CI runs two trials, one of each; NQCOUNT_SOAK=20 runs 20.
func TestQueueSoak(t *testing.T) {
	trials := 2
	if v := os.Getenv("NQCOUNT_SOAK"); v != "" {
		if _, err := fmt.Sscan(v, &trials); err != nil || trials < 1 {
			t.Fatalf("NQCOUNT_SOAK=%q: want a number of trials", v)
		}
	}
	rng := rand.New(rand.NewPCG(testSeed(t), 1))
	for trial := range trials {
		dir := t.TempDir()
		data := filepath.Join(dir, "data")
		srv := startServe(t, "--listen", "127.0.0.1:0", "--data", data, "--ack-wait", "1s")
		url := srv.url
		port := strings.TrimPrefix(url, "nats://127.0.0.1:")
		// Every other trial, one message per task by backtracking, as in
		// TestQueueCampaign (n = 14 lasts long enough for the kills to
		// land in it), or n = 17 in 8 large units, so that the kills land
		// in units of tenths of a second.
		n, args, want := "14", []string{"--units", "off"}, uint64(365596)
		if trial%2 == 1 {
			n, args, want = "17", []string{"--units", "8"}, 95815104
		}
		code, id, errs := runBin(t, append([]string{"submit", n, "--server", url, "--method", "constellations"}, args...)...)
		if code != cli.ExitOK {
			t.Fatalf("submit: %s", errs)
		}
		id = strings.TrimSpace(id)
		workers := map[string]*exec.Cmd{}
		exits := map[string]<-chan struct{}{}
		spawn := func(name string) {
			cmd := exec.Command(binary(t), "work", "--server", url, "--workers", "1", "--id", name, "--exit-when-idle")
			cmd.Stderr = &clitest.SyncBuffer{}
			workers[name], exits[name] = cmd, started(t, cmd)
		}
		spawn("a")
		spawn("b")
		// One worker kill and one server kill, in a seeded order, each
		// after a seeded delay.
		killServerFirst := rng.IntN(2) == 0
		for step := range 2 {
			time.Sleep(time.Duration(200+rng.IntN(1500)) * time.Millisecond)
			if (step == 0) == killServerFirst {
				srv.cmd.Process.Signal(syscall.SIGKILL)
				<-srv.exited
				srv = startServe(t, "--listen", "127.0.0.1:"+port, "--data", data, "--ack-wait", "1s")
			} else {
				name := []string{"a", "b"}[rng.IntN(2)]
				workers[name].Process.Signal(syscall.SIGKILL)
				<-exits[name]
				spawn(name + "2")
			}
		}
		code, out, errs := runBin(t, "wait", id, "--server", url, "--json", "--progress-every", "0")
		var r jsonReport
		if code != cli.ExitOK || json.Unmarshal([]byte(out), &r) != nil || r.Total != want {
			t.Fatalf("trial %d (n = %s): exit %d, %q, %s", trial, n, code, out, errs)
		}
		t.Logf("trial %d (n = %s %v): exact (server killed %s)", trial, n, args, map[bool]string{true: "first", false: "second"}[killServerFirst])
		srv.stop(t)
		for name, c := range workers {
			c.Process.Kill()
			<-exits[name]
		}
	}
}
