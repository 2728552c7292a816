//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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

// Defect 6 of issue 22: rerunning one index of the Slurm array
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
	// The merge of a shard missing fails and leaves no total behind.
	cmd := exec.Command(bash, "../../scripts/slurm-array.sh", "merge")
	cmd.Env = env
	if b, err := cmd.CombinedOutput(); err == nil {
		t.Errorf("merge with shards 1 and 3 missing succeeded: %s", b)
	}
	if _, err := os.Stat(filepath.Join(out, "total.json")); err == nil {
		t.Error("a failed merge left total.json")
	}
	// Submitting: a stand-in sbatch answers as --parsable does on a
	// multi-cluster site, JOBID;CLUSTER.
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "sbatch"), []byte("#!/bin/sh\necho \"$$;cluster7\"\n"), 0o755)
	cmd = exec.Command(bash, "../../scripts/slurm-array.sh", "submit")
	cmd.Env = append(env, "PATH="+bin+":"+os.Getenv("PATH"))
	b, err := cmd.CombinedOutput()
	if err != nil || strings.Contains(string(b), ";") || !regexp.MustCompile(`merge as job \d+\n`).Match(b) {
		t.Errorf("submit: %v: %q, want the job ids without ;cluster7", err, b)
	}
}

// Defect 10 of issue 22: local-shards.sh with more shards than tasks
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
	if code != exitUsage || strings.Contains(string(b), "rerun the same command") || !strings.Contains(string(b), "shard") || !strings.Contains(string(b), "cannot help") {
		t.Errorf("4000 shards of n = 8: exit %d, %q; want exit 2 saying why", code, b)
	}
}

// Defect 8 of issue 22: the Dockerfile set -X main.version, which sets
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
