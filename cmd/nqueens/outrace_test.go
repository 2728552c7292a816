package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nqcount/nqcount/count/shard"
	"github.com/nqcount/nqcount/internal/cli"
)

// Two shards of one run started at once with one --out (once: in 2 of
// 11 tries both said "written to s.json" and one shard was lost). In
// every round one writes the file and the other, refused, writes
// its result beside it and fails saying where: both results are kept, and
// merge adds them up.
func TestOutRace(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := binary(t)
	rounds, refusedEarly := 30, 0
	defer func() { t.Logf("%d rounds, %d refused before counting", rounds, refusedEarly) }()
	for round := range rounds {
		dir := t.TempDir()
		out := filepath.Join(dir, "s.json")
		var (
			wg    sync.WaitGroup
			codes [2]int
			errs  [2]string
			start = make(chan struct{})
		)
		for i := range 2 {
			cmd := exec.Command(bin, "count", "12", "--shard", []string{"0/2", "1/2"}[i], "--out", out, "--workers", "1")
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &bytes.Buffer{}, &stderr
			wg.Go(func() {
				<-start
				err := cmd.Run()
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					codes[i] = ee.ExitCode()
				} else if err != nil {
					codes[i] = -1
				}
				errs[i] = stderr.String()
			})
		}
		close(start)
		wg.Wait()
		won := -1
		for i := range 2 {
			if codes[i] == cli.ExitOK {
				if won >= 0 {
					t.Fatalf("round %d: both shards wrote %s", round, out)
				}
				won = i
			}
		}
		if won < 0 {
			t.Fatalf("round %d: neither shard wrote %s: exits %v, %q", round, out, codes, errs)
		}
		f, err := shard.Read(out)
		if err != nil || f.Shard != won {
			t.Fatalf("round %d: %s holds %+v (%v), want shard %d", round, out, f, err, won)
		}
		// The other was refused: before counting when the file was
		// there already (exit 2, nothing counted), else after, with its
		// result written beside (exit 1).
		lost := 1 - won
		alt := out + ".shard-" + []string{"0", "1"}[lost] + "-of-2"
		switch {
		case codes[lost] == cli.ExitUsage && strings.Contains(errs[lost], "refusing to replace it"):
			refusedEarly++
		case codes[lost] == cli.ExitFail && strings.Contains(errs[lost], "written to "+alt+" instead"):
			if code, stdout, stderr := runBin(t, "merge", out, alt); code != cli.ExitOK || !strings.Contains(stdout, "14200") {
				t.Fatalf("round %d: merge: exit %d, %s%s", round, code, stdout, stderr)
			}
		default:
			t.Fatalf("round %d: the refused shard: exit %d, %q", round, codes[lost], errs[lost])
		}
		os.RemoveAll(dir)
	}
}
