//go:build unix

package main

// The queue mode's runs: it stops its server and worker with SIGTERM, so
// it runs where signals do.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/nqcount/nqcount/bench/internal/meter"
)

// TestQueueRun runs the queue mode for real at a small n: it builds
// nqueens, starts a server and a worker per round, and must print the
// table, the ratio and the bar, and write both rounds to --json.
func TestQueueRun(t *testing.T) {
	jsonOut := filepath.Join(t.TempDir(), "q.json")
	var stdout, stderr bytes.Buffer
	args := []string{"--queue", "10", "--rounds", "2", "--json", jsonOut}
	if code := run(context.Background(), args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, &stdout, &stderr)
	}
	out := stdout.String()
	for _, want := range []string{
		"### Queue against count",
		"| `nqueens count 10` |",
		"| `nqueens submit 10 --wait` (queue) |",
		"median of the per-round ratios: **",
		"go run ./bench --queue 10 --rounds 2 --json",
		"bar:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`(?m)^  n = 10 through the queue, \d+ workers?, vs count: bar: ≤1\.05×, measured: \d+\.\d\d× (PASS|FAIL)`).MatchString(out) {
		t.Errorf("no bar line:\n%s", out)
	}
	// One progress line per timed run.
	for _, want := range []string{"round 1/2 count n=10", "round 1/2 queue n=10", "round 2/2 count n=10", "round 2/2 queue n=10"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, &stderr)
		}
	}

	var q QueueResults
	b, err := os.ReadFile(jsonOut)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &q); err != nil {
		t.Fatal(err)
	}
	if q.N != 10 || q.Method != "auto" || q.Workers != runtime.GOMAXPROCS(0) || len(q.Rounds) != 2 {
		t.Fatalf("json: n %d, method %q, %d workers, %d rounds", q.N, q.Method, q.Workers, len(q.Rounds))
	}
	for i, r := range q.Rounds {
		if r.CountSeconds <= 0 || r.QueueSeconds <= 0 || r.ServerCPU <= 0 || r.WorkerCPU <= 0 {
			t.Errorf("round %d: %+v", i+1, r)
		}
		if want := r.QueueSeconds / r.CountSeconds; r.Ratio != want {
			t.Errorf("round %d: ratio %v, want %v", i+1, r.Ratio, want)
		}
	}
	if q.Rounds[0].First != "count" || q.Rounds[1].First != "queue" {
		t.Errorf("order not alternated: %q then %q", q.Rounds[0].First, q.Rounds[1].First)
	}
	if q.Bar.Value != meter.Median([]float64{q.Rounds[0].Ratio, q.Rounds[1].Ratio}) {
		t.Errorf("bar %v is not the median of the per-round ratios", q.Bar.Value)
	}
}

// A cancelled queue run (Ctrl-C) must leave no server or worker behind.
// It is cancelled as soon as round 1's server and worker are up, while the
// timed count of n = 17 (seconds of work) runs.
func TestQueueCancelLeavesNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stderr := &watchWriter{re: regexp.MustCompile(`server \S+ \(pid (\d+)\), worker pid (\d+)`), found: cancel}
	var stdout bytes.Buffer
	code := run(ctx, []string{"--queue", "17", "--rounds", "1"}, &stdout, stderr)
	if code != 1 {
		t.Fatalf("exit %d after cancel, want 1\nstderr:\n%s", code, stderr.buf.String())
	}
	if stderr.match == nil {
		t.Fatalf("no server and worker pids on stderr:\n%s", stderr.buf.String())
	}
	if !strings.Contains(stderr.buf.String(), "context canceled") {
		t.Errorf("the error does not say the run was cancelled:\n%s", stderr.buf.String())
	}
	for _, s := range stderr.match[1:] {
		pid, _ := strconv.Atoi(s)
		// The runner waited for its children, so their pids are gone
		// (signal 0 only checks that a process exists).
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("pid %d still exists after the run (kill 0: %v)", pid, err)
		}
	}
	// Nor any other child: the timed count included.
	if runtime.GOOS == "linux" {
		if kids := children(t); len(kids) > 0 {
			t.Errorf("child processes left after the run: %v", kids)
		}
	}
}

// children lists the processes whose parent is this one (Linux /proc).
func children(t *testing.T) []string {
	t.Helper()
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil {
		t.Fatal(err)
	}
	var kids []string
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue // exited meanwhile
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(s[i+1:])
		if len(fields) > 1 && fields[1] == strconv.Itoa(os.Getpid()) {
			kids = append(kids, strings.TrimSpace(s[:i+1]))
		}
	}
	return kids
}

// watchWriter collects what is written and calls found once a line
// matches re.
type watchWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	re    *regexp.Regexp
	match []string
	found func()
}

func (w *watchWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(b)
	if w.match == nil {
		if m := w.re.FindStringSubmatch(w.buf.String()); m != nil {
			w.match = m
			w.found()
		}
	}
	return len(b), nil
}
