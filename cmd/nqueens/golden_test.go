package main

import (
	"bytes"
	"context"
	"runtime"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/clitest"
)

// TestGolden compares the human output of the commands, stdout, stderr
// and exit status, with testdata/golden. After a deliberate change:
// go test ./cmd/nqueens -run Golden -update, then review git diff.
// Machine-dependent figures are pinned (--kernel generic, 2 workers) or
// normalised (times, rates); 'cpu' and '--version' describe the machine
// and the build, so they have none.
func TestGolden(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2)) // the --workers default shown by -h
	for _, c := range []struct {
		name string
		args []string
	}{
		{"count", []string{"count", "8", "--kernel", "generic", "--workers", "2"}},
		{"count-one", []string{"count", "1", "--kernel", "generic", "--workers", "1"}},
		{"count-unique", []string{"count", "10", "--unique", "--kernel", "generic", "--workers", "2"}},
		{"count-halving", []string{"count", "12", "--method", "halving", "--depth", "2", "--kernel", "generic", "--workers", "2"}},
		{"count-json", []string{"count", "8", "--json", "--unique", "--kernel", "generic", "--workers", "1"}},
		{"count-zero", []string{"count", "0"}},
		{"count-not-a-number", []string{"count", "12x"}},
		{"count-huge", []string{"count", "99999999999999999999"}},
		{"count-no-args", []string{"count"}},
		{"count-bad-flag", []string{"count", "8", "--bogus"}},
		{"count-help", []string{"count", "-h"}},
		{"verify", []string{"verify", "--max", "6", "--workers", "1", "--kernel", "generic"}},
		{"verify-help", []string{"verify", "-h"}},
		{"solutions", []string{"solutions", "6"}},
		{"solutions-coords", []string{"solutions", "8", "--limit", "3", "--format", "coords"}},
		{"solutions-board", []string{"solutions", "5", "--limit", "1", "--format", "board", "--ascii"}},
		{"solutions-unique-board", []string{"solutions", "8", "--unique", "--limit", "2", "--format", "board"}},
		{"solutions-json", []string{"solutions", "6", "--format", "json"}},
		{"solutions-trace", []string{"solutions", "5", "--limit", "2", "--trace", "--trace-limit", "6"}},
		{"solutions-too-big", []string{"solutions", "40"}},
		{"solutions-help", []string{"solutions", "-h"}},
		{"solve", []string{"solve", "8"}},
		{"solve-json", []string{"solve", "20", "--format", "json"}},
		{"solve-construct-board", []string{"solve", "8", "--method", "construct", "--format", "board"}},
		{"solve-none", []string{"solve", "2"}},
		{"solve-trace", []string{"solve", "4", "--trace"}},
		{"solve-trace-cut", []string{"solve", "8", "--trace", "--trace-limit", "1"}},
		{"solve-help", []string{"solve", "-h"}},
		{"merge-help", []string{"merge", "-h"}},
		{"bench-help", []string{"bench", "-h"}},
		{"bench-two-formats", []string{"bench", "--json", "--csv"}},
		{"usage", []string{"help"}},
		{"no-command", nil},
		{"unknown-command", []string{"frobnicate"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := app.Run(context.Background(), &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, c.args)
			clitest.Golden(t, c.name, clitest.Transcript("nqueens", c.args, "", code, out.String(), errb.String()))
		})
	}
}
