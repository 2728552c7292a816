package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/shard"
	"github.com/nqcount/nqcount/internal/cli"
)

// twoShards counts n = 10 in two shards and returns their files.
func twoShards(t *testing.T) (dir, s0, s1 string) {
	t.Helper()
	dir = t.TempDir()
	s0, s1 = filepath.Join(dir, "s0.json"), filepath.Join(dir, "s1.json")
	for i, out := range []string{s0, s1} {
		if code, _, errs := runCLI("count", "10", "--shard", []string{"0/2", "1/2"}[i], "--out", out); code != cli.ExitOK {
			t.Fatal(errs)
		}
	}
	return dir, s0, s1
}

// edit rewrites the JSON file in to out through fn.
func edit(t *testing.T, in, out string, fn func(m map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatal(err)
	}
	fn(m)
	if b, err = json.MarshalIndent(m, "", " "); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// oneLine checks that stderr is one line naming the program, holding want
// and none of notWant.
func oneLine(t *testing.T, what, stderr, want string, notWant ...string) {
	t.Helper()
	if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "nqueens: ") || !strings.Contains(stderr, want) {
		t.Errorf("%s: stderr %q, want one line with %q", what, stderr, want)
	}
	for _, s := range notWant {
		if strings.Contains(stderr, s) {
			t.Errorf("%s: stderr %q says %q", what, stderr, s)
		}
	}
}

// Fixed defects: the counts a shard file claims are checked
// before anything is made from them (shards = 10^9 grew merge to 24 GB),
// and a file edited or damaged is refused as such, with the numbers that
// disagree; a file edited consistently is caught by the OEIS, and the
// message blames the files, not the program.
func TestMergeEditedShards(t *testing.T) {
	dir, s0, s1 := twoShards(t)
	if code, out, errs := runCLI("merge", s0, s1); code != cli.ExitOK || !strings.Contains(out, "724 solutions (matches") {
		t.Fatalf("merge: exit %d, %s%s", code, out, errs)
	}
	bad := filepath.Join(dir, "bad.json")
	for _, tc := range []struct {
		name string
		fn   func(m map[string]any)
		want string
	}{
		{"shards 1e9", func(m map[string]any) { m["shards"] = 1000000000 }, "into 1000000000 shards"},
		{"shards 1e8", func(m map[string]any) { m["shards"] = 100000000 }, "into 100000000 shards"},
		{"tasks 1e9", func(m map[string]any) { m["tasks"] = 1000000000 }, "1000000000 tasks, outside 1 to"},
		{"tasks float", func(m map[string]any) { m["tasks"] = json.Number("1e9") }, "field tasks: want a whole number, got number 1e9"},
		{"shard negative", func(m map[string]any) { m["shard"] = -1 }, "shard -1 is outside 0 to 1"},
		{"total nodes only", func(m map[string]any) { m["total"].(map[string]any)["nodes"] = json.Number("1") }, "total nodes 1, but the results add up to"},
		{"a result's nodes", func(m map[string]any) {
			m["results"].([]any)[0].(map[string]any)["nodes"] = json.Number("99")
		}, "99 nodes) does not match its checksum"},
		{"checksums stripped", func(m map[string]any) {
			for _, r := range m["results"].([]any) {
				delete(r.(map[string]any), "checksum")
			}
		}, "has no checksum"},
	} {
		edit(t, s0, bad, tc.fn)
		start := time.Now()
		code, out, errs := runCLI("merge", bad, s1)
		if code != cli.ExitFail || out != "" {
			t.Errorf("%s: exit %d, stdout %q", tc.name, code, out)
		}
		oneLine(t, tc.name, errs, tc.want, "bug")
		if !strings.Contains(errs, "edited or damaged") {
			t.Errorf("%s: %q does not say the file was edited or damaged", tc.name, errs)
		}
		if el := time.Since(start); el > 10*time.Second {
			t.Errorf("%s: %v", tc.name, el)
		}
	}
	// Edited consistently: a count changed, its checksum and the total
	// redone.
	f, err := shard.Read(s0)
	if err != nil {
		t.Fatal(err)
	}
	f.Results[0].Count++
	os.Remove(bad)
	if err := shard.Write(bad, f); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI("merge", bad, s1)
	if code != cli.ExitFail {
		t.Errorf("edited consistently: exit %d", code)
	}
	oneLine(t, "edited consistently", errs, "disagrees with the OEIS: the result files were edited or damaged", "bug")
}

// A fixed defect: an export stripped of its job and records merged as a
// plain shard with no check. Its results carry checksums like a shard's, so
// an edit is caught whatever is stripped.
func TestMergeStrippedExport(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.json")
	if code, _, errs := runCLI("count", "9", "--shard", "0/1", "--out", whole); code != cli.ExitOK {
		t.Fatal(errs)
	}
	f, err := shard.Read(whole)
	if err != nil {
		t.Fatal(err)
	}
	x := &client.Export{File: *f, Job: "q9x", Records: []queue.Record{}}
	exp := filepath.Join(dir, "export.json")
	if err := client.WriteExport(exp, x); err != nil {
		t.Fatal(err)
	}
	stripped := filepath.Join(dir, "stripped.json")
	edit(t, exp, stripped, func(m map[string]any) {
		delete(m, "job")
		delete(m, "records")
		r := m["results"].([]any)[1].(map[string]any)
		r["count"] = json.Number("1000")
	})
	code, _, errs := runCLI("merge", stripped)
	if code != cli.ExitFail {
		t.Errorf("stripped and edited: exit %d", code)
	}
	oneLine(t, "stripped and edited", errs, "does not match its checksum", "bug")
	// Stripped of its checksums too.
	edit(t, stripped, stripped, func(m map[string]any) {
		for _, r := range m["results"].([]any) {
			delete(r.(map[string]any), "checksum")
		}
	})
	code, _, errs = runCLI("merge", stripped)
	if code != cli.ExitFail {
		t.Errorf("stripped of everything: exit %d", code)
	}
	oneLine(t, "stripped of everything", errs, "has no checksum")
}

// Files of the earlier format, without checksums, merge only when asked.
func TestMergeLegacy(t *testing.T) {
	dir, s0, s1 := twoShards(t)
	old := filepath.Join(dir, "old.json")
	edit(t, s0, old, func(m map[string]any) {
		m["format"] = shard.LegacyFormat
		for _, r := range m["results"].([]any) {
			delete(r.(map[string]any), "checksum")
		}
	})
	code, _, errs := runCLI("merge", old, s1)
	if code != cli.ExitFail {
		t.Errorf("legacy: exit %d", code)
	}
	oneLine(t, "legacy", errs, "merge with --legacy to accept it")
	if code, out, errs := runCLI("merge", "--legacy", old, s1); code != cli.ExitOK || !strings.Contains(out, "724 solutions (matches") {
		t.Errorf("--legacy: exit %d, %s%s", code, out, errs)
	}
}

// A fixed defect: merge /dev/zero grew to 2.4 GB in 4 s and ignored
// SIGINT; input that never comes (a FIFO held open) waited forever.
func TestMergeEndlessInput(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err == nil {
		code, out, errs := runCLI("merge", "/dev/zero")
		if code != cli.ExitFail || out != "" {
			t.Errorf("/dev/zero: exit %d, %q", code, out)
		}
		oneLine(t, "/dev/zero", errs, "/dev/zero holds more than a shard result file can (64 MiB)")
	}
	fifo := mkfifo(t)
	if fifo == "" {
		return
	}
	w, err := os.OpenFile(fifo, os.O_RDWR, 0) // a writer that never writes
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	var out, errb bytes.Buffer
	start := time.Now()
	code := app.Run(ctx, &cli.Env{Stdout: &out, Stderr: &errb}, []string{"merge", fifo})
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("Ctrl-C during a read that never ends: %v", el)
	}
	if code != cli.ExitInterrupted || out.Len() != 0 {
		t.Errorf("FIFO held open: exit %d, %q", code, out.String())
	}
	oneLine(t, "FIFO held open", errb.String(), "interrupted")
}
