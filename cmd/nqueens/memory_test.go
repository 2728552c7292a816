package main

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/internal/cli"
)

// TestCountWithinMemory runs counts on the join's bounded path (chosen for
// a --memory below what its tables need, or asked for), and checks from
// the process's own report (peak_memory_bytes, VmHWM) that the whole
// process stayed within --memory, and that the counts are exact.
func TestCountWithinMemory(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		mib  uint64
	}{
		{[]string{"count", "18", "--workers", "2"}, 32},
		{[]string{"count", "17", "--workers", "1", "--path", "bounded", "--checkpoint", filepath.Join(dir, "j17")}, 26},
		{[]string{"count", "16", "--workers", "2", "--path", "bounded", "--shard", "0/4", "--out", filepath.Join(dir, "s16")}, 28},
	} {
		args := append(c.args, "--memory", strconv.FormatUint(c.mib, 10)+"MiB", "--json")
		code, out, errs := runBin(t, args...)
		if code != cli.ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var r struct {
			Path    string  `json:"path"`
			Peak    uint64  `json:"peak_memory_bytes"`
			Limit   uint64  `json:"memory_limit_bytes"`
			Matches *bool   `json:"matches_known"`
			Shard   string  `json:"shard"`
			Seconds float64 `json:"seconds"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v: %v: %q", args, err, out)
		}
		if r.Path != "bounded" || r.Limit != c.mib<<20 {
			t.Errorf("%v: path %q, limit %d: want the bounded path within %d MiB", args, r.Path, r.Limit, c.mib)
		}
		if r.Peak == 0 || r.Peak > c.mib<<20 {
			t.Errorf("%v: peak memory %.1f MiB, above the %d MiB allowed (or not reported)", args, float64(r.Peak)/(1<<20), c.mib)
		}
		if r.Shard == "" && (r.Matches == nil || !*r.Matches) {
			t.Errorf("%v: %s", args, out)
		}
		t.Logf("%s: peak %.1f MiB of %d, %.2f s", strings.Join(args, " "), float64(r.Peak)/(1<<20), c.mib, r.Seconds)
	}
	// Below what even the bounded path needs: refused at once, one line.
	code, _, errs := runBin(t, "count", "24", "--memory", "8MiB")
	if code != cli.ExitUsage || !strings.Contains(errs, "not enough memory") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("count 24 in 8 MiB: exit %d, %q", code, errs)
	}
}

// TestPathsShareTasks: the path changes neither the plan nor the results:
// shards counted on different paths merge into the exact total, and a
// checkpoint written on one path resumes on the other.
func TestPathsShareTasks(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i, path := range []string{"bounded", "tables", "bounded"} {
		f := filepath.Join(dir, "s"+strconv.Itoa(i))
		files = append(files, f)
		if code, _, errs := runBin(t, "count", "15", "--path", path, "--shard", strconv.Itoa(i)+"/3", "--out", f); code != cli.ExitOK {
			t.Fatalf("shard %d on %s: %s", i, path, errs)
		}
	}
	code, out, errs := runBin(t, append([]string{"merge", "--json"}, files...)...)
	if code != cli.ExitOK || !strings.Contains(out, `"total":2279184`) {
		t.Fatalf("merge: exit %d, %s %s", code, out, errs)
	}
	j := filepath.Join(dir, "j16")
	if code, _, errs := runBin(t, "count", "16", "--path", "bounded", "--checkpoint", j); code != cli.ExitOK {
		t.Fatal(errs)
	}
	code, out, errs = runBin(t, "count", "16", "--path", "tables", "--checkpoint", j, "--json")
	if r := decode(t, out); code != cli.ExitOK || r.Total != 14772512 || r.ResumedTasks != r.Tasks {
		t.Fatalf("resumed on the other path: exit %d, %+v, %s", code, r, errs)
	}
}
