package shard

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestAssignCoversAndBalances(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	costs := make([]uint64, 5000)
	var sum, maxc uint64
	for i := range costs {
		costs[i] = uint64(rng.ExpFloat64() * 1000)
		sum += costs[i]
		maxc = max(maxc, costs[i])
	}
	for _, k := range []int{1, 2, 7, 64} {
		sh := Assign(costs, k)
		if len(sh) != k {
			t.Fatalf("k=%d: %d shards", k, len(sh))
		}
		seen := make([]bool, len(costs))
		for _, ids := range sh {
			var c uint64
			for i, id := range ids {
				if seen[id] || i > 0 && ids[i-1] >= id {
					t.Fatalf("k=%d: id %d repeated or out of order", k, id)
				}
				seen[id] = true
				c += max(costs[id], 1)
			}
			// LPT: no shard exceeds the mean by more than the largest task.
			if c > sum/uint64(k)+maxc+uint64(len(costs)) {
				t.Errorf("k=%d: shard cost %d, mean %d", k, c, sum/uint64(k))
			}
		}
		for id, ok := range seen {
			if !ok {
				t.Fatalf("k=%d: task %d in no shard", k, id)
			}
		}
		if !reflect.DeepEqual(sh, Assign(costs, k)) {
			t.Fatalf("k=%d: not deterministic", k)
		}
	}
	// More shards than tasks: some shards are empty, none is lost.
	if sh := Assign([]uint64{5, 1}, 4); len(sh[0])+len(sh[1])+len(sh[2])+len(sh[3]) != 2 {
		t.Fatal(sh)
	}
}

// files makes the k shard files of a run of 20 tasks with task i counting i.
func files(t *testing.T, k int, run map[string]string) []string {
	dir := t.TempDir()
	costs := make([]uint64, 20)
	for i := range costs {
		costs[i] = uint64(i % 5)
	}
	var paths []string
	for s, ids := range Assign(costs, k) {
		f := &File{Run: run, Hash: "h" + run["n"], Tasks: 20, Shard: s, Shards: k}
		for _, id := range ids {
			f.Results = append(f.Results, TaskResult{ID: id, Count: uint64(id), Nodes: 10})
		}
		p := filepath.Join(dir, fmt.Sprintf("shard-%d.json", s))
		if err := Write(p, f); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

func merge(t *testing.T, paths ...string) (*Merged, error) {
	var fs []*File
	for _, p := range paths {
		f, err := Read(p)
		if err != nil {
			return nil, err
		}
		fs = append(fs, f)
	}
	return Merge(paths, fs)
}

var run8 = map[string]string{"n": "8", "version": "test"}

func TestMerge(t *testing.T) {
	p := files(t, 3, run8)
	m, err := merge(t, p[2], p[0], p[1])
	if err != nil {
		t.Fatal(err)
	}
	if m.Total.Count.String() != "190" || m.Total.Tasks != 20 || m.Total.Nodes.String() != "200" || len(m.Warnings) != 0 {
		t.Fatalf("%+v", m)
	}
	// The same shard twice, identical: warning, counted once.
	m, err = merge(t, p[0], p[1], p[2], p[1])
	if err != nil || len(m.Warnings) != 1 || m.Total.Count.String() != "190" {
		t.Fatalf("%+v %v", m, err)
	}
}

func TestMergeFailures(t *testing.T) {
	p := files(t, 3, run8)
	if _, err := merge(t, p[0], p[2]); !errors.Is(err, ErrIncomplete) || !strings.Contains(err.Error(), ": 1 (numbered from 0)") {
		t.Errorf("missing shard: %v", err)
	}
	// Conflicting duplicate.
	f, _ := Read(p[1])
	f.Results[0].Count++
	bad := filepath.Join(t.TempDir(), "bad.json")
	Write(bad, f)
	if _, err := merge(t, p[0], p[1], p[2], bad); err == nil || !strings.Contains(err.Error(), "different results") {
		t.Errorf("conflicting duplicate: %v", err)
	}
	// Other run.
	q := files(t, 3, map[string]string{"n": "9", "version": "test"})
	if _, err := merge(t, p[0], p[1], q[2]); err == nil || !strings.Contains(err.Error(), "different runs") || !strings.Contains(err.Error(), `n "8" vs "9"`) {
		t.Errorf("other run: %v", err)
	}
	// Other K.
	r := files(t, 2, run8)
	if _, err := merge(t, p[0], p[1], r[1]); err == nil || !strings.Contains(err.Error(), "3 vs 2 shards") {
		t.Errorf("other K: %v", err)
	}
	// Edited total.
	b, _ := os.ReadFile(p[0])
	os.WriteFile(bad, []byte(strings.Replace(string(b), `"count": 1`, `"count": 2`, 1)), 0o644)
	if _, err := Read(bad); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("edited result: %v", err)
	}
	// Not a shard file.
	os.WriteFile(bad, []byte(`{"n": 8}`), 0o644)
	if _, err := Read(bad); err == nil {
		t.Error("foreign JSON accepted")
	}
	if _, err := Merge(nil, nil); err == nil {
		t.Error("empty merge succeeded")
	}
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Index{"0/1": {0, 1}, "3/16": {3, 16}, "15/16": {15, 16}} {
		if got, err := Parse(in); err != nil || got != want || got.String() != in {
			t.Errorf("Parse(%q) = %v, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "3", "3/3", "-1/2", "1/0", "a/b", "1/2/3", " 1/2", "0/99999999999999999999"} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), "0 <= I < K") {
			t.Errorf("Parse(%q): %v", in, err)
		}
	}
}

func TestFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env    map[string]string
		shards int
		want   Index
		err    string
	}{
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "7"}, want: Index{3, 8}},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "8"}, want: Index{7, 8}},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, shards: 4, want: Index{2, 4}},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, err: "SLURM_ARRAY_TASK_COUNT is not set"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "4"}, err: "contiguous"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "x"}, err: "whole number"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "99999999999999999999"}, err: "whole number"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2"}, shards: 3, err: "SLURM_ARRAY_TASK_COUNT=2"},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "2"}, err: "outside 0..1"},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "5"}, shards: 6, want: Index{5, 6}},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "5"}, err: "completions"},
		{env: map[string]string{"JOB_COMPLETION_INDEX": "6"}, shards: 6, err: "not below"},
		{env: map[string]string{}, err: "neither"},
	} {
		got, err := FromEnv(func(k string) string { return tc.env[k] }, tc.shards)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v: got %v, want error with %q", tc.env, err, tc.err)
			}
			if strings.Contains(tc.err, "not set") || tc.err == "completions" {
				if !errors.Is(err, ErrCountUnknown) {
					t.Errorf("%v: %v does not wrap ErrCountUnknown", tc.env, err)
				}
			}
		} else if err != nil || got != tc.want {
			t.Errorf("%v: got %v %v, want %v", tc.env, got, err, tc.want)
		}
	}
}

// Select bounds K by the number of tasks, so that a K of billions is an
// error at once rather than a panic or an exhausted memory.
func TestSelect(t *testing.T) {
	costs := []uint64{8, 1, 1, 4, 2, 2}
	for x, want := range map[Index][]int{{0, 2}: {0, 1}, {1, 2}: {2, 3, 4, 5}, {5, 6}: {2}, {4, 6}: {1}} {
		if got, err := Select(costs, x); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Select(%v) = %v, %v, want %v", x, got, err, want)
		}
	}
	for _, x := range []Index{{0, 7}, {0, int(^uint(0) >> 1 / 2)}, {0, math.MaxInt}, {3, 3}, {-1, 2}, {0, 0}} {
		if _, err := Select(costs, x); err == nil {
			t.Errorf("Select(%v): no error", x)
		}
	}
	if _, err := Select(costs, Index{0, 7}); err == nil || !strings.Contains(err.Error(), "at most 6 shards") {
		t.Errorf("K above the tasks: %v", err)
	}
}

// The program version is information: shards of different builds merge,
// and the versions are listed.
func TestMergePrograms(t *testing.T) {
	p := files(t, 3, run8)
	var fs []*File
	for i, path := range p {
		f, err := Read(path)
		if err != nil {
			t.Fatal(err)
		}
		f.Program = []string{"v1.1.0", "v1.0.0", "v1.1.0"}[i]
		fs = append(fs, f)
	}
	m, err := Merge(p, fs)
	if err != nil || !reflect.DeepEqual(m.Programs, []string{"v1.0.0", "v1.1.0"}) {
		t.Fatalf("%v %v", m, err)
	}
}
