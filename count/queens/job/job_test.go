package job

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/journal"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/shard"
)

// seed returns the seed of a randomised test: NQCOUNT_TEST_SEED if set,
// else a fixed one, logged so that a failure can be replayed.
func seed(t *testing.T) uint64 {
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

func known(n int) count.Uint128 {
	k, _ := queens.Known(n)
	return count.U128(k)
}

func TestWholeCount(t *testing.T) {
	for _, m := range queens.Methods {
		j, err := Open(Config{Spec: queens.Spec{N: 10, Method: m}, Execution: queens.Execution{Workers: 2}, Unique: true})
		if err != nil {
			t.Fatal(err)
		}
		out, err := j.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if out.Total != known(10) || out.Unique == nil || out.Unique.String() != "92" || out.Matches == nil || !*out.Matches || out.Tasks != j.Plan().Len() {
			t.Fatalf("%s: %+v", m, out)
		}
		if p := j.Progress(); p.Done != p.Tasks || p.Fraction != 1 || p.ETA != 0 {
			t.Errorf("%s: final progress %+v", m, p)
		}
	}
}

// Interrupted after a seeded number of finished tasks (counted by the
// callback, not timed), a checkpointed count resumes to the exact total
// without counting a recorded task again.
func TestInterruptAndResume(t *testing.T) {
	rng := rand.New(rand.NewPCG(seed(t), 14))
	for trial := 0; trial < 8; trial++ {
		path := filepath.Join(t.TempDir(), "j")
		// Both kinds of plan: the backtrackers' tasks, and the join's.
		m := []queens.Method{queens.Constellations, queens.Join}[trial%2]
		cfg := Config{Spec: queens.Spec{N: 12, Method: m}, Execution: queens.Execution{Workers: 1 + trial/2%2}, Checkpoint: path, Program: "test"}
		j, err := Open(cfg)
		if err != nil {
			t.Fatal(err)
		}
		tasks := len(j.Tasks())
		stopAt := 1 + rng.IntN(tasks-1)
		ctx, cancel := context.WithCancel(context.Background())
		var mu sync.Mutex
		seen := map[int]bool{}
		cfg.OnResult = nil
		j.cfg.OnResult = func(id int, r count.Result) error {
			mu.Lock()
			defer mu.Unlock()
			seen[id] = true
			if len(seen) == stopAt {
				cancel()
			}
			return nil
		}
		if _, err := j.Run(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("trial %d: %v, want context.Canceled", trial, err)
		}
		recorded := j.Progress().Done
		if recorded < stopAt || recorded != len(seen) {
			t.Fatalf("trial %d: stopped at %d, progress says %d recorded, %d reported", trial, stopAt, recorded, len(seen))
		}
		cfg.OnResult = func(id int, r count.Result) error {
			mu.Lock()
			defer mu.Unlock()
			if seen[id] {
				return fmt.Errorf("task %d counted again", id)
			}
			return nil
		}
		j, err = Open(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if j.Resumed() != recorded {
			t.Fatalf("trial %d: resumed %d, recorded %d", trial, j.Resumed(), recorded)
		}
		out, err := j.Run(context.Background())
		if err != nil || out.Total != known(12) || out.ResumedTasks != recorded || out.Tasks != tasks {
			t.Fatalf("trial %d: %v %+v", trial, err, out)
		}
		cancel()
	}
}

// Shards counted in-process merge to the exact total; the per-task results
// assemble to the same one.
func TestShardsMergeAndAssemble(t *testing.T) {
	for _, m := range []queens.Method{queens.Constellations, queens.Join} {
		t.Run(string(m), func(t *testing.T) { shardsMergeAndAssemble(t, m) })
	}
}

func shardsMergeAndAssemble(t *testing.T, method queens.Method) {
	dir := t.TempDir()
	const k = 3
	var (
		names []string
		files []*shard.File
		mu    sync.Mutex
		all   []shard.TaskResult
	)
	for i := 0; i < k; i++ {
		out := filepath.Join(dir, fmt.Sprintf("s%d.json", i))
		j, err := Open(Config{Spec: queens.Spec{N: 11, Method: method}, Execution: queens.Execution{Workers: 2}, Shard: shard.Index{I: i, K: k}, Out: out, Program: fmt.Sprintf("v0.%d", i%2),
			OnResult: func(id int, r count.Result) error {
				mu.Lock()
				defer mu.Unlock()
				all = append(all, shard.TaskResult{ID: id, Count: r.Count, Nodes: r.Nodes})
				return nil
			}})
		if err != nil {
			t.Fatal(err)
		}
		o, err := j.Run(context.Background())
		if err != nil || o.Shard != fmt.Sprintf("%d/%d", i, k) || o.Matches != nil || o.Unique != nil {
			t.Fatalf("shard %d: %v %+v", i, err, o)
		}
		f, err := shard.Read(out)
		if err != nil {
			t.Fatal(err)
		}
		if f.Run["algorithm"] != strconv.Itoa(queens.AlgorithmVersion) || f.Program == "" || f.Run["version"] != "" {
			t.Fatalf("shard file run %v, program %q", f.Run, f.Program)
		}
		names, files = append(names, out), append(files, f)
	}
	m, err := Merge(names, files, true)
	if err != nil {
		t.Fatal(err)
	}
	if m.Total.Total != known(11) || m.Unique.String() != "341" || !*m.Matches || m.Shards != k || m.Version != "v0.0, v0.1" {
		t.Fatalf("%+v", m)
	}
	p, err := queens.NewPlan(queens.Spec{N: 11, Method: method})
	if err != nil {
		t.Fatal(err)
	}
	tot, err := Assemble(p, all, true)
	if err != nil || tot.Total != known(11) || tot.Unique.String() != "341" || !*tot.Matches || tot.Hash != m.Hash || tot.Nodes != m.Nodes {
		t.Fatalf("assemble: %v %+v", err, tot)
	}
}

func TestAssembleChecks(t *testing.T) {
	p, err := queens.NewPlan(queens.Spec{N: 8})
	if err != nil {
		t.Fatal(err)
	}
	// One worker, so that the callback needs no lock.
	var res []shard.TaskResult
	if _, err := queens.Count(context.Background(), p, queens.Execution{Workers: 1}, count.All(p.Len()), queens.Options{OnDone: func(id int, r count.Result) error {
		res = append(res, shard.TaskResult{ID: id, Count: r.Count, Nodes: r.Nodes})
		return nil
	}}); err != nil {
		t.Fatal(err)
	}
	if tot, err := Assemble(p, res, false); err != nil || tot.Total.String() != "92" || len(tot.Warnings) != 0 {
		t.Fatalf("%v %+v", err, tot)
	}
	dup := append(append([]shard.TaskResult{}, res...), res[0], res[1])
	if tot, err := Assemble(p, dup, false); err != nil || tot.Total.String() != "92" || len(tot.Warnings) != 1 || !strings.Contains(tot.Warnings[0], "2 tasks") {
		t.Fatalf("duplicates: %v %+v", err, tot)
	}
	bad := append(append([]shard.TaskResult{}, res...), res[0])
	bad[len(bad)-1].Count++
	if _, err := Assemble(p, bad, false); !errors.Is(err, ErrConflict) {
		t.Fatalf("conflict: %v", err)
	}
	if _, err := Assemble(p, res[2:], false); !errors.Is(err, ErrIncomplete) || !strings.Contains(err.Error(), "2 of") {
		t.Fatalf("missing: %v", err)
	}
	out := append(append([]shard.TaskResult{}, res...), shard.TaskResult{ID: p.Len()})
	if _, err := Assemble(p, out, false); err == nil || !strings.Contains(err.Error(), "not in the plan") {
		t.Fatalf("out of range: %v", err)
	}
}

// Every mistake in the configuration is refused by Open at once, before
// any counting; usage errors wrap queens.ErrInvalid.
func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.json")
	notes := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(notes, []byte("my notes\n"), 0o644)
	for _, tc := range []struct {
		name  string
		cfg   Config
		msg   string
		usage bool
	}{
		{"K above the tasks", Config{Spec: queens.Spec{N: 8}, Shard: shard.Index{I: 0, K: 1000}, Out: out}, "at most", true},
		{"K of 2^31-1", Config{Spec: queens.Spec{N: 12}, Shard: shard.Index{I: 0, K: math.MaxInt32}, Out: out}, "at most", true},
		{"K of MaxInt", Config{Spec: queens.Spec{N: 17}, Shard: shard.Index{I: 0, K: math.MaxInt}, Out: out}, "at most", true},
		{"I out of range", Config{Spec: queens.Spec{N: 8}, Shard: shard.Index{I: 2, K: 2}, Out: out}, "0 <= I < K", true},
		{"unique with a shard", Config{Spec: queens.Spec{N: 8}, Shard: shard.Index{I: 0, K: 2}, Out: out, Unique: true}, "merging", true},
		{"shard without result file", Config{Spec: queens.Spec{N: 8}, Shard: shard.Index{I: 0, K: 2}}, "result file", true},
		{"result file without shard", Config{Spec: queens.Spec{N: 8}, Out: out}, "shard", true},
		{"result file a directory", Config{Spec: queens.Spec{N: 8}, Shard: shard.Index{I: 0, K: 2}, Out: dir}, "a directory", true},
		{"checkpoint a directory", Config{Spec: queens.Spec{N: 8}, Checkpoint: dir}, "a directory", true},
		{"checkpoint is the result file", Config{Spec: queens.Spec{N: 8}, Shard: shard.Index{I: 0, K: 2}, Out: out, Checkpoint: filepath.Join(dir, ".", "out.json")}, "same file", true},
		{"bad kernel", Config{Spec: queens.Spec{N: 8}, Execution: queens.Execution{Kernel: "magic"}}, "magic", true},
		{"bad n", Config{Spec: queens.Spec{N: 40}}, "out of range", true},
		{"result file another file", Config{Spec: queens.Spec{N: 8}, Shard: shard.Index{I: 0, K: 2}, Out: notes}, "not a shard result file", true},
		{"result file in a missing folder", Config{Spec: queens.Spec{N: 8}, Shard: shard.Index{I: 0, K: 2}, Out: filepath.Join(dir, "no", "out.json")}, "cannot create a file in", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, err := Open(tc.cfg)
			if err == nil {
				j.Close()
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.msg) || errors.Is(err, queens.ErrInvalid) != tc.usage {
				t.Fatalf("%v (usage error: %v), want %q (usage error: %v)", err, errors.Is(err, queens.ErrInvalid), tc.msg, tc.usage)
			}
		})
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("Open left files: %v", entries)
	}
	if b, _ := os.ReadFile(notes); string(b) != "my notes\n" {
		t.Error("notes changed")
	}
}

// The program version is information: a journal written by one build
// resumes under another (a +dirty rebuild used to refuse a clean build's
// journal), while the values that decide the counts are pinned.
func TestJournalPinsTheAlgorithmNotTheProgram(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	run := func(cfg Config) (*Outcome, error) {
		j, err := Open(cfg)
		if err != nil {
			return nil, err
		}
		return j.Run(context.Background())
	}
	if _, err := run(Config{Spec: queens.Spec{N: 9}, Checkpoint: path, Program: "v1.0.0"}); err != nil {
		t.Fatal(err)
	}
	out, err := run(Config{Spec: queens.Spec{N: 9}, Checkpoint: path, Program: "v1.0.1-0.20250101-abcdef+dirty"})
	if err != nil || out.ResumedTasks != out.Tasks || out.Total != known(9) {
		t.Fatalf("other build: %v %+v", err, out)
	}
	b, _ := os.ReadFile(path)
	for _, want := range []string{"\nmeta algorithm " + strconv.Itoa(queens.AlgorithmVersion) + "\n", "\nmeta n 9\n", "\ninfo program v1.0.0\n"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("journal lacks %q:\n%s", want, b)
		}
	}
	if _, err := run(Config{Spec: queens.Spec{N: 9, Method: queens.Halving}, Checkpoint: path}); !errors.Is(err, journal.ErrMismatch) {
		t.Fatalf("other method: %v", err)
	}
}

// A journal written before the algorithm version was pinned (it pinned the
// program version, "(devel)" in most builds) resumes: same plan, same
// algorithm.
func TestLegacyJournalResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	p, err := queens.NewPlan(queens.Spec{N: 10})
	if err != nil {
		t.Fatal(err)
	}
	pin := p.Pin()
	delete(pin, "algorithm")
	pin["version"] = "(devel)"
	jr, err := journal.Open(path, journal.Header{Hash: p.Hash(), Tasks: p.Len(), Meta: pin}, journal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var done int
	if _, err := queens.Count(context.Background(), p, queens.Execution{Workers: 1}, []int{0, 1, 2}, queens.Options{OnDone: func(id int, r count.Result) error {
		done++
		return jr.Append(journal.Record{ID: id, Count: r.Count, Nodes: r.Nodes})
	}}); err != nil {
		t.Fatal(err)
	}
	jr.Close()
	j, err := Open(Config{Spec: queens.Spec{N: 10}, Checkpoint: path, Program: "v2"})
	if err != nil {
		t.Fatal(err)
	}
	out, err := j.Run(context.Background())
	if err != nil || out.ResumedTasks != done || out.Total != known(10) {
		t.Fatalf("%v %+v", err, out)
	}
	// A legacy journal of another depth is still refused.
	if _, err := Open(Config{Spec: queens.Spec{N: 10, Depth: 2}, Checkpoint: path}); !errors.Is(err, journal.ErrMismatch) {
		t.Fatalf("other depth: %v", err)
	}
}

func TestMergeRefusesOtherAlgorithm(t *testing.T) {
	f := &shard.File{Run: map[string]string{"n": "8", "method": "constellations", "depth": "0", "algorithm": "999"}, Hash: "h", Tasks: 1, Shards: 1,
		Results: []shard.TaskResult{{ID: 0, Count: 92}}}
	f.Total = f.Sum()
	if _, err := Merge([]string{"f"}, []*shard.File{f}, false); err == nil || !strings.Contains(err.Error(), "algorithm version 999") {
		t.Fatalf("%v", err)
	}
	// Files from before the pin: the program version in the run, no algorithm.
	f.Run = map[string]string{"n": "8", "method": "constellations", "depth": "0", "version": "(devel)"}
	m, err := Merge([]string{"f"}, []*shard.File{f}, false)
	if err != nil || m.Total.Total.String() != "92" || !*m.Matches || m.Version != "(devel)" {
		t.Fatalf("legacy: %v %+v", err, m)
	}
}

func TestTracker(t *testing.T) {
	p, err := queens.NewPlan(queens.Spec{N: 12})
	if err != nil {
		t.Fatal(err)
	}
	est := p.Estimates()
	ids := []int{0, 1, 2, 3}
	var total uint64
	for _, id := range ids {
		total += est[id]
	}
	tr := NewTracker(p, ids)
	now := time.Unix(1000, 0)
	tr.now = func() time.Time { return now }
	if pr := tr.Progress(); pr.Tasks != 4 || pr.Done != 0 || pr.ETA >= 0 || pr.Elapsed != 0 {
		t.Fatalf("fresh: %+v", pr)
	}
	if !tr.Resumed(0) || tr.Resumed(0) || tr.Resumed(9) {
		t.Fatal("Resumed: a task counted twice, or one not tracked")
	}
	tr.Start()
	now = now.Add(10 * time.Second)
	if !tr.Done(1, count.Result{Nodes: 5000}) || tr.Done(1, count.Result{Nodes: 5000}) {
		t.Fatal("Done twice")
	}
	pr := tr.Progress()
	wantFrac := float64(est[0]+est[1]) / float64(total)
	wantETA := time.Duration(float64(10*time.Second) * float64(est[2]+est[3]) / float64(est[1]))
	if pr.Done != 2 || pr.Resumed != 1 || pr.Fraction != wantFrac || pr.NodesPerSec != 500 || pr.Elapsed != 10*time.Second || pr.ETA != wantETA || pr.Nodes.String() != "5000" {
		t.Fatalf("%+v, want fraction %v, ETA %v", pr, wantFrac, wantETA)
	}
	b, _ := json.Marshal(pr)
	if !strings.Contains(string(b), `"elapsed_seconds":10`) || !strings.Contains(string(b), `"done":2`) || !strings.Contains(string(b), `"nodes":5000`) {
		t.Errorf("JSON %s", b)
	}
	// Running tasks move the rate before they finish; when one finishes
	// its final count replaces the partial one.
	tr.Partial(2, 1000)
	tr.Partial(2, 3000)
	tr.Partial(3, 500)
	tr.Partial(1, 99) // finished already: ignored
	if pr := tr.Progress(); pr.Nodes.String() != "8500" || pr.Done != 2 {
		t.Fatalf("partial: %+v", pr)
	}
	tr.Done(2, count.Result{Nodes: 4000})
	if pr := tr.Progress(); pr.Nodes.String() != "9500" {
		t.Fatalf("after a partial task finished: %+v", pr)
	}
	tr.Done(3, count.Result{})
	if pr := tr.Progress(); pr.Fraction != 1 || pr.ETA != 0 {
		t.Fatalf("done: %+v", pr)
	}
	b, _ = json.Marshal(NewTracker(p, nil).Progress())
	if !strings.Contains(string(b), `"eta_seconds":null`) {
		t.Errorf("unknown ETA: %s", b)
	}
}

func TestOutcomeJSON(t *testing.T) {
	j, err := Open(Config{Spec: queens.Spec{N: 10}, Unique: true})
	if err != nil {
		t.Fatal(err)
	}
	out, err := j.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(out)
	var m map[string]any
	json.Unmarshal(b, &m)
	for _, f := range []string{"n", "total", "unique", "seconds", "workers", "tasks", "depth", "nodes", "method", "kernel", "known", "known_unique", "matches_known", "nodes_per_second", "resumed_tasks"} {
		if _, ok := m[f]; !ok {
			t.Errorf("field %q missing in %s", f, b)
		}
	}
}

// TestOpenInterrupted: planning a large join count takes seconds (its
// task estimates); a cancelled context stops OpenContext at once.
func TestOpenInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	j, err := OpenContext(ctx, Config{Spec: queens.Spec{N: 20, Method: queens.Join}})
	if !errors.Is(err, context.Canceled) || j != nil {
		t.Fatalf("OpenContext with a cancelled context: %v, %v", j, err)
	}
}

// --out replaces only an empty file or a result of the same run and shard,
// and says what it refused (count 14 --shard 1/4 --out a.json, where
// a.json held shard 0/4 or a shard of another n, once replaced it
// without a word); a file that comes to hold another shard while the count
// runs is not replaced either, and the result goes beside it.
func TestOutReplacesOnlyItsShard(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.json")
	run := func(n, i, k int) (*Outcome, error) {
		j, err := Open(Config{Spec: queens.Spec{N: n}, Execution: queens.Execution{Workers: 1}, Shard: shard.Index{I: i, K: k}, Out: a})
		if err != nil {
			return nil, err
		}
		return j.Run(context.Background())
	}
	os.WriteFile(a, nil, 0o644)
	if _, err := run(10, 0, 4); err != nil {
		t.Fatalf("an empty file: %v", err)
	}
	before, _ := os.ReadFile(a)
	for _, tc := range []struct {
		n, i, k int
		want    string
	}{
		{10, 1, 4, "a.json holds shard 0/4 of this run, and this is shard 1/4: refusing to replace it"},
		{11, 0, 4, `a.json holds shard 0/4 of another run (`},
		{10, 0, 3, "split into 4 vs 3 shards"},
	} {
		_, err := run(tc.n, tc.i, tc.k)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, queens.ErrInvalid) {
			t.Errorf("n = %d, shard %d/%d: %v, want a usage error with %q", tc.n, tc.i, tc.k, err, tc.want)
		}
		if after, _ := os.ReadFile(a); !bytes.Equal(after, before) {
			t.Fatalf("n = %d, shard %d/%d: a.json was replaced", tc.n, tc.i, tc.k)
		}
	}
	if _, err := run(10, 0, 4); err != nil {
		t.Errorf("the same shard counted again: %v", err)
	}

	// Replaced by another shard's result while counting: kept, and the
	// result written beside it.
	j, err := Open(Config{Spec: queens.Spec{N: 10}, Execution: queens.Execution{Workers: 1}, Shard: shard.Index{I: 0, K: 4}, Out: a})
	if err != nil {
		t.Fatal(err)
	}
	b := filepath.Join(dir, "b.json")
	jb, err := Open(Config{Spec: queens.Spec{N: 10}, Execution: queens.Execution{Workers: 1}, Shard: shard.Index{I: 2, K: 4}, Out: b})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := jb.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	os.Rename(b, a)
	other, _ := os.ReadFile(a)
	o, err := j.Run(context.Background())
	if o == nil || err == nil || !strings.Contains(err.Error(), "holds shard 2/4 of this run") || !strings.Contains(err.Error(), "written to "+a+".shard-0-of-4 instead") {
		t.Fatalf("%v", err)
	}
	if after, _ := os.ReadFile(a); !bytes.Equal(after, other) {
		t.Error("the other shard's file was replaced")
	}
	if f, err := shard.Read(a + ".shard-0-of-4"); err != nil || f.Shard != 0 || len(f.Results) != len(j.Tasks()) {
		t.Errorf("the result beside it: %+v %v", f, err)
	}
}

// A checkpoint removed while the job runs (its folder gone): a count that
// finishes keeps its total, with a warning; an interrupted one fails with
// journal.ErrRemoved rather than the interruption, so that nobody is told
// to resume from a file that is gone.
func TestCheckpointRemoved(t *testing.T) {
	for _, interrupted := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "run")
		os.Mkdir(dir, 0o755)
		path := filepath.Join(dir, "j")
		j, err := Open(Config{Spec: queens.Spec{N: 10}, Execution: queens.Execution{Workers: 1}, Checkpoint: path})
		if err != nil {
			t.Fatal(err)
		}
		os.RemoveAll(dir)
		ctx, cancel := context.WithCancel(context.Background())
		if interrupted {
			cancel()
		}
		out, err := j.Run(ctx)
		cancel()
		switch {
		case interrupted && (!errors.Is(err, journal.ErrRemoved) || errors.Is(err, context.Canceled)):
			t.Errorf("interrupted: %v, want journal.ErrRemoved", err)
		case !interrupted && (err != nil || out.Total.String() != "724" || len(out.Warnings) != 1 || !strings.Contains(out.Warnings[0], "complete without it")):
			t.Errorf("finished: %+v, %v", out, err)
		}
	}
}
