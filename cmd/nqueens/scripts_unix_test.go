//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/internal/cli"
)

// bashOrFail returns bash's path; CI has it (the scripts are bash).
func bashOrFail(t *testing.T) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash not found: the scripts need it")
	}
	return bash
}

// A fixed defect: rerunning one index of the Slurm array
// (sbatch --array=2 sets SLURM_ARRAY_TASK_MIN=2, SLURM_ARRAY_TASK_COUNT=1)
// counted shard 0 of 1, which shard 2's journal refused; it must count
// shard 2 of K. And the merge job's id printed kept sbatch's ";cluster".
func TestSlurmArrayScript(t *testing.T) {
	bash := bashOrFail(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	os.MkdirAll(out, 0o755)
	env := append(os.Environ(), "N=10", "K=4", "OUT="+out, "NQUEENS="+binary(t), "CPUS=1")
	for _, i := range []string{"2", "0"} {
		cmd := exec.Command(bash, "../../scripts/slurm-array.sh", "shard")
		cmd.Env = append(env, "SLURM_ARRAY_TASK_ID="+i, "SLURM_ARRAY_TASK_MIN="+i, "SLURM_ARRAY_TASK_MAX="+i, "SLURM_ARRAY_TASK_COUNT=1")
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("array index %s alone: %v: %s", i, err, b)
		}
		b, err := os.ReadFile(filepath.Join(out, "shard-"+i+".json"))
		if err != nil || !strings.Contains(string(b), `"shard": `+i) || !strings.Contains(string(b), `"shards": 4`) {
			t.Fatalf("array index %s alone wrote %q (%v), want shard %s of 4", i, b, err, i)
		}
	}
	// The merge of a shard missing fails and leaves no total behind; it
	// names the shards missing and the line that reruns them with the
	// same CPUs and memory.
	cmd := exec.Command(bash, "../../scripts/slurm-array.sh", "merge")
	cmd.Env = append(env, "MEM=2G")
	b, err := cmd.CombinedOutput()
	if err == nil {
		t.Errorf("merge with shards 1 and 3 missing succeeded: %s", b)
	}
	if !strings.Contains(string(b), "2 of 4 shards wrote no result (shards 1,3") || !strings.Contains(string(b), "sbatch --array=1,3 --cpus-per-task=1 --mem=2G ") {
		t.Errorf("merge with shards 1 and 3 missing said %q: want them named, and the rerun line", b)
	}
	// A shard's file that is not a result: merge fails, and neither
	// total.json nor total.json.part is left.
	for _, i := range []string{"1", "3"} {
		os.WriteFile(filepath.Join(out, "shard-"+i+".json"), []byte("not a result\n"), 0o644)
	}
	cmd = exec.Command(bash, "../../scripts/slurm-array.sh", "merge")
	cmd.Env = env
	if b, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("merge with shards 1 and 3 damaged succeeded: %s", b)
	}
	for _, f := range []string{"total.json", "total.json.part"} {
		if _, err := os.Stat(filepath.Join(out, f)); err == nil {
			t.Errorf("a failed merge left %s", f)
		}
	}
	// A shard counts with the CPUs of its allocation, not CPUS: a rerun
	// given other CPUs uses them. (A stand-in nqueens records its
	// arguments.)
	args := filepath.Join(dir, "args")
	fake := filepath.Join(dir, "fake-nqueens")
	os.WriteFile(fake, []byte("#!/bin/sh\necho \"$@\" >"+args+"\n"), 0o755)
	for _, c := range []struct{ env, want string }{
		{"SLURM_CPUS_PER_TASK=3", "--workers 3 "},
		{"SLURM_CPUS_ON_NODE=5", "--workers 5 "},
	} {
		cmd = exec.Command(bash, "../../scripts/slurm-array.sh", "shard")
		cmd.Env = append(env, "NQUEENS="+fake, "CPUS=8", "SLURM_ARRAY_TASK_ID=1", c.env)
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("shard with %s: %v: %s", c.env, err, b)
		}
		if got, _ := os.ReadFile(args); !strings.Contains(string(got), c.want) {
			t.Errorf("shard with %s ran nqueens %s, want %q", c.env, got, c.want)
		}
	}
	// Submitting: a stand-in sbatch answers as --parsable does on a
	// multi-cluster site, JOBID;CLUSTER, and records its arguments. The
	// shards ask for memory; the merge starts once every shard has ended
	// (afterany: afterok waited for ever after a failure).
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	sbatchArgs := filepath.Join(dir, "sbatch.args")
	os.WriteFile(filepath.Join(bin, "sbatch"), []byte("#!/bin/sh\necho \"$@\" >>"+sbatchArgs+"\necho \"$$;cluster7\"\n"), 0o755)
	cmd = exec.Command(bash, "../../scripts/slurm-array.sh", "submit")
	cmd.Env = append(env, "PATH="+bin+":"+os.Getenv("PATH"), "MEM=6G")
	b, err = cmd.CombinedOutput()
	if err != nil || strings.Contains(string(b), ";") || !regexp.MustCompile(`merge as job \d+\n`).Match(b) {
		t.Errorf("submit: %v: %q, want the job ids without ;cluster7", err, b)
	}
	calls, _ := os.ReadFile(sbatchArgs)
	lines := strings.Split(strings.TrimSpace(string(calls)), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "--array=0-3") || !strings.Contains(lines[0], "--mem=6G") ||
		!regexp.MustCompile(`--dependency=afterany:\d+ `).MatchString(lines[1]) || !strings.Contains(lines[1], "--mem=") {
		t.Errorf("submit ran sbatch %q: want the array with --mem=6G, then the merge after any end of it, with --mem", lines)
	}
}

// A fixed defect: local-shards.sh with more shards than tasks
// exited 123 saying "rerun the same command to resume", which cannot
// help: it says what is wrong, once, and exits 2.
func TestLocalShardsUsageError(t *testing.T) {
	bash := bashOrFail(t)
	cmd := exec.Command(bash, "../../scripts/local-shards.sh", "8", "4000", filepath.Join(t.TempDir(), "out"))
	cmd.Env = append(os.Environ(), "NQUEENS="+binary(t), "JOBS=2")
	b, err := cmd.CombinedOutput()
	code := -1
	if e, ok := err.(*exec.ExitError); ok {
		code = e.ExitCode()
	}
	if code != cli.ExitUsage || strings.Contains(string(b), "rerun the same command") || !strings.Contains(string(b), "shard") || !strings.Contains(string(b), "cannot help") {
		t.Errorf("4000 shards of n = 8: exit %d, %q; want exit 2 saying why", code, b)
	}
}

// A fixed defect: the Dockerfile set -X main.version, which sets
// nothing (the variable is internal/cli.version), and .dockerignore
// dropped .git, so the image reported "(devel), no commit recorded".
// The Dockerfile's own -ldflags, built here, must give the version.
func TestDockerfileVersion(t *testing.T) {
	docker, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`-ldflags "([^"]*)"`).FindSubmatch(docker)
	if m == nil {
		t.Fatal("the Dockerfile's build has no -ldflags")
	}
	flags := strings.ReplaceAll(string(m[1]), "${VERSION}", "v0.0.0-docker-test")
	bin := filepath.Join(t.TempDir(), "nqueens")
	build := exec.Command("go", "build", "-o", bin, "-ldflags", flags, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -ldflags %q: %v\n%s", flags, err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "nqueens v0.0.0-docker-test") {
		t.Errorf("the Dockerfile's -ldflags %q give --version %q (%v), want the VERSION build argument", flags, out, err)
	}
	ignore, err := os.ReadFile("../../.dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(ignore), "\n") {
		if l = strings.TrimSpace(l); l == ".git" || l == "/.git" || l == ".git/" {
			t.Errorf(".dockerignore drops .git: the image cannot record its commit")
		}
	}
}
