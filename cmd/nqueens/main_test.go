package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/clitest"
)

// runCLI runs the command in-process and returns its exit code and output.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = app.Run(context.Background(), &cli.Env{Stdout: &out, Stderr: &errb}, args)
	return code, out.String(), errb.String()
}

func TestCountBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"count", "0"}, "out of range"},
		{[]string{"count", "-3"}, "out of range"},
		{[]string{"count", "abc"}, "not a whole number"},
		{[]string{"count", "12x"}, "not a whole number"},
		{[]string{"count", "33"}, "out of range"},
		{[]string{"count"}, "one board size"},
		{[]string{"count", "8", "9"}, "one board size"},
		{[]string{"count", "8", "--bogus"}, "not defined"},
		{[]string{"count", "8", "--workers", "0"}, "--workers"},
		{[]string{"count", "8", "--workers", "x"}, "invalid value"},
		{[]string{"count", "8", "--depth", "99"}, "depth 99"},
		{[]string{"count", "8", "--depth", "-1"}, "depth -1"},
		{[]string{"count", "8", "--method", "magic"}, "unknown method"},
		{[]string{"count", "8", "--kernel", "magic"}, "unknown kernel"},
		{[]string{"verify", "--max", "28"}, "out of range"},
		{[]string{"frobnicate"}, "unknown command"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errs := runCLI(tc.args...)
			if code != cli.ExitUsage {
				t.Errorf("exit %d, want %d", code, cli.ExitUsage)
			}
			if out != "" {
				t.Errorf("stdout not empty: %q", out)
			}
			if !strings.Contains(errs, tc.msg) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
				t.Errorf("stderr %q: want one line mentioning %q", errs, tc.msg)
			}
			if strings.Contains(errs, "panic") || strings.Contains(errs, "goroutine") {
				t.Errorf("stack trace on stderr: %q", errs)
			}
		})
	}
}

func TestCountJSON(t *testing.T) {
	code, out, errs := runCLI("count", "10", "--json", "--unique", "--workers", "2")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v: %q", err, out)
	}
	for _, f := range []string{"n", "total", "unique", "seconds", "workers", "tasks", "nodes"} {
		if _, ok := r[f]; !ok {
			t.Errorf("field %q missing in %s", f, out)
		}
	}
	if r["total"] != 724.0 || r["unique"] != 92.0 || r["matches_known"] != true {
		t.Errorf("wrong values: %s", out)
	}
}

func TestCountHuman(t *testing.T) {
	code, out, _ := runCLI("count", "8")
	if code != cli.ExitOK || !strings.Contains(out, "n = 8: 92 solutions (matches OEIS A000170)") {
		t.Fatalf("exit %d, output %q", code, out)
	}
}

func TestVerify(t *testing.T) {
	code, out, errs := runCLI("verify", "--max", "11", "--method", "halving")
	if code != cli.ExitOK || !strings.Contains(out, "all 11 counts match") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
}

func TestCancelledCountExits130(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := app.Run(ctx, &cli.Env{Stdout: &out, Stderr: &errb}, []string{"count", "14"})
	if code != cli.ExitInterrupted || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q", code, out.String())
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}, {"help", "count"}, {"count", "-h"}, {"verify", "--help"},
		{"solutions", "-h"}, {"solve", "-h"}, {"merge", "-h"}, {"cpu", "-h"}} {
		code, out, errs := runCLI(args...)
		if code != cli.ExitOK || errs != "" || !strings.HasPrefix(out, "usage: nqueens") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want the usage on stdout", args, code, out, errs)
		}
	}
	if _, out, _ := runCLI("count", "-h"); !strings.Contains(out, "N from 1 to 32") || !strings.Contains(out, "-workers") {
		t.Errorf("count -h does not give the range of N and the flags:\n%s", out)
	}
	if code, out, errs := runCLI(); code != cli.ExitUsage || out != "" || !strings.Contains(errs, "count") {
		t.Fatalf("no command: exit %d: %q %q", code, out, errs)
	}
}

func TestVersion(t *testing.T) {
	code, out, errs := runCLI("--version")
	if code != cli.ExitOK || errs != "" || !strings.HasPrefix(out, "nqueens ") || strings.Count(out, "\n") != 1 {
		t.Errorf("--version: exit %d, %q %q", code, out, errs)
	}
}

// A release sets the version at link time.
func TestVersionLdflags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := filepath.Join(t.TempDir(), "nqueens")
	build := exec.Command("go", "build", "-o", bin, "-ldflags", "-X github.com/nqcount/nqcount/internal/cli.version=v9.8.7", ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.HasPrefix(string(out), "nqueens v9.8.7 (") {
		t.Errorf("--version of a release build: %q, %v", out, err)
	}
}

func TestPlurals(t *testing.T) {
	_, out, _ := runCLI("count", "1", "--workers", "1")
	if !strings.HasPrefix(out, "n = 1: 1 solution (matches OEIS A000170)\ntime ") || !strings.Contains(out, " s, 1 worker, 1 task (") {
		t.Errorf("count 1:\n%s", out)
	}
	if _, out, _ := runCLI("verify", "--max", "1"); !strings.HasSuffix(out, "\nthe count matches OEIS A000170 and A002562\n") {
		t.Errorf("verify --max 1:\n%s", out)
	}
	if _, _, errs := runCLI("solve", "8", "--trace", "--trace-limit", "1"); !strings.HasSuffix(errs, "trace cut after 1 line (raise --trace-limit, or 0 for no limit)\n") {
		t.Errorf("trace cut:\n%s", errs)
	}
}

func TestSizeOutOfRange(t *testing.T) {
	for _, cmd := range []string{"count", "solutions", "solve"} {
		code, _, errs := runCLI(cmd, "99999999999999999999")
		if code != cli.ExitUsage || !strings.Contains(errs, "out of range") || strings.Contains(errs, "whole number") {
			t.Errorf("%s 99999999999999999999: exit %d, %q", cmd, code, errs)
		}
	}
}

// outputCommands are the commands whose output goes through the checks.
func outputCommands(t *testing.T) [][]string {
	dir := t.TempDir()
	var shards []string
	for i := range 2 {
		f := filepath.Join(dir, fmt.Sprintf("s%d.json", i))
		if code, _, errs := runCLI("count", "9", "--shard", fmt.Sprintf("%d/2", i), "--out", f); code != cli.ExitOK {
			t.Fatalf("shard %d: %s", i, errs)
		}
		shards = append(shards, f)
	}
	return [][]string{
		{"count", "9"}, {"count", "9", "--json"}, {"count", "9", "--shard", "0/2", "--out", filepath.Join(dir, "o.json")},
		{"verify", "--max", "9"}, {"merge", shards[0], shards[1]}, {"merge", "--json", shards[0], shards[1]},
		{"cpu"}, {"solutions", "10"}, {"solve", "20"}, {"solve", "100000"}, {"--version"}, {"-h"}, {"count", "-h"},
	}
}

// Output that cannot be written is an error: one line and status 1.
func TestOutputFull(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	for _, args := range outputCommands(t) {
		code, errs := clitest.Run(t, clitest.DevFull(t), "nqueens", args...)
		if code != cli.ExitFail || errs != "nqueens: cannot write the output: no space left on device\n" {
			t.Errorf("%v > /dev/full: exit %d, stderr %q; want %d and one line", args, code, errs, cli.ExitFail)
		}
	}
}

// A reader that goes away (nqueens ... | head) ends every command quietly
// with status 0.
func TestOutputBrokenPipe(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	for _, args := range outputCommands(t) {
		code, errs := clitest.Run(t, clitest.BrokenPipe(t), "nqueens", args...)
		if code != cli.ExitOK || errs != "" {
			t.Errorf("%v into a closed pipe: exit %d, stderr %q; want 0 and nothing", args, code, errs)
		}
	}
}
