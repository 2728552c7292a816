package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/bench/internal/report"
	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
)

// TestQuickRun runs the whole runner in --quick mode into a temporary
// folder: hand-written text around the marked block must survive, the
// charts and the JSON must be written, and where a C compiler exists the
// baseline must have been timed (its counts are checked by the runner).
func TestQuickRun(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "RESULTS.md")
	hand := "# Results\n\nHand-written intro.\n\n" + report.Begin + "\nstale\n" + report.End + "\n\nHand-written outro.\n"
	if err := os.WriteFile(out, []byte(hand), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	args := []string{"--quick", "--out", out, "--charts", filepath.Join(dir, "docs"), "--json", filepath.Join(dir, "r.json")}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, &stdout, &stderr)
	}
	doc, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	for _, want := range []string{
		"Hand-written intro.", "Hand-written outro.", "### Bars", "### Kernels", "### Workers",
		"### Peak memory", "docs/throughput.svg", "docs/speedup.svg", "go run ./bench --quick", runtime.Version(),
	} {
		if !strings.Contains(s, want) {
			t.Errorf("RESULTS.md lacks %q", want)
		}
	}
	if strings.Contains(s, "stale") {
		t.Errorf("the old block was not replaced")
	}
	for _, f := range []string{"throughput.svg", "speedup.svg"} {
		if b, err := os.ReadFile(filepath.Join(dir, "docs", f)); err != nil || !bytes.HasPrefix(b, []byte("<svg")) {
			t.Errorf("chart %s: %v", f, err)
		}
	}
	if !strings.Contains(stdout.String(), "bar: <50 MiB, measured:") {
		t.Errorf("bars not printed:\n%s", &stdout)
	}

	var res struct {
		Results
		Bars []Bar `json:"bars"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if res.MaxN != 14 || res.Rounds != 1 {
		t.Errorf("--quick ran n ≤ %d with %d rounds, want 14 and 1", res.MaxN, res.Rounds)
	}
	cJobs := 0
	for _, j := range res.Jobs {
		if len(j.Seconds) != 1 || j.Seconds[0] <= 0 {
			t.Errorf("%s: times %v", j.key(), j.Seconds)
		}
		if j.Lang == "c" {
			cJobs++
		}
	}
	if _, err := exec.LookPath("cc"); err == nil {
		if res.CNote != "" || cJobs != res.MaxN-res.MinN+1 {
			t.Errorf("cc exists but the C baseline ran %d times (note %q)", cJobs, res.CNote)
		}
	} else {
		t.Logf("no cc here: C baseline skipped (%s)", res.CNote)
	}
	if len(res.RSS) != 2 || !res.RSS[0].Finished || !res.RSS[1].Finished || res.RSS[0].Method != "constellations" || res.RSS[1].Method != "join" {
		t.Errorf("RSS runs: %+v", res.RSS)
	}
	joins := 0
	for _, j := range res.Jobs {
		if j.Method == "join" {
			joins++
		}
	}
	if joins != res.MaxN-res.MinN+1 || res.JoinKernel == "" {
		t.Errorf("%d join configurations (kernel %q) for n = %d..%d", joins, res.JoinKernel, res.MinN, res.MaxN)
	}
}

// TestBaselineCounts compiles the C baseline and checks it on every board
// from 1 to 13 against the OEIS, odd boards included.
func TestBaselineCounts(t *testing.T) {
	root, err := moduleRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	bin, _, note, err := buildBaseline(context.Background(), "cc", filepath.Join(root, "bench", "baseline", "baseline.c"), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if bin == "" {
		t.Skip(note)
	}
	if err := checkBaseline(context.Background(), bin, 13); err != nil {
		t.Fatal(err)
	}
}

// A wrong count must stop the run with a loud message.
func TestWrongCountFails(t *testing.T) {
	if err := checkCount(8, count.U128(92)); err != nil {
		t.Fatal(err)
	}
	err := checkCount(8, count.U128(91))
	if err == nil || !strings.Contains(err.Error(), "WRONG COUNT") {
		t.Fatalf("checkCount(8, 91) = %v", err)
	}
	if runtime.GOOS == "windows" {
		return
	}
	fake := filepath.Join(t.TempDir(), "fake")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho 42\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := timeC(context.Background(), fake, 8); err == nil || !strings.Contains(err.Error(), "WRONG COUNT") {
		t.Fatalf("timeC with a wrong baseline: %v", err)
	}
}

// A quick run is a smoke test: without --out it must leave RESULTS.md and
// the charts alone, and with --out it must not put its charts
// in the repository's docs folder.
func TestQuickRunWritesNoResults(t *testing.T) {
	var errb bytes.Buffer
	cfg, err := parseFlags([]string{"--quick"}, &errb)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	t.Chdir(dir)
	r := &Results{MinN: 12, MaxN: 12, Rounds: 1, BestKernel: "k", MaxWorkers: 1, Env: Env{GoVersion: "go1 x/y"}}
	if err := r.write(cfg, r.bars()); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("a quick run without --out wrote %v", ents)
	}
	cfg, err = parseFlags([]string{"--quick", "--out", filepath.Join(dir, "sub", "R.md")}, &errb)
	if err != nil || cfg.charts != filepath.Join(dir, "sub", "docs") {
		t.Errorf("--quick --out: charts in %q (%v)", cfg.charts, err)
	}
	cfg, err = parseFlags(nil, &errb)
	if err != nil || cfg.out != "RESULTS.md" || cfg.charts != "docs" {
		t.Errorf("full run writes %q and %q (%v)", cfg.out, cfg.charts, err)
	}
}

func TestParseFlags(t *testing.T) {
	var errb bytes.Buffer
	cfg, err := parseFlags([]string{"--quick", "--max-n", "17"}, &errb)
	if err != nil || cfg.maxN != 14 || cfg.rounds != 1 || cfg.rssProbe != 0 {
		t.Errorf("--quick: %+v, %v", cfg, err)
	}
	cfg, err = parseFlags([]string{"--n18"}, &errb)
	if err != nil || cfg.maxN != 18 || cfg.rounds != 3 {
		t.Errorf("--n18: %+v, %v", cfg, err)
	}
	if cfg.commandLine() != "go run ./bench --n18" {
		t.Errorf("command line %q", cfg.commandLine())
	}
	for _, bad := range [][]string{{"--max-n", "40"}, {"--min-n", "15", "--max-n", "14"}, {"--rounds", "0"}, {"extra"}, {"--bogus"}} {
		if _, err := parseFlags(bad, &errb); err == nil {
			t.Errorf("parseFlags(%q) accepted", bad)
		}
	}
}

func TestBars(t *testing.T) {
	r := &Results{BestKernel: "k", MaxWorkers: 2, RSS: []RSSRun{{N: 17, Method: "constellations", PeakMiB: 12}, {N: 20, Method: "constellations", PeakMiB: 14}, {N: 20, Method: "join", PeakMiB: 90}}}
	c, h := string(queens.Constellations), string(queens.Halving)
	r.Jobs = []*Job{
		{Lang: "go", N: 17, Method: c, Kernel: "k", Workers: 1, Seconds: []float64{10, 9, 11}},
		{Lang: "go", N: 17, Method: c, Kernel: "k", Workers: 2, Seconds: []float64{5.1, 5.2, 5}},
		{Lang: "c", N: 17, Method: h, Workers: 1, Seconds: []float64{31, 30, 29}},
		{Lang: "go", N: 16, Method: c, Kernel: "k", Workers: 1, Seconds: []float64{2}},
		{Lang: "c", N: 16, Method: h, Workers: 1, Seconds: []float64{4}},
	}
	bars := r.bars()
	want := []struct{ measured, result string }{{"3.10×", "PASS"}, {"2.00×", "FAIL"}, {"1.96", "PASS"}, {"14.0 MiB (max over n = 17, n = 20)", "PASS"}}
	if len(bars) != len(want) {
		t.Fatalf("%d bars", len(bars))
	}
	for i, w := range want {
		if bars[i].Measured != w.measured || bars[i].Result != w.result {
			t.Errorf("bar %d (%s): %s %s, want %s %s", i, bars[i].Name, bars[i].Measured, bars[i].Result, w.measured, w.result)
		}
	}
	r.Jobs[1].CPU = []float64{8, 10, 9.5}
	if b := r.bars()[2]; b.CPU != "1.90 cores used of 2" {
		t.Errorf("speed-up cross-check %q", b.CPU)
	}
	r.Env = Env{LogicalCPUs: 2, LoadBefore: "0.30 0.2 0.1", LoadAfter: "0.9 0.5 0.2"}
	if r.busy() {
		t.Errorf("load 0.3/0.9 on 2 CPUs called busy")
	}
	r.Env.LoadBefore = "1.5 1 1"
	if !r.busy() {
		t.Errorf("load 1.5 on 2 CPUs not called busy")
	}
	r.CNote = "skipped (--no-c)"
	if b := r.bars()[0]; b.Result != "n/a" {
		t.Errorf("bar without C: %+v", b)
	}
}

func TestQueueFlags(t *testing.T) {
	var errb bytes.Buffer
	cfg, err := parseFlags([]string{"--queue", "17", "--rounds", "7", "--queue-workers", "3", "--queue-method", "join", "--strict"}, &errb)
	if err != nil || cfg.queueN != 17 || cfg.rounds != 7 || cfg.queueWorkers != 3 || cfg.queueMethod != queens.Join || !cfg.strict || cfg.out != "" {
		t.Errorf("queue flags: %+v, %v", cfg, err)
	}
	cfg, err = parseFlags([]string{"--queue", "12"}, &errb)
	if err != nil || cfg.queueWorkers != runtime.GOMAXPROCS(0) || cfg.queueMethod != queens.Auto || cfg.rounds != 3 {
		t.Errorf("queue defaults: %+v, %v", cfg, err)
	}
	cfg, err = parseFlags(nil, &errb)
	if err != nil || cfg.queueN != 0 {
		t.Errorf("queue mode on by default: %+v, %v", cfg, err)
	}
	for _, bad := range [][]string{
		{"--queue", "3"}, {"--queue", "-1"}, {"--queue", fmt.Sprint(queens.MaxKnown + 1)},
		{"--queue", "10", "--queue-workers", "0"}, {"--queue", "10", "--queue-method", "fast"},
		{"--queue", "10", "--rounds", "0"}, {"--queue", "10", "--quick"}, {"--queue", "10", "--out", "R.md"},
		{"--queue-workers", "2"}, {"--queue-method", "join"},
	} {
		errb.Reset()
		if _, err := parseFlags(bad, &errb); err == nil {
			t.Errorf("parseFlags(%q) accepted", bad)
		} else if lines := strings.Count(strings.TrimSpace(errb.String()), "\n"); lines != 0 || !strings.HasPrefix(errb.String(), "bench: ") {
			t.Errorf("parseFlags(%q): want one line, got %q", bad, errb.String())
		}
	}
}

// A usage error in the queue mode exits 2, before anything is built or
// started.
func TestQueueUsageExit(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"--queue", "3"}, &stdout, &stderr); code != 2 {
		t.Fatalf("--queue 3: exit %d, want 2\nstderr: %s", code, &stderr)
	}
	if !strings.Contains(stderr.String(), "--queue 3: choose 4 ≤ N ≤") || stdout.Len() != 0 {
		t.Errorf("--queue 3: stdout %q, stderr %q", &stdout, &stderr)
	}
}

func TestQueueBar(t *testing.T) {
	q := &QueueResults{N: 17, Workers: 2, Rounds: []QueueRound{
		{Ratio: 1.02, CountCPU: 10, SubmitCPU: 0.1, ServerCPU: 0.4, WorkerCPU: 10},
		{Ratio: 1.30, CountCPU: 10, SubmitCPU: 0.1, ServerCPU: 0.4, WorkerCPU: 11},
		{Ratio: 1.04, CountCPU: 10, SubmitCPU: 0.1, ServerCPU: 0.4, WorkerCPU: 10.5},
	}}
	b := q.bar()
	if b.Measured != "1.04×" || b.Result != "PASS" || b.Name != "n = 17 through the queue, 2 workers, vs count" || b.CPU != "queue's processes 1.10× count's" {
		t.Errorf("bar %+v", b)
	}
	q.Rounds[0].Ratio = 1.06
	q.Rounds[2].Ratio = 1.051
	if b := q.bar(); b.Result != "FAIL" {
		t.Errorf("median ratio 1.06 judged %s", b.Result)
	}
}
