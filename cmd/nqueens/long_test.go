package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/shard"
	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/clitest"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

// binary builds nqueens once for the tests that run it as a process.
func binary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "nqueens-test")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "nqueens")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// runBin runs the binary to completion.
func runBin(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd := exec.Command(binary(t), args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

type jsonReport struct {
	Total        uint64   `json:"total"`
	Tasks        int      `json:"tasks"`
	ResumedTasks int      `json:"resumed_tasks"`
	Matches      *bool    `json:"matches_known"`
	Warnings     []string `json:"warnings"`
}

func decode(t *testing.T, out string) jsonReport {
	t.Helper()
	var r jsonReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v: %q", err, out)
	}
	return r
}

// testSeed returns the seed of a randomised test: NQCOUNT_TEST_SEED if
// set, else a fixed one, logged so that a failure can be replayed.
func testSeed(t *testing.T) uint64 {
	t.Helper()
	s := uint64(1)
	if v := os.Getenv("NQCOUNT_TEST_SEED"); v != "" {
		var err error
		if s, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("NQCOUNT_TEST_SEED=%q: %v", v, err)
		}
	}
	t.Logf("seed %d (set NQCOUNT_TEST_SEED to replay another)", s)
	return s
}

// waitBound bounds every wait of the process tests: far beyond what a
// loaded machine needs, it only stops a test that would hang.
const waitBound = 3 * time.Minute

// journalState reads a journal being written: its number of tasks (0 if
// the header is not complete yet) and of records.
func journalState(path string) (tasks, records int) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0
	}
	lines := strings.SplitAfter(string(b), "\n")
	for i, l := range lines {
		if n, ok := strings.CutPrefix(l, "tasks "); ok {
			tasks, _ = strconv.Atoi(strings.TrimSpace(n))
		}
		if strings.HasPrefix(l, "header ") {
			for _, r := range lines[i+1:] {
				if strings.HasSuffix(r, "\n") {
					records++
				}
			}
			return tasks, records
		}
	}
	return 0, 0
}

// journalWatch follows a journal being written, reading only what was
// appended since the last poll.
type journalWatch struct {
	path           string
	off            int64
	partial        []byte
	tasks, records int
	pastHeader     bool
}

func (w *journalWatch) poll() {
	f, err := os.Open(w.path)
	if err != nil {
		return
	}
	defer f.Close()
	if _, err := f.Seek(w.off, io.SeekStart); err != nil {
		return
	}
	b, _ := io.ReadAll(f)
	w.off += int64(len(b))
	data := append(w.partial, b...)
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		line := string(data[:i])
		data = data[i+1:]
		switch {
		case w.pastHeader:
			w.records++
		case strings.HasPrefix(line, "tasks "):
			w.tasks, _ = strconv.Atoi(strings.TrimPrefix(line, "tasks "))
		case strings.HasPrefix(line, "header "):
			w.pastHeader = true
		}
	}
	w.partial = append([]byte(nil), data...)
}

// waitRecords waits until the journal of a running process holds at
// least min records, or the process has ended; it returns the number of
// tasks of the journal.
func waitRecords(t *testing.T, w *journalWatch, min int, exited <-chan struct{}) int {
	t.Helper()
	deadline := time.Now().Add(waitBound)
	for {
		w.poll()
		if w.pastHeader && w.records >= min {
			return w.tasks
		}
		select {
		case <-exited:
			w.poll()
			return w.tasks
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d of %d records after %v", w.path, w.records, min, waitBound)
		}
	}
}

// started runs cmd and returns a channel closed when it has exited.
func started(t *testing.T, cmd *exec.Cmd) <-chan struct{} {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	return exited
}

// waitExit waits for the process to end, at most waitBound.
func waitExit(t *testing.T, cmd *exec.Cmd, exited <-chan struct{}) {
	t.Helper()
	select {
	case <-exited:
	case <-time.After(waitBound):
		cmd.Process.Kill()
		t.Fatalf("%v still running after %v", cmd.Args, waitBound)
	}
}

// SIGKILL at seeded moments never costs more than the running tasks: the
// resumed count is always exact, and finished tasks are skipped. The kills
// are placed by the journal's progress (after a seeded number of records),
// not by the clock, so a loaded machine places them the same way.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := binary(t)
	rng := rand.New(rand.NewPCG(testSeed(t), 1))
	for trial := 0; trial < 6; trial++ {
		path := filepath.Join(t.TempDir(), "j")
		args := []string{"count", "16", "--depth", "1", "--workers", "1", "--checkpoint", path, "--json"}
		var killedAt []int
		for kills := 0; kills < 2; kills++ {
			tasks, have := journalState(path)
			if tasks > 0 && have >= tasks-1 {
				break
			}
			cmd := exec.Command(bin, args...)
			exited := started(t, cmd)
			w := &journalWatch{path: path}
			if tasks == 0 {
				tasks = waitRecords(t, w, 0, exited)
			}
			at := have + 1 + rng.IntN(tasks-1-have)
			waitRecords(t, w, at, exited)
			cmd.Process.Signal(syscall.SIGKILL)
			<-exited
			killedAt = append(killedAt, at)
		}
		_, recorded := journalState(path)
		code, out, errs := runBin(t, args...)
		if code != cli.ExitOK {
			t.Fatalf("trial %d: resume exit %d: %s", trial, code, errs)
		}
		r := decode(t, out)
		if r.Total != 14772512 || r.Matches == nil || !*r.Matches {
			t.Fatalf("trial %d (killed after %v records): total %d", trial, killedAt, r.Total)
		}
		if r.ResumedTasks != recorded || recorded == 0 {
			t.Fatalf("trial %d: resumed %d tasks, the journal held %d", trial, r.ResumedTasks, recorded)
		}
		t.Logf("trial %d: killed after %v records, resumed %d of %d tasks", trial, killedAt, r.ResumedTasks, r.Tasks)
	}
}

// Ctrl-C stops cleanly with 130, prints the resume command, and the
// journal resumes to the right total.
func TestInterruptAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := binary(t)
	rng := rand.New(rand.NewPCG(testSeed(t), 2))
	path := filepath.Join(t.TempDir(), "j")
	args := []string{"count", "17", "--workers", "1", "--checkpoint", path}
	cmd := exec.Command(bin, args...)
	var errb clitest.SyncBuffer
	cmd.Stderr = &errb
	exited := started(t, cmd)
	// The journal exists once the signal handler is in place; interrupt
	// after a seeded number of its first tasks.
	w := &journalWatch{path: path}
	tasks := waitRecords(t, w, 0, exited)
	waitRecords(t, w, 1+rng.IntN(max(tasks/32, 1)), exited)
	cmd.Process.Signal(os.Interrupt)
	waitExit(t, cmd, exited)
	if code := cmd.ProcessState.ExitCode(); code != cli.ExitInterrupted {
		t.Fatalf("exit %d, want %d: %s", code, cli.ExitInterrupted, errb.String())
	}
	if want := "resume with:\n  " + bin + " count 17 --workers 1 --checkpoint " + path; !strings.Contains(errb.String(), want) {
		t.Errorf("stderr %q lacks %q", errb.String(), want)
	}
	for _, want := range []string{"nqueens: stopping: finished tasks are recorded in " + path, "abandoned and counted again on resume", "nqueens: interrupted: "} {
		if !strings.Contains(errb.String(), want) {
			t.Errorf("stderr %q lacks %q", errb.String(), want)
		}
	}
	code, out, errs := runBin(t, append(args, "--json", "--workers", "2")...)
	if code != cli.ExitOK {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	if r := decode(t, out); r.Total != 95815104 || r.ResumedTasks == 0 {
		t.Fatalf("resume: %+v", r)
	}
}

// A second Ctrl-C ends the process at once, without waiting for the
// running tasks; the journal stays valid. Halving at depth 1 on n = 22
// makes tasks of many minutes: if neither Ctrl-C ended the run, it would
// outlast the test's bound. (With an engine that abandons running tasks on
// the first Ctrl-C, the run may also end with 130 before the second.)
func TestSecondInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	path := filepath.Join(t.TempDir(), "j")
	cmd := exec.Command(binary(t), "count", "22", "--method", "halving", "--depth", "1", "--workers", "1", "--checkpoint", path)
	var errb clitest.SyncBuffer
	cmd.Stderr = &errb
	exited := started(t, cmd)
	waitRecords(t, &journalWatch{path: path}, 0, exited) // the signal handler is in place
	cmd.Process.Signal(os.Interrupt)
	deadline := time.Now().Add(waitBound)
	const notice = "Ctrl-C again quits at once"
	ended := false // by the first Ctrl-C alone, the running task abandoned
	for !ended && !strings.Contains(errb.String(), notice) {
		select {
		case <-exited:
			// The notice and the exit may both come within one poll.
			if !strings.Contains(errb.String(), notice) {
				t.Fatalf("ended before the stopping notice: %v: %q", cmd.ProcessState, errb.String())
			}
			ended = true
		case <-time.After(2 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no stopping notice after %v: %q", waitBound, errb.String())
		}
	}
	if !ended {
		cmd.Process.Signal(os.Interrupt)
		waitExit(t, cmd, exited)
	}
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !(ws.Signaled() && ws.Signal() == syscall.SIGINT) && ws.ExitStatus() != cli.ExitInterrupted {
		t.Errorf("process neither died of the second SIGINT nor stopped with 130: %v; stderr %q", cmd.ProcessState, errb.String())
	}
	b, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(b), "nqcount-journal v1\n") || !strings.Contains(string(b), "\nheader ") {
		t.Errorf("journal damaged: %q", b)
	}
}

// Journals are repaired when torn at the end, refused when damaged in the
// middle or written by another run.
func TestCheckpointJournalDamage(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "j")
	if code, _, errs := runCLI("count", "12", "--checkpoint", path, "--workers", "2"); code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	good, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(good), "\n")
	_, nrec := journalState(path)

	// Torn last record: dropped with a warning, recounted.
	os.WriteFile(path, append(append([]byte{}, good...), "123 45"...), 0o644)
	code, out, errs := runCLI("count", "12", "--checkpoint", path, "--json")
	if r := decode(t, out); code != cli.ExitOK || r.Total != 14200 || r.ResumedTasks != nrec || len(r.Warnings) != 1 || !strings.Contains(errs, "torn") {
		t.Fatalf("torn: exit %d, %+v, %s", code, r, errs)
	}
	// A torn record that was a real one: that task is recounted.
	os.WriteFile(path, good[:len(good)-5], 0o644)
	code, out, errs = runCLI("count", "12", "--checkpoint", path, "--json")
	if r := decode(t, out); code != cli.ExitOK || r.Total != 14200 || r.ResumedTasks != nrec-1 {
		t.Fatalf("torn real record: exit %d, %+v, %s", code, r, errs)
	}

	// Edited in the middle: refused, file untouched.
	bad := strings.Join(lines[:12], "") + strings.Replace(lines[12], " ", "1 ", 1) + strings.Join(lines[13:], "")
	os.WriteFile(path, []byte(bad), 0o644)
	code, out, errs = runCLI("count", "12", "--checkpoint", path)
	if code != cli.ExitFail || out != "" || !strings.Contains(errs, "journal is corrupt") {
		t.Fatalf("corrupt: exit %d, %q, %q", code, out, errs)
	}
	if b, _ := os.ReadFile(path); string(b) != bad {
		t.Fatal("refused journal was modified")
	}

	// Another run.
	os.WriteFile(path, good, 0o644)
	for _, args := range [][]string{
		{"count", "13", "--checkpoint", path},
		{"count", "12", "--depth", "2", "--checkpoint", path},
		{"count", "12", "--method", "halving", "--checkpoint", path},
		{"count", "12", "--shard", "0/2", "--out", filepath.Join(dir, "o.json"), "--checkpoint", path},
	} {
		code, out, errs := runCLI(args...)
		if code != cli.ExitFail || out != "" || !strings.Contains(errs, "belongs to another run") {
			t.Errorf("%v: exit %d, %q, %q", args, code, out, errs)
		}
	}
	// Not a journal.
	notes := filepath.Join(dir, "notes")
	os.WriteFile(notes, []byte("my notes\n"), 0o644)
	if code, _, errs := runCLI("count", "8", "--checkpoint", notes); code != cli.ExitFail || !strings.Contains(errs, "not a checkpoint journal") {
		t.Errorf("notes: exit %d, %q", code, errs)
	}
}

// A checkpointed run's tasks do not depend on --workers.
func TestCheckpointWorkersIndependent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	if code, _, errs := runCLI("count", "11", "--checkpoint", path, "--workers", "1"); code != cli.ExitOK {
		t.Fatal(errs)
	}
	code, out, errs := runCLI("count", "11", "--checkpoint", path, "--workers", "7", "--json", "--unique")
	if r := decode(t, out); code != cli.ExitOK || r.ResumedTasks != r.Tasks || r.Total != 2680 {
		t.Fatalf("exit %d %+v %s", code, r, errs)
	}
	if !strings.Contains(out, `"unique":341`) {
		t.Errorf("unique missing: %s", out)
	}
}

func TestProgressLines(t *testing.T) {
	code, out, errs := runCLI("count", "13", "--progress", "on", "--progress-every", "1ms", "--workers", "1")
	if code != cli.ExitOK || !strings.Contains(out, "73712") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	last := strings.Split(strings.TrimSpace(errs), "\n")
	if l := last[len(last)-1]; !strings.HasPrefix(l, "progress: ") || !strings.Contains(l, "/") || !strings.Contains(l, "(100.0%)") || !strings.Contains(l, "nodes/s") {
		t.Errorf("final progress line %q", l)
	}
	if _, _, errs := runCLI("count", "10"); strings.Contains(errs, "progress") {
		t.Errorf("auto progress on a short run: %q", errs)
	}
	if _, _, errs := runCLI("count", "12", "--progress", "off", "--progress-every", "1ms"); errs != "" {
		t.Errorf("progress off: %q", errs)
	}
}

func TestLongFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"count", "8", "--progress", "loud"}, "--progress"},
		{[]string{"count", "8", "--shard", "3/3", "--out", "x"}, "0 <= I < K"},
		{[]string{"count", "8", "--shard", "1/2"}, "--out"},
		{[]string{"count", "8", "--out", "x"}, "--shard"},
		{[]string{"count", "8", "--shard", "a/b", "--out", "x"}, "I/K"},
		{[]string{"count", "8", "--shard", "1/2", "--shards", "3", "--out", "x"}, "disagree"},
		{[]string{"merge"}, "shard result files"},
	} {
		code, out, errs := runCLI(tc.args...)
		if code != cli.ExitUsage || out != "" || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: exit %d, %q, want usage error with %q", tc.args, code, errs, tc.msg)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{"a": "a", "--out=x.json": "--out=x.json", "my file": "'my file'", "it's": `'it'\''s'`, "": "''"} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// K shards as separate processes merge to the exact total; missing,
// duplicated and foreign shards are caught.
func TestShardsAndMerge(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := binary(t)
	dir := t.TempDir()
	const k = 3
	files := make([]string, k)
	cmds := make([]*exec.Cmd, k)
	for i := range cmds {
		files[i] = filepath.Join(dir, fmt.Sprintf("s%d.json", i))
		cmds[i] = exec.Command(bin, "count", "13", "--shard", fmt.Sprintf("%d/%d", i, k), "--out", files[i], "--workers", "1")
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("shard %d: %v", i, err)
		}
	}
	code, out, errs := runCLI(append([]string{"merge", "--json", "--unique"}, files...)...)
	if !strings.Contains(out, `"total":73712`) || !strings.Contains(out, `"unique":9233`) || !strings.Contains(out, `"matches_known":true`) || code != cli.ExitOK {
		t.Fatalf("merge: exit %d: %s %s", code, out, errs)
	}
	code, out, _ = runCLI(append([]string{"merge"}, files...)...)
	if code != cli.ExitOK || !strings.Contains(out, "n = 13: 73712 solutions (matches OEIS A000170)") {
		t.Fatalf("merge: exit %d: %s", code, out)
	}
	// Duplicate, identical: warning.
	code, _, errs = runCLI("merge", files[0], files[1], files[2], files[1])
	if code != cli.ExitOK || !strings.Contains(errs, "shard 1 is given twice with identical results") {
		t.Errorf("identical duplicate: exit %d, %q", code, errs)
	}
	// Missing.
	code, out, errs = runCLI("merge", files[0], files[2])
	if code != cli.ExitFail || out != "" || !strings.Contains(errs, "1 of 3 shards has no result file: 1") {
		t.Errorf("missing: exit %d, %q", code, errs)
	}
	// Duplicate, conflicting.
	f, err := shard.Read(files[1])
	if err != nil {
		t.Fatal(err)
	}
	f.Results[0].Count++
	other := filepath.Join(dir, "other.json")
	shard.Write(other, f)
	code, _, errs = runCLI("merge", files[0], files[1], files[2], other)
	if code != cli.ExitFail || !strings.Contains(errs, "shard 1 is given twice with different results") {
		t.Errorf("conflicting duplicate: exit %d, %q", code, errs)
	}
	// A shard edited consistently (its checksums and total redone) passes
	// every check a file can carry: the OEIS catches it, and the message
	// says the files were edited, not that the program is wrong.
	code, _, errs = runCLI("merge", files[0], other, files[2])
	if code != cli.ExitFail || !strings.Contains(errs, "disagrees with the OEIS: the result files were edited or damaged") || strings.Contains(errs, "bug") {
		t.Errorf("edited consistently: exit %d, %q", code, errs)
	}
	// Different runs.
	if code, _, errs := runCLI("count", "12", "--shard", "1/3", "--out", other); code != cli.ExitUsage || !strings.Contains(errs, "holds shard 1/3 of another run") {
		t.Errorf("--out over another run's shard: exit %d, %q", code, errs)
	}
	other12 := filepath.Join(dir, "other12.json")
	runCLI("count", "12", "--shard", "1/3", "--out", other12)
	code, _, errs = runCLI("merge", files[0], other12, files[2])
	if code != cli.ExitFail || !strings.Contains(errs, "belong to different runs") {
		t.Errorf("other run: exit %d, %q", code, errs)
	}
	// Not a shard file.
	os.WriteFile(other, []byte("{}"), 0o644)
	if code, _, errs = runCLI("merge", files[0], other); code != cli.ExitFail || !strings.Contains(errs, "not a shard result file") {
		t.Errorf("foreign file: exit %d, %q", code, errs)
	}
}

// A shard with a checkpoint resumes like a whole run.
func TestShardCheckpoint(t *testing.T) {
	dir := t.TempDir()
	j, out := filepath.Join(dir, "j"), filepath.Join(dir, "s.json")
	args := []string{"count", "12", "--shard", "1/2", "--out", out, "--checkpoint", j, "--json"}
	if code, _, errs := runCLI(args...); code != cli.ExitOK {
		t.Fatal(errs)
	}
	first, _ := shard.Read(out)
	code, o, errs := runCLI(args...)
	if r := decode(t, o); code != cli.ExitOK || r.ResumedTasks == 0 || r.ResumedTasks != r.Tasks {
		t.Fatalf("exit %d %+v %s", code, r, errs)
	}
	second, _ := shard.Read(out)
	if first.Total != second.Total || len(first.Results) != len(second.Results) {
		t.Fatal("resumed shard differs")
	}
}

func TestLocalShardsScript(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found: skipping scripts/local-shards.sh")
	}
	out := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(bash, "../../scripts/local-shards.sh", "12", "4", out)
	cmd.Env = append(os.Environ(), "NQUEENS="+binary(t), "JOBS=2")
	b, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(b), "n = 12: 14200 solutions (matches OEIS A000170)") {
		t.Fatalf("%v: %s", err, b)
	}
	// Rerunning skips the finished shards and merges again.
	cmd = exec.Command(bash, "../../scripts/local-shards.sh", "12", "4", out)
	cmd.Env = append(os.Environ(), "NQUEENS="+binary(t))
	b, err = cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(b), "14200") {
		t.Fatalf("rerun: %v: %s", err, b)
	}
}

// checkPrefixed fails unless every line of stderr starts with the program
// name (the resume command's indented line aside).
func checkPrefixed(t *testing.T, stderr string) {
	t.Helper()
	for _, l := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
		if l != "" && !strings.HasPrefix(l, "nqueens: ") && !strings.HasPrefix(l, "  ") {
			t.Errorf("message without the program name: %q", l)
		}
	}
}

// Flag mistakes of long runs are usage errors, reported at once: an empty
// --checkpoint is not "no checkpoint", --unique has no meaning for a
// shard, and K is bounded by the number of tasks (a K of 2^63-1 panicked,
// one of 2^32 exhausted memory).
func TestLongFlagMistakes(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "o.json")
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"count", "8", "--checkpoint", ""}, "--checkpoint ''"},
		{[]string{"count", "8", "--checkpoint="}, "--checkpoint ''"},
		{[]string{"count", "8", "--shard", "0/2", "--out", ""}, "--out ''"},
		{[]string{"count", "8", "--shard", "", "--out", out}, "--shard ''"},
		{[]string{"count", "8", "--shard", "0/2", "--out", out, "--unique"}, "merge --unique"},
		{[]string{"count", "12", "--shard", "0/9223372036854775807", "--out", out}, "at most"},
		{[]string{"count", "12", "--shard", "0/4294967296", "--out", out}, "at most"},
		{[]string{"count", "8", "--shard", "0/100000", "--out", out}, "at most"},
		{[]string{"count", "8", "--shard", "env", "--out", out}, "neither"},
		{[]string{"count", "8", "--shard", "0/2", "--out", dir}, "is a directory"},
		{[]string{"count", "8", "--checkpoint", dir}, "is a directory"},
		{[]string{"count", "8", "--shard", "0/2", "--out", out, "--checkpoint", out}, "same file"},
		{[]string{"count", "8", "--shard", "0/2", "--out", "long_test.go"}, "not a shard result file"},
	} {
		code, stdout, errs := runCLI(tc.args...)
		if code != cli.ExitUsage || stdout != "" || !strings.Contains(errs, tc.msg) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%q: exit %d, %q, want one usage error line with %q", tc.args, code, errs, tc.msg)
		}
		checkPrefixed(t, errs)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files left: %v", entries)
	}
}

// --out is checked before any counting: with a context already cancelled,
// an unwritable result file is reported (exit 1), not an interrupted count
// (130); the count used to run to its end and then fail, printing nothing.
func TestOutCheckedBeforeCounting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, out := range []string{"/proc/x", filepath.Join(t.TempDir(), "missing", "x.json")} {
		var stdout, stderr bytes.Buffer
		code := app.Run(ctx, &cli.Env{Stdout: &stdout, Stderr: &stderr}, []string{"count", "17", "--shard", "0/2", "--out", out})
		if code != cli.ExitFail || stdout.Len() != 0 || !strings.Contains(stderr.String(), "cannot create a file in") {
			t.Errorf("--out %s: exit %d, %q", out, code, stderr.String())
		}
		checkPrefixed(t, stderr.String())
	}
}

// Every message of the long-run path names the program (they began with
// ": ").
func TestLongRunMessagesNameTheProgram(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes")
	os.WriteFile(notes, []byte("my notes\n"), 0o644)
	_, _, errs := runCLI("count", "8", "--checkpoint", notes)
	if !strings.HasPrefix(errs, "nqueens: checkpoint: ") {
		t.Errorf("stderr %q", errs)
	}
	j := filepath.Join(dir, "j")
	runCLI("count", "9", "--checkpoint", j)
	_, _, errs = runCLI("count", "9", "--checkpoint", j)
	if !strings.HasPrefix(errs, "nqueens: resuming from ") {
		t.Errorf("stderr %q", errs)
	}
	_, _, errs = runCLI("count", "10", "--checkpoint", j)
	if !strings.HasPrefix(errs, "nqueens: checkpoint: ") || !strings.Contains(errs, "belongs to another run") {
		t.Errorf("stderr %q", errs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	app.Run(ctx, &cli.Env{Stdout: &stdout, Stderr: &stderr}, []string{"count", "12", "--checkpoint", filepath.Join(dir, "k")})
	if !strings.Contains(stderr.String(), "nqueens: interrupted: ") {
		t.Errorf("stderr %q", stderr.String())
	}
	checkPrefixed(t, stderr.String())
}

// The program version is recorded, not pinned: a journal written by one
// build resumes under another (a +dirty rebuild refused a clean build's
// journal with no way round).
func TestJournalResumesUnderAnotherBuild(t *testing.T) {
	defer func(v func() string) { programVersion = v }(programVersion)
	path := filepath.Join(t.TempDir(), "j")
	programVersion = func() string { return "v1.0.0" }
	if code, _, errs := runCLI("count", "11", "--checkpoint", path); code != cli.ExitOK {
		t.Fatal(errs)
	}
	programVersion = func() string { return "v1.0.1-0.20250101000000-0123456789ab+dirty" }
	code, out, errs := runCLI("count", "11", "--checkpoint", path, "--json")
	if r := decode(t, out); code != cli.ExitOK || r.ResumedTasks != r.Tasks || r.Total != 2680 {
		t.Fatalf("exit %d %+v %s", code, r, errs)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "\ninfo program v1.0.0\n") {
		t.Errorf("journal does not record the program that created it:\n%s", b)
	}
}

// Under 'go run' the binary lies in a build cache folder deleted when go
// run ends: the resume command is a go run command that works from the
// current folder.
func TestCommandName(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	bi := &debug.BuildInfo{Path: "github.com/nqcount/nqcount/cmd/nqueens", Main: debug.Module{Path: "github.com/nqcount/nqcount", Version: "(devel)"}}
	goRun := filepath.Join(os.TempDir(), "go-build1234", "b001", "exe", "nqueens")
	cached := filepath.Join("/root", ".cache", "go-build", "b5", strings.Repeat("b5dca2e8", 8)+"-d", "nqueens")
	for _, tc := range []struct {
		arg0, cwd string
		bi        *debug.BuildInfo
		want      string
	}{
		{"./nqueens", root, bi, "./nqueens"},
		{"/opt/my tools/nqueens", root, bi, "'/opt/my tools/nqueens'"},
		{goRun, root, bi, "go run ./cmd/nqueens"},
		{goRun, filepath.Join(root, "cmd", "nqueens"), bi, "go run ."},
		{cached, root, bi, "go run ./cmd/nqueens"},
		{"/home/me/b5/" + strings.Repeat("b5dca2e8", 8) + "-x/nqueens", root, bi, "/home/me/b5/" + strings.Repeat("b5dca2e8", 8) + "-x/nqueens"},
		{goRun, filepath.Join(root, "scripts"), bi, "go run github.com/nqcount/nqcount/cmd/nqueens"},
		{goRun, os.TempDir(), &debug.BuildInfo{Path: bi.Path, Main: debug.Module{Path: bi.Main.Path, Version: "v1.2.3"}}, "go run github.com/nqcount/nqcount/cmd/nqueens@v1.2.3"},
		{goRun, root, nil, shellQuote(goRun)},
	} {
		if got := commandName(tc.arg0, tc.cwd, tc.bi); got != tc.want {
			t.Errorf("commandName(%q, %q) = %q, want %q", tc.arg0, tc.cwd, got, tc.want)
		}
	}
}

// TestShardLine: a shard's line names how many of the plan's tasks it
// counted, for the join's plans as for the backtrackers' (the join's
// tasks are not in Plan.Tasks: "44 of 0 tasks" once).
func TestShardLine(t *testing.T) {
	for _, m := range []queens.Method{queens.Constellations, queens.Join} {
		p, err := queens.NewPlan(queens.Spec{N: 12, Method: m})
		if err != nil {
			t.Fatal(err)
		}
		ids, err := p.Shard(shard.Index{I: 0, K: 2})
		if err != nil {
			t.Fatal(err)
		}
		mine := len(ids)
		out := filepath.Join(t.TempDir(), "s.json")
		code, stdout, stderr := runCLI("count", "12", "--method", string(m), "--shard", "0/2", "--out", out)
		want := fmt.Sprintf("shard 0/2 (numbered from 0) of n = 12: %d of %d tasks, partial total ", mine, p.Len())
		if code != cli.ExitOK || !strings.HasPrefix(stdout, want) {
			t.Errorf("%s: exit %d, %q (%s); want it to start %q", m, code, stdout, stderr, want)
		}
	}
}
