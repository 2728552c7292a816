package main

import (
	"runtime"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/internal/clitest"
)

// TestGolden compares the human output of the commands, stdout, stderr
// and exit status, with testdata/golden. After a deliberate change:
// go test ./cmd/sudoku -run Golden -update, then review git diff.
// '--version' describes the build, so it has none.
func TestGolden(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	mixed := strings.Join([]string{top1, "1...1" + top1[5:], top1[:80], strings.Repeat(".", 81), noSolution, "x" + top1[1:], ""}, "\n")
	for _, c := range []struct {
		name  string
		stdin string
		args  []string
	}{
		{"solve", top1 + "\n", []string{"solve"}},
		{"solve-mixed", mixed, []string{"solve"}},
		{"solve-grid", top1 + "\n", []string{"solve", "--format", "grid"}},
		{"solve-json", top1 + "\n", []string{"solve", "--format", "json"}},
		{"solve-argument", "", []string{"solve", "1...1" + top1[5:]}},
		{"solve-neither", "", []string{"solve", "1...1"}},
		{"solve-help", "", []string{"solve", "-h"}},
		{"count", "", []string{"count", "..................392578461134756298289413675675289314846192753513867942927345186"}},
		{"count-grid", "", []string{"count", "--format", "grid", "..................392578461134756298289413675675289314846192753513867942927345186"}},
		{"count-limit", "", []string{"count", "--limit", "1000", "--workers", "1", strings.Repeat(".", 72) + "123456789"}},
		{"count-none", "", []string{"count", noSolution}},
		{"count-help", "", []string{"count", "-h"}},
		{"rate", top1 + "\n" + strings.Repeat(".", 81) + "\n", []string{"rate"}},
		{"rate-help", "", []string{"rate", "-h"}},
		{"generate", "", []string{"generate", "--difficulty", "hard", "--count", "3", "--seed", "42"}},
		{"generate-grid", "", []string{"generate", "--difficulty", "intermediate", "--symmetric", "--seed", "42", "--format", "grid"}},
		{"generate-json", "", []string{"generate", "--difficulty", "singles", "--seed", "7", "--format", "json"}},
		{"generate-help", "", []string{"generate", "-h"}},
		{"workers-too-many", "", []string{"generate", "--workers", "10000000"}},
		{"usage", "", []string{"help"}},
		{"no-command", "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := call(t, c.stdin, c.args...)
			clitest.Golden(t, c.name, clitest.Transcript("sudoku", c.args, c.stdin, code, out, errOut))
		})
	}
}
