package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/sysmem"
)

func TestParseBytes(t *testing.T) {
	for _, c := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"8GiB", 8 << 30, true},
		{"8gib", 8 << 30, true},
		{"8G", 8 << 30, true},
		{"8 GB", 8 << 30, true},
		{"512MiB", 512 << 20, true},
		{"1.5GiB", 3 << 29, true},
		{"2TiB", 2 << 40, true},
		{"1048576", 1 << 20, true},
		{"4096KiB", 4 << 20, true},
		{"1KiB", 0, false}, // less than 1 MiB
		{"0", 0, false},
		{"-1GiB", 0, false},
		{"", 0, false},
		{"GiB", 0, false},
		{"8XB", 0, false},
		{"8 gigs", 0, false},
		{"NaN", 0, false},
		{"9999999TiB", 0, false},
	} {
		got, err := parseBytes(c.in)
		if c.ok != (err == nil) || c.ok && got != c.want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

// FuzzParseBytes: any input gives a size of at least 1 MiB or an error,
// never a panic.
func FuzzParseBytes(f *testing.F) {
	for _, s := range []string{"8GiB", "1.5g", "12345678", "", "x", "1e400", ".", "0.0000001TiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if b, err := parseBytes(s); err == nil && b < 1<<20 {
			t.Fatalf("parseBytes(%q) = %d without error", s, b)
		}
	})
}

// --memory beyond what the machine can give (the least of its physical
// memory, cgroup limit and Slurm allocation) is refused in one line, by
// every command that counts here (1TiB on a 24 GiB machine was once
// accepted silently). The size asked is twice the least.
func TestMemoryOverMachine(t *testing.T) {
	l, ok := sysmem.Smallest()
	if !ok {
		t.Fatal("this system states no memory limit (sysmem.Smallest)")
	}
	over := strconv.FormatUint(2*l.Bytes>>20, 10) + "MiB"
	for _, args := range [][]string{{"count", "8"}, {"verify", "--max", "8"}, {"estimate", "8"}} {
		code, _, errs := runCLI(append(args, "--memory", over)...)
		if code != cli.ExitUsage || !strings.Contains(errs, "--memory "+over+" is more than this machine can give: its "+l.Source) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%v --memory %s: exit %d, stderr %q", args, over, code, errs)
		}
	}
	if code, _, errs := runCLI("count", "8", "--memory", strconv.FormatUint(l.Bytes>>20, 10)+"MiB"); code != cli.ExitOK {
		t.Errorf("--memory at the limit: exit %d: %s", code, errs)
	}
}

// --shard env with Slurm's and Kubernetes' indices naming two shards is
// refused in one line, before any work (one was once picked silently).
func TestShardEnvDisagrees(t *testing.T) {
	t.Setenv("SLURM_ARRAY_TASK_ID", "1")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "2")
	t.Setenv("JOB_COMPLETION_INDEX", "0")
	out := t.TempDir() + "/s.json"
	code, _, errs := runCLI("count", "10", "--shard", "env", "--out", out)
	if code != cli.ExitUsage || !strings.Contains(errs, "names two shards") || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
		t.Errorf("exit %d, stderr %q: want 2 and one line", code, errs)
	}
}
