package main

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/bench/suite"
	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/internal/cli"
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
		{[]string{"bench", "--method", "halving", "-q"}, "choose auto, join or constellations"},
		{[]string{"bench", "--method", "constellations", "--kernel", "avx2", "-q"}, "avx2"},
		{[]string{"bench", "--bogus"}, "not defined"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errs := runCLI(tc.args...)
			if code != cli.ExitUsage || out != "" {
				t.Errorf("exit %d, stdout %q; want %d and nothing", code, out, cli.ExitUsage)
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
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Suite     string  `json:"suite"`
		Score     float64 `json:"score"`
		Workloads []struct {
			Method string `json:"method"`
			Kernel string `json:"kernel"`
			Sizes  []int  `json:"sizes"`
		} `json:"workloads"`
		Runs []struct {
			Method         string  `json:"method"`
			Kernel         string  `json:"kernel"`
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
	sizes := 0
	for _, m := range suite.Methods {
		sizes += len(suite.QuickSizes[m])
	}
	if r.Suite != "quick" || r.Score <= 0 || len(r.Runs) != 2*sizes || len(r.Workloads) != 2 {
		t.Errorf("suite %q, score %v, %d runs, workloads %+v", r.Suite, r.Score, len(r.Runs), r.Workloads)
	}
	// Runs of the join with the kernel each used, and of the backtracker.
	kernels := map[string]string{}
	for _, wl := range r.Workloads {
		kernels[wl.Method] = wl.Kernel
	}
	joins := 0
	for _, x := range r.Runs {
		if !slices.Contains(suite.QuickSizes[queens.Method(x.Method)], x.N) || x.Kernel == "" || x.Kernel != kernels[x.Method] ||
			x.Seconds <= 0 || x.NodesPerSecond <= 0 || x.MatchesKnown == nil || !*x.MatchesKnown {
			t.Errorf("run %+v", x)
		}
		if x.Method == "join" {
			joins++
		}
	}
	if joins != 2*len(suite.QuickSizes[queens.Join]) {
		t.Errorf("%d runs of the join", joins)
	}
	// Progress went to stderr, one line per count and one for the warm-up.
	if n := strings.Count(errs, "bench: ["); n != len(r.Runs) || strings.Count(errs, "warm-up") != 2 {
		t.Errorf("%d progress lines:\n%s", n, errs)
	}
}

// A report with a count that disagrees with the OEIS exits 1 and says so
// on stderr, in every format.
func TestBenchMismatchFails(t *testing.T) {
	rep := &suite.Report{Suite: "quick", Workloads: []suite.Workload{{Method: queens.Join, Kernel: "k", Sizes: []int{15}}}, Workers: []int{1}, P: 1, Rounds: 1, Runs: []suite.Run{
		{Method: queens.Join, Kernel: "k", N: 15, Workers: 1, Seconds: 1, RoundSeconds: []float64{1}, Total: count.U128(2279185), Known: 2279184, MatchesKnown: false},
	}}
	for _, format := range []string{"text", "json", "csv"} {
		var out, errb bytes.Buffer
		code := printBench(&cli.Env{Prog: "nqueens", Stdout: &out, Stderr: &errb}, rep, format == "json", format == "csv")
		if code != cli.ExitFail || !strings.Contains(errb.String(), "MISMATCH: join n = 15 on 1 worker counted 2279185, OEIS A000170 says 2279184") {
			t.Errorf("%s: exit %d, stderr %q", format, code, &errb)
		}
	}
}

func TestBenchInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := app.Run(ctx, &cli.Env{Stdout: &out, Stderr: &errb}, []string{"bench", "--quick", "-q"})
	if code != cli.ExitInterrupted || out.Len() != 0 || !strings.Contains(errb.String(), "interrupted") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, &out, &errb)
	}
}
