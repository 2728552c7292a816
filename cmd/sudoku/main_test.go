package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/refdata"
)

const top1 = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
const top1Sol = "468931527751624839392578461134756298289413675675289314846192753513867942927345186"

// call runs the command in-process with the given stdin.
func call(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = app.Run(context.Background(), &cli.Env{Stdin: strings.NewReader(stdin), Stdout: &o, Stderr: &e}, args)
	return code, o.String(), e.String()
}

func TestUsage(t *testing.T) {
	if code, _, errOut := call(t, ""); code != cli.ExitUsage || !strings.Contains(errOut, "usage: sudoku") {
		t.Errorf("no args: %d %q", code, errOut)
	}
	if code, _, _ := call(t, "", "help"); code != cli.ExitOK {
		t.Errorf("help: %d", code)
	}
	if code, _, errOut := call(t, "", "frobnicate"); code != cli.ExitUsage || !strings.Contains(errOut, `unknown command "frobnicate"`) {
		t.Errorf("unknown: %d %q", code, errOut)
	}
	for _, args := range [][]string{
		{"solve", "--format", "xml"},
		{"solve", "--workers", "-1"},
		{"solve", "--bogus"},
		{"solve", "a", "b"},
		{"solve", "/no/such/file"},
		{"generate", "--difficulty", "fiendish"},
		{"generate", "--score", "4-x"},
		{"generate", "--score", "6.0-4.0"},
		{"generate", "--score", "0.5-3"},
		{"generate", "--score", "12.5"},
		{"generate", "--score", "2.1-2.2"}, // no technique scores there (SE scale)
		{"generate", "--score", "4-6", "--difficulty", "hard"},
		{"generate", "--symmetry", "spiral"},
		{"generate", "--symmetric", "--symmetry", "mirror"},
		{"generate", "--max-tries", "-1"},
		{"explain", "--format", "xml"},
		{"rate", "a", "b"},
		{"generate", "extra"},
		{"count", "--limit", "x"},
	} {
		if code, _, errOut := call(t, "", args...); code != cli.ExitUsage || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want %d and a message", args, code, errOut, cli.ExitUsage)
		}
	}
	if code, _, _ := call(t, "", "solve", "-h"); code != cli.ExitOK {
		t.Errorf("solve -h: %d", code)
	}
}

func TestSolveBadPuzzlesSkipped(t *testing.T) {
	in := "# comment\n" + top1 + "\n" + top1[:80] + "\n" + "1...1" + top1[5:] + "\n" +
		strings.Repeat(".", 81) + "\n" + "1...5.2.9..7.......6.......2...........5.1..2....2.39.3.4.9...15...1...3...8...4.\n" + top1 + "\n"
	code, out, errOut := call(t, in, "solve")
	if code != cli.ExitFail {
		t.Errorf("exit %d, want %d", code, cli.ExitFail)
	}
	wantOut := top1Sol + " unique\n"
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || lines[0]+"\n" != wantOut || lines[3]+"\n" != wantOut ||
		!strings.HasSuffix(lines[1], " several") || !strings.HasSuffix(lines[2], " none") {
		t.Errorf("stdout:\n%s", out)
	}
	for _, w := range []string{
		"sudoku: stdin:3: 80 cells, want 81 (skipped)",
		"sudoku: stdin:4: givens clash: r1c1 and r1c5 are both 1 in row 1 (skipped)",
		"sudoku: stdin:5: note: 0 clues",
	} {
		if !strings.Contains(errOut, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errOut)
		}
	}
}

func TestFormatsRoundTrip(t *testing.T) {
	// What generate writes, in every format, solve and rate read back.
	for _, f := range []string{"line", "grid", "json"} {
		code, gen, errOut := call(t, "", "generate", "--seed", "5", "--count", "4", "--difficulty", "intermediate", "--format", f)
		if code != cli.ExitOK {
			t.Fatalf("generate %s: %d %s", f, code, errOut)
		}
		code, lineGen, _ := call(t, "", "generate", "--seed", "5", "--count", "4", "--difficulty", "intermediate")
		if code != cli.ExitOK {
			t.Fatal(code)
		}
		// Re-reading in line format gives the same puzzles.
		code, again, errOut := call(t, gen, "rate")
		if code != cli.ExitOK {
			t.Fatalf("rate of %s output: %d %s", f, code, errOut)
		}
		var puzzles []string
		for _, l := range strings.Split(strings.TrimSpace(again), "\n") {
			// PUZZLE LEVEL ER/EP/ED [SCALE VERSION]: the level stays the
			// second field.
			fields := strings.Fields(l)
			if len(fields) != 5 || fields[1] != "intermediate" || fields[3] != "[se" {
				t.Errorf("%s: rate wrote %q", f, l)
				continue
			}
			puzzles = append(puzzles, fields[0])
		}
		if strings.Join(puzzles, "\n")+"\n" != lineGen {
			t.Errorf("%s: read back\n%s\nwant\n%s", f, strings.Join(puzzles, "\n"), lineGen)
		}
		// solve's own output in this format reads back too.
		code, sol, _ := call(t, gen, "solve", "--format", f)
		if code != cli.ExitOK {
			t.Fatalf("solve %s: %d", f, code)
		}
		if code, _, errOut := call(t, sol, "solve"); code != cli.ExitOK {
			t.Errorf("solve of solve's %s output: %d %s", f, code, errOut)
		}
	}
}

func TestSolveJSON(t *testing.T) {
	code, out, _ := call(t, top1+"\n", "solve", "--format", "json")
	var v struct {
		Puzzle, Solution, Status string
		Solutions                uint64
		Line                     int
	}
	if code != cli.ExitOK || json.Unmarshal([]byte(out), &v) != nil || v.Puzzle != top1 || v.Solution != top1Sol || v.Solutions != 1 || v.Status != "unique" || v.Line != 1 {
		t.Errorf("%d %s -> %+v", code, out, v)
	}
}

func TestCountCommand(t *testing.T) {
	// Blank two rows of a solution: 4 ways to refill them.
	p := []byte(top1Sol)
	for i := 0; i < 18; i++ {
		p[i] = '.'
	}
	code, out, _ := call(t, "", "count", string(p), "--workers", "2")
	if code != cli.ExitOK || out != string(p)+" 4\n" {
		t.Errorf("count: %d %q", code, out)
	}
	code, out, _ = call(t, "", "count", strings.Repeat(".", 72)+"123456789", "--limit", "5000", "--format", "json")
	var v struct {
		Solutions    uint64 `json:"solutions"`
		LimitReached bool   `json:"limit_reached"`
	}
	if code != cli.ExitOK || json.Unmarshal([]byte(out), &v) != nil || v.Solutions != 5000 || !v.LimitReached {
		t.Errorf("count --limit: %d %s", code, out)
	}
}

func TestCountEdgeCasesFile(t *testing.T) {
	file := refdata.File(t, "sudoku", "edge-cases.answers.txt")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// The set has puzzles without a solution: every count is printed, and
	// the exit status says that some have none.
	code, out, errOut := call(t, "", "count", file)
	if code != cli.ExitFail || errOut != "" {
		t.Fatalf("exit %d, want %d: %s", code, cli.ExitFail, errOut)
	}
	var want []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(l, ":")
		want = append(want, f[0]+" "+f[1])
	}
	if strings.TrimSpace(out) != strings.Join(want, "\n") {
		t.Errorf("count of edge cases:\n%s", out)
	}
}

func TestInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var o, e bytes.Buffer
	code := app.Run(ctx, &cli.Env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e}, []string{"count", strings.Repeat(".", 81)})
	if code != cli.ExitInterrupted {
		t.Errorf("exit %d, want %d: %s", code, cli.ExitInterrupted, e.String())
	}
}

func TestCountManySolutions(t *testing.T) {
	// A solved grid with only its first band and first stack kept: 2,995
	// solutions, the figure the reference counter in count/sudoku's tests
	// finds by plain backtracking.
	p := "468931527751624839392578461134......289......675......846......513......927......"
	for _, w := range []string{"1", "2"} {
		code, out, errOut := call(t, "", "count", "--workers", w, p)
		if code != cli.ExitOK || out != p+" 2995\n" {
			t.Errorf("workers %s: exit %d, %q %q", w, code, out, errOut)
		}
	}
}

// TestSolverFlag: every variant through the command gives the same
// answers; an unknown one is a usage error naming the choices.
func TestSolverFlag(t *testing.T) {
	p := "468931527751624839392578461134......289......675......846......513......927......"
	for _, v := range sudoku.Variants() {
		if !v.Supported() {
			continue
		}
		if code, out, errOut := call(t, "", "count", "--solver", v.Name, p); code != cli.ExitOK || out != p+" 2995\n" {
			t.Errorf("count --solver %s: exit %d, %q %q", v.Name, code, out, errOut)
		}
		if code, out, errOut := call(t, top1+"\n", "solve", "--solver", v.Name); code != cli.ExitOK || out != top1Sol+" unique\n" {
			t.Errorf("solve --solver %s: exit %d, %q %q", v.Name, code, out, errOut)
		}
	}
	for _, cmd := range []string{"solve", "count"} {
		code, _, errOut := call(t, top1+"\n", cmd, "--solver", "nosuch")
		if code != cli.ExitUsage || !strings.Contains(errOut, `unknown solver "nosuch"`) || !strings.Contains(errOut, "triad") {
			t.Errorf("%s --solver nosuch: exit %d, %q", cmd, code, errOut)
		}
	}
	if code, _, errOut := call(t, top1+"\n", "count", "--progress-every", "-1s"); code != cli.ExitUsage || errOut == "" {
		t.Errorf("count --progress-every -1s: exit %d, %q", code, errOut)
	}
}

// TestCountProgressAndPartial: counting the empty grid prints progress
// lines, and when interrupted the solutions found so far, marked as a
// partial count, with the interrupted status.
func TestCountProgressAndPartial(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
	defer cancel()
	var o, e bytes.Buffer
	start := time.Now()
	code := app.Run(ctx, &cli.Env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e},
		[]string{"count", "--workers", "2", "--progress-every", "100ms", strings.Repeat(".", 81)})
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("took %v to stop after a 700 ms deadline", took)
	}
	if code != cli.ExitInterrupted || o.Len() != 0 {
		t.Errorf("exit %d, stdout %q; want %d and nothing", code, o.String(), cli.ExitInterrupted)
	}
	errOut := e.String()
	if !strings.Contains(errOut, "argument:1: progress: ") || !strings.Contains(errOut, "solutions so far") {
		t.Errorf("no progress line in:\n%s", errOut)
	}
	if !strings.Contains(errOut, "argument:1: interrupted after") || !strings.Contains(errOut, "found so far (a partial count, not the answer)") {
		t.Errorf("no partial count in:\n%s", errOut)
	}
}
