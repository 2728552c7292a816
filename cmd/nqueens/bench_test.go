package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/bench/suite"
	"github.com/nqcount/nqcount/count"
)

func TestBenchBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"bench", "16"}, "no arguments"},
		{[]string{"bench", "--json", "--csv"}, "choose one"},
		{[]string{"bench", "--workers", "0"}, "--workers 0"},
		{[]string{"bench", "--workers", "100000000"}, "out of range"},
		{[]string{"bench", "--rounds", "0"}, "--rounds 0"},
		{[]string{"bench", "--kernel", "magic", "-q"}, "unknown kernel"},
		{[]string{"bench", "--bogus"}, "not defined"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errs := runCLI(tc.args...)
			if code != exitUsage || out != "" {
				t.Errorf("exit %d, stdout %q; want %d and nothing", code, out, exitUsage)
			}
			if !strings.Contains(errs, tc.msg) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
				t.Errorf("stderr %q: want one line mentioning %q", errs, tc.msg)
			}
		})
	}
}

// TestBenchQuickJSON runs the real quick suite once (one round, 2
// workers): a few seconds.
func TestBenchQuickJSON(t *testing.T) {
	code, out, errs := runCLI("bench", "--quick", "--rounds", "1", "--workers", "2", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Suite string  `json:"suite"`
		Score float64 `json:"score"`
		Runs  []struct {
			N              int     `json:"n"`
			Workers        int     `json:"workers"`
			Seconds        float64 `json:"seconds"`
			NodesPerSecond float64 `json:"nodes_per_second"`
			MatchesKnown   *bool   `json:"matches_known"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if r.Suite != "quick" || r.Score <= 0 || len(r.Runs) != 2*len(suite.QuickSizes) {
		t.Errorf("suite %q, score %v, %d runs", r.Suite, r.Score, len(r.Runs))
	}
	for _, x := range r.Runs {
		if x.N < 15 || x.N > 16 || x.Seconds <= 0 || x.NodesPerSecond <= 0 || x.MatchesKnown == nil || !*x.MatchesKnown {
			t.Errorf("run %+v", x)
		}
	}
	// Progress went to stderr, one line per count and one for the warm-up.
	if n := strings.Count(errs, "bench: ["); n != len(r.Runs) || !strings.Contains(errs, "warm-up") {
		t.Errorf("%d progress lines:\n%s", n, errs)
	}
}

// A report with a count that disagrees with the OEIS exits 1 and says so
// on stderr, in every format.
func TestBenchMismatchFails(t *testing.T) {
	rep := &suite.Report{Suite: "quick", Sizes: []int{15}, Workers: []int{1}, P: 1, Rounds: 1, Runs: []suite.Run{
		{N: 15, Workers: 1, Seconds: 1, RoundSeconds: []float64{1}, Total: count.U128(2279185), Known: 2279184, MatchesKnown: false},
	}}
	for _, format := range []string{"text", "json", "csv"} {
		var out, errb bytes.Buffer
		code := printBench(&env{Prog: "nqueens", Stdout: &out, Stderr: &errb}, rep, format == "json", format == "csv")
		if code != exitFail || !strings.Contains(errb.String(), "MISMATCH: n = 15 on 1 worker counted 2279185, OEIS A000170 says 2279184") {
			t.Errorf("%s: exit %d, stderr %q", format, code, &errb)
		}
	}
}

func TestBenchInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := run(ctx, &env{Stdout: &out, Stderr: &errb}, []string{"bench", "--quick", "-q"})
	if code != exitInterrupted || out.Len() != 0 || !strings.Contains(errb.String(), "interrupted") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, &out, &errb)
	}
}
