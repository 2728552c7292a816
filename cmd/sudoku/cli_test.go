package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/clitest"
)

func TestHelperMain(t *testing.T) { clitest.HelperMain(t, main) }

// noSolution has no clash among its givens, and no solution.
const noSolution = "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4."

// puzzleFile writes n copies of an easy puzzle (a solution with its first
// row blank) into a file.
func puzzleFile(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.txt")
	if err := os.WriteFile(path, []byte(strings.Repeat("........."+top1Sol[9:]+"\n", n)), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// outputCommands are the commands whose output goes through the checks.
func outputCommands(t *testing.T) [][]string {
	file := puzzleFile(t, 10000) // more than one batch, more than one buffer
	return [][]string{
		{"solve", file},
		{"solve", file, "--format", "json"},
		{"solve", top1, "--format", "grid"},
		{"count", top1},
		{"rate", top1},
		{"generate", "--seed", "1", "--count", "2", "--difficulty", "singles"},
		{"--version"},
		{"-h"},
		{"solve", "-h"},
	}
}

// Output that cannot be written is an error: one line and status 1.
func TestOutputFull(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	for _, args := range outputCommands(t) {
		code, errOut := clitest.Run(t, clitest.DevFull(t), "sudoku", args...)
		if code != cli.ExitFail || errOut != "sudoku: cannot write the output: no space left on device\n" {
			t.Errorf("%v > /dev/full: exit %d, stderr %q; want %d and one line", args, code, errOut, cli.ExitFail)
		}
	}
}

// A reader that goes away (sudoku ... | head) ends the command quietly,
// with status 0, like 'nqueens solutions | head'.
func TestOutputBrokenPipe(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	for _, args := range outputCommands(t) {
		code, errOut := clitest.Run(t, clitest.BrokenPipe(t), "sudoku", args...)
		if code != cli.ExitOK || errOut != "" {
			t.Errorf("%v into a closed pipe: exit %d, stderr %q; want 0 and nothing", args, code, errOut)
		}
	}
}

// failAfter accepts n bytes, then fails as a full disk does.
type failAfter struct{ n int }

func (f *failAfter) Write(b []byte) (int, error) {
	if len(b) > f.n {
		n := f.n
		f.n = 0
		return n, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
	}
	f.n -= len(b)
	return len(b), nil
}

// A disk that fills up halfway is an error too, not a success with the
// output cut short.
func TestOutputFillsUp(t *testing.T) {
	file := puzzleFile(t, 20000)
	var errb strings.Builder
	code := app.Run(t.Context(), &cli.Env{Stdout: &failAfter{n: 100_000}, Stderr: &errb}, []string{"solve", file})
	if code != cli.ExitFail || errb.String() != "sudoku: cannot write the output: no space left on device\n" {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

func TestHelpOnStdout(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}, {"help", "solve"}, {"solve", "-h"}, {"count", "--help"}, {"generate", "-h"}, {"rate", "-h"}} {
		code, out, errOut := call(t, "", args...)
		if code != cli.ExitOK || errOut != "" || !strings.HasPrefix(out, "usage: sudoku") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want the usage on stdout", args, code, out, errOut)
		}
	}
	if _, out, _ := call(t, "", "solve", "-h"); !strings.Contains(out, "the 9-line grid") || !strings.Contains(out, "-workers") {
		t.Errorf("solve -h does not describe the input and flags:\n%s", out)
	}
	if code, _, errOut := call(t, "", "help", "nope"); code != cli.ExitUsage || !strings.Contains(errOut, `unknown command "nope"`) {
		t.Errorf("help nope: %d %q", code, errOut)
	}
}

func TestVersion(t *testing.T) {
	code, out, errOut := call(t, "", "--version")
	if code != cli.ExitOK || errOut != "" || !strings.HasPrefix(out, "sudoku ") || strings.Count(out, "\n") != 1 {
		t.Errorf("--version: exit %d, %q %q", code, out, errOut)
	}
}

// A puzzle given as the argument is read as a puzzle, and a bad one is
// reported as a bad puzzle, not as a missing file.
func TestArgumentPuzzle(t *testing.T) {
	for _, c := range []struct {
		arg, msg string
		code     int
	}{
		{"1...1" + top1[5:], "sudoku: argument:1: givens clash: r1c1 and r1c5 are both 1 in row 1 (skipped)", cli.ExitFail},
		{top1[:80], "sudoku: argument:1: 80 cells, want 81 (skipped)", cli.ExitFail},
		{"x" + top1[1:], `sudoku: argument:1: character 1 is "x", not a digit or '.' (skipped)`, cli.ExitFail},
		{"4 . . | . 3 . | . . .", "sudoku: argument:1: grid of 1 row, want 9 (skipped)", cli.ExitFail},
		{"1...1", `sudoku: "1...1" is neither a file (no such file) nor a puzzle (5 cells, want 81)`, cli.ExitUsage},
		{"no/such/file.txt", `sudoku: "no/such/file.txt" is neither a file`, cli.ExitUsage},
	} {
		code, out, errOut := call(t, "", "solve", c.arg)
		if code != c.code || out != "" || !strings.HasPrefix(errOut, c.msg) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("solve %q: exit %d, stdout %q, stderr %q; want %d and %q", c.arg, code, out, errOut, c.code, c.msg)
		}
	}
	g, _ := sudoku.Parse(top1)
	if code, out, _ := call(t, "", "solve", g.GridString()); code != cli.ExitOK || out != top1Sol+" unique\n" {
		t.Errorf("a grid as the argument: %d %q", code, out)
	}
}

// The docs: status 1 for a puzzle without a solution, for count as for
// solve.
func TestNoSolutionFails(t *testing.T) {
	for _, cmd := range []string{"count", "solve"} {
		code, out, _ := call(t, "", cmd, noSolution)
		want := noSolution + " 0\n"
		if cmd == "solve" {
			want = noSolution + " none\n"
		}
		if code != cli.ExitFail || out != want {
			t.Errorf("%s: exit %d, %q; want %d, %q", cmd, code, out, cli.ExitFail, want)
		}
	}
}

func TestWorkersCap(t *testing.T) {
	for _, args := range [][]string{
		{"solve", top1, "--workers", "10000000"},
		{"count", top1, "--workers", "1025"},
		{"generate", "--workers", "10000000"},
		{"rate", top1, "--workers", "-1"},
	} {
		code, out, errOut := call(t, "", args...)
		if code != cli.ExitUsage || out != "" || !strings.Contains(errOut, "is out of range: choose 0 (every core) to 1024") {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
	if code, _, errOut := call(t, "", "count", top1, "--workers", "1024"); code != cli.ExitOK {
		t.Errorf("--workers %d: exit %d %q", cli.MaxWorkers, code, errOut)
	}
}

func TestPlurals(t *testing.T) {
	// One clue, one solution counted: no "1 clues", no "1 solutions".
	p := top1Sol[:80] + "."
	_, out, _ := call(t, "", "count", p, "--format", "grid")
	if !strings.HasPrefix(out, "# line 1: 1 solution\n") {
		t.Errorf("count --format grid: %q", out)
	}
	_, _, errOut := call(t, "", "solve", "1"+strings.Repeat(".", 80))
	if !strings.Contains(errOut, "note: 1 clue;") {
		t.Errorf("solve of one clue: %q", errOut)
	}
}
