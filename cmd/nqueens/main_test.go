package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// runCLI runs the command in-process and returns its exit code and output.
func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(context.Background(), &env{Stdout: &out, Stderr: &errb}, args)
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
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
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
	if code != exitOK {
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
	if code != exitOK || !strings.Contains(out, "n = 8: 92 solutions (matches OEIS A000170)") {
		t.Fatalf("exit %d, output %q", code, out)
	}
}

func TestVerify(t *testing.T) {
	code, out, errs := runCLI("verify", "--max", "11", "--method", "halving")
	if code != exitOK || !strings.Contains(out, "all 11 counts match") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
}

func TestCancelledCountExits130(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := run(ctx, &env{Stdout: &out, Stderr: &errb}, []string{"count", "14"})
	if code != exitInterrupted || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q", code, out.String())
	}
}

func TestHelp(t *testing.T) {
	if code, _, errs := runCLI("count", "-h"); code != exitOK || !strings.Contains(errs, "--workers") && !strings.Contains(errs, "-workers") {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if code, _, errs := runCLI(); code != exitUsage || !strings.Contains(errs, "count") {
		t.Fatalf("exit %d: %s", code, errs)
	}
}
