package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/shard"
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

// SIGKILL at random moments never costs more than the running tasks: the
// resumed count is always exact, and finished tasks are skipped.
func TestKillAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := binary(t)
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	resumedSome := false
	for trial := 0; trial < 6; trial++ {
		path := filepath.Join(t.TempDir(), "j")
		// n = 16 on one worker runs for most of a second here, so every
		// kill below lands in the middle of the run.
		args := []string{"count", "16", "--depth", "1", "--workers", "1", "--checkpoint", path, "--json"}
		var killedAt time.Duration
		for kills := 0; kills < 2; kills++ {
			cmd := exec.Command(bin, args...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			killedAt = time.Duration(30+rng.IntN(400)) * time.Millisecond
			time.Sleep(killedAt)
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
		}
		code, out, errs := runBin(t, args...)
		if code != exitOK {
			t.Fatalf("trial %d: resume exit %d: %s", trial, code, errs)
		}
		r := decode(t, out)
		if r.Total != 14772512 || r.Matches == nil || !*r.Matches {
			t.Fatalf("trial %d (killed at %v): total %d", trial, killedAt, r.Total)
		}
		if r.ResumedTasks > 0 {
			resumedSome = true
		}
		t.Logf("trial %d: killed at %v, resumed %d of %d tasks", trial, killedAt, r.ResumedTasks, r.Tasks)
	}
	if !resumedSome {
		t.Error("no trial resumed any task: the journal is not being used")
	}
}

// Ctrl-C stops cleanly with 130, prints the resume command, and the
// journal resumes to the right total.
func TestInterruptAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := binary(t)
	path := filepath.Join(t.TempDir(), "j")
	// n = 17 on one worker runs for seconds: the interrupt lands mid-run
	// even on a much faster machine.
	args := []string{"count", "17", "--workers", "1", "--checkpoint", path}
	cmd := exec.Command(bin, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(400 * time.Millisecond)
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
		t.Fatalf("exit %d (%v), want %d: %s", code, err, exitInterrupted, errb.String())
	}
	if want := "resume with:\n  " + bin + " count 17 --workers 1 --checkpoint " + path; !strings.Contains(errb.String(), want) {
		t.Errorf("stderr %q lacks %q", errb.String(), want)
	}
	code, out, errs := runBin(t, append(args, "--json", "--workers", "2")...)
	if code != exitOK {
		t.Fatalf("resume: exit %d: %s", code, errs)
	}
	if r := decode(t, out); r.Total != 95815104 || r.ResumedTasks == 0 {
		t.Fatalf("resume: %+v", r)
	}
}

// A second Ctrl-C ends the process at once; the journal stays valid. The
// first one alone now ends a count within a slice (running tasks are
// abandoned), so the second is sent right after it and either may end
// the process.
func TestSecondInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	path := filepath.Join(t.TempDir(), "j")
	// Halving at depth 1 on n = 17: 9 tasks of a second or more each.
	cmd := exec.Command(binary(t), "count", "17", "--method", "halving", "--depth", "1", "--workers", "1", "--checkpoint", path)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	cmd.Process.Signal(os.Interrupt)
	time.Sleep(time.Millisecond)
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	if el := time.Since(start); el > time.Second {
		t.Errorf("two Ctrl-C took %v to end the process", el)
	}
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !(ws.Signaled() && ws.Signal() == syscall.SIGINT) && cmd.ProcessState.ExitCode() != exitInterrupted {
		t.Errorf("process neither died of SIGINT nor exited %d: %v; stderr %q", exitInterrupted, cmd.ProcessState, errb.String())
	}
	if !strings.Contains(errb.String(), "Ctrl-C again quits at once") {
		t.Errorf("no stopping notice: %q", errb.String())
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
	if code, _, errs := runCLI("count", "12", "--checkpoint", path, "--workers", "2"); code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	good, _ := os.ReadFile(path)
	lines := strings.SplitAfter(string(good), "\n")
	nrec := len(lines) - 1 - 8 // header lines, and the empty string after the last newline

	// Torn last record: dropped with a warning, recounted.
	os.WriteFile(path, append(append([]byte{}, good...), "123 45"...), 0o644)
	code, out, errs := runCLI("count", "12", "--checkpoint", path, "--json")
	if r := decode(t, out); code != exitOK || r.Total != 14200 || r.ResumedTasks != nrec || len(r.Warnings) != 1 || !strings.Contains(errs, "torn") {
		t.Fatalf("torn: exit %d, %+v, %s", code, r, errs)
	}
	// A torn record that was a real one: that task is recounted.
	os.WriteFile(path, good[:len(good)-5], 0o644)
	code, out, errs = runCLI("count", "12", "--checkpoint", path, "--json")
	if r := decode(t, out); code != exitOK || r.Total != 14200 || r.ResumedTasks != nrec-1 {
		t.Fatalf("torn real record: exit %d, %+v, %s", code, r, errs)
	}

	// Edited in the middle: refused, file untouched.
	bad := strings.Join(lines[:12], "") + strings.Replace(lines[12], " ", "1 ", 1) + strings.Join(lines[13:], "")
	os.WriteFile(path, []byte(bad), 0o644)
	code, out, errs = runCLI("count", "12", "--checkpoint", path)
	if code != exitFail || out != "" || !strings.Contains(errs, "journal is corrupt") {
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
		if code != exitFail || out != "" || !strings.Contains(errs, "belongs to another run") {
			t.Errorf("%v: exit %d, %q, %q", args, code, out, errs)
		}
	}
	// Not a journal.
	notes := filepath.Join(dir, "notes")
	os.WriteFile(notes, []byte("my notes\n"), 0o644)
	if code, _, errs := runCLI("count", "8", "--checkpoint", notes); code != exitFail || !strings.Contains(errs, "not a checkpoint journal") {
		t.Errorf("notes: exit %d, %q", code, errs)
	}
}

// A checkpointed run's tasks do not depend on --workers.
func TestCheckpointWorkersIndependent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	if code, _, errs := runCLI("count", "11", "--checkpoint", path, "--workers", "1"); code != exitOK {
		t.Fatal(errs)
	}
	code, out, errs := runCLI("count", "11", "--checkpoint", path, "--workers", "7", "--json", "--unique")
	if r := decode(t, out); code != exitOK || r.ResumedTasks != r.Tasks || r.Total != 2680 {
		t.Fatalf("exit %d %+v %s", code, r, errs)
	}
	if !strings.Contains(out, `"unique":341`) {
		t.Errorf("unique missing: %s", out)
	}
}

func TestProgressLines(t *testing.T) {
	code, out, errs := runCLI("count", "13", "--progress", "on", "--progress-every", "1ms", "--workers", "1")
	if code != exitOK || !strings.Contains(out, "73712") {
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
		if code != exitUsage || out != "" || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: exit %d, %q, want usage error with %q", tc.args, code, errs, tc.msg)
		}
	}
}

func TestParseShardEnv(t *testing.T) {
	for _, tc := range []struct {
		env    map[string]string
		shards int
		i, k   int
		err    string
	}{
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "7"}, i: 3, k: 8},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "8"}, i: 7, k: 8},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, shards: 4, i: 2, k: 4},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, err: "--shards"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "4"}, err: "contiguous"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, err: "whole number"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2"}, shards: 3, err: "SLURM_ARRAY_TASK_COUNT=2"},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "5"}, shards: 6, i: 5, k: 6},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "5"}, err: "--shards"},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "6"}, shards: 6, err: "not below"},
		{env: map[string]string{}, err: "neither"},
	} {
		i, k, err := parseShard("env", tc.shards, func(k string) string { return tc.env[k] })
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: got %v, want error with %q", tc.env, err, tc.err)
			}
		} else if err != nil || i != tc.i || k != tc.k {
			t.Errorf("%v: got %d/%d %v, want %d/%d", tc.env, i, k, err, tc.i, tc.k)
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
	if !strings.Contains(out, `"total":73712`) || !strings.Contains(out, `"unique":9233`) || !strings.Contains(out, `"matches_known":true`) || code != exitOK {
		t.Fatalf("merge: exit %d: %s %s", code, out, errs)
	}
	code, out, _ = runCLI(append([]string{"merge"}, files...)...)
	if code != exitOK || !strings.Contains(out, "n = 13: 73712 solutions (matches OEIS A000170)") {
		t.Fatalf("merge: exit %d: %s", code, out)
	}
	// Duplicate, identical: warning.
	code, _, errs = runCLI("merge", files[0], files[1], files[2], files[1])
	if code != exitOK || !strings.Contains(errs, "shard 1 is given twice with identical results") {
		t.Errorf("identical duplicate: exit %d, %q", code, errs)
	}
	// Missing.
	code, out, errs = runCLI("merge", files[0], files[2])
	if code != exitFail || out != "" || !strings.Contains(errs, "1 of 3 shards have no result file: 1") {
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
	if code != exitFail || !strings.Contains(errs, "shard 1 is given twice with different results") {
		t.Errorf("conflicting duplicate: exit %d, %q", code, errs)
	}
	// Different runs.
	runCLI("count", "12", "--shard", "1/3", "--out", other)
	code, _, errs = runCLI("merge", files[0], other, files[2])
	if code != exitFail || !strings.Contains(errs, "belong to different runs") {
		t.Errorf("other run: exit %d, %q", code, errs)
	}
	// Not a shard file.
	os.WriteFile(other, []byte("{}"), 0o644)
	if code, _, errs = runCLI("merge", files[0], other); code != exitFail || !strings.Contains(errs, "not a shard result file") {
		t.Errorf("foreign file: exit %d, %q", code, errs)
	}
}

// A shard with a checkpoint resumes like a whole run.
func TestShardCheckpoint(t *testing.T) {
	dir := t.TempDir()
	j, out := filepath.Join(dir, "j"), filepath.Join(dir, "s.json")
	args := []string{"count", "12", "--shard", "1/2", "--out", out, "--checkpoint", j, "--json"}
	if code, _, errs := runCLI(args...); code != exitOK {
		t.Fatal(errs)
	}
	first, _ := shard.Read(out)
	code, o, errs := runCLI(args...)
	if r := decode(t, o); code != exitOK || r.ResumedTasks == 0 || r.ResumedTasks != r.Tasks {
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
