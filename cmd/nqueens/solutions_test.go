package main

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/solutions"
	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/clitest"
)

// runShow runs the CLI in process and returns exit code, stdout, stderr.
func runShow(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := app.Run(context.Background(), &cli.Env{Stdout: &out, Stderr: &errb}, args)
	return code, out.String(), errb.String()
}

func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func TestSolutionsCLIListsEverySolution(t *testing.T) {
	for n := 1; n <= 10; n++ {
		for _, unique := range []bool{false, true} {
			for _, format := range []string{"cols", "json"} {
				args := []string{"solutions", "--format", format, strconv.Itoa(n)}
				want, _ := queens.Known(n)
				if unique {
					args = append(args, "--unique")
					want, _ = queens.KnownUnique(n)
				}
				code, out, errs := runShow(t, args...)
				if code != cli.ExitOK || errs != "" {
					t.Fatalf("%v: exit %d, stderr %q", args, code, errs)
				}
				parse := solutions.ParseCols
				if format == "json" {
					parse = solutions.ParseJSON
				}
				seen := map[string]bool{}
				for _, l := range lines(out) {
					cols, err := parse(l)
					if err != nil {
						t.Fatalf("%v: %q: %v", args, l, err)
					}
					if len(cols) != n || solutions.Verify(cols) != nil {
						t.Fatalf("%v: %q is not a solution", args, l)
					}
					if unique && !solutions.IsCanonical(cols, nil) {
						t.Fatalf("%v: %q is not canonical", args, l)
					}
					if seen[l] {
						t.Fatalf("%v: %q twice", args, l)
					}
					seen[l] = true
				}
				if uint64(len(seen)) != want {
					t.Errorf("%v: %d solutions, OEIS says %d", args, len(seen), want)
				}
			}
		}
	}
}

func TestSolutionsCLIFormatsAndLimit(t *testing.T) {
	_, all, _ := runShow(t, "solutions", "8")
	code, five, _ := runShow(t, "solutions", "--limit", "5", "8")
	if code != cli.ExitOK || !slices.Equal(lines(five), lines(all)[:5]) {
		t.Errorf("--limit 5: exit %d\n%s", code, five)
	}
	if lines(all)[0] != "0 4 7 5 2 6 1 3" {
		t.Errorf("first solution %q", lines(all)[0])
	}
	_, coords, _ := runShow(t, "solutions", "4", "--format", "coords")
	if coords != "(0,1) (1,3) (2,0) (3,2)\n(0,2) (1,0) (2,3) (3,1)\n" {
		t.Errorf("coords:\n%s", coords)
	}
	_, board, _ := runShow(t, "solutions", "4", "--format=board", "--ascii", "--limit=1")
	if board != ". Q . .\n. . . Q\nQ . . .\n. . Q .\n" {
		t.Errorf("board:\n%s", board)
	}
	_, uni, _ := runShow(t, "solutions", "8", "--unique")
	if len(lines(uni)) != 12 {
		t.Errorf("--unique 8: %d lines", len(lines(uni)))
	}
	// n = 2 has no solutions: an empty, successful listing.
	if code, out, errs := runShow(t, "solutions", "2"); code != cli.ExitOK || out != "" || errs != "" {
		t.Errorf("solutions 2: %d %q %q", code, out, errs)
	}
}

func TestTraceKeepsStdout(t *testing.T) {
	_, plain, _ := runShow(t, "solutions", "6", "--limit", "2")
	code, traced, trace := runShow(t, "solutions", "6", "--limit", "2", "--trace", "--trace-limit", "0")
	if code != cli.ExitOK || traced != plain {
		t.Errorf("--trace changed stdout: %q vs %q", traced, plain)
	}
	for _, want := range []string{"place row 0 col 0 → [0]\n", "backtrack from row", "solution 2: "} {
		if !strings.Contains(trace, want) {
			t.Errorf("trace lacks %q", want)
		}
	}
	if strings.Contains(trace, "cut") {
		t.Error("unlimited trace was cut")
	}
	_, _, cut := runShow(t, "solve", "8", "--trace", "--trace-limit", "10")
	if got := lines(cut); len(got) != 11 || !strings.Contains(got[10], "trace cut after 10 lines") {
		t.Errorf("cut trace:\n%s", cut)
	}
	code, out, trace := runShow(t, "solve", "4", "--trace")
	if code != cli.ExitOK || out != "1 3 0 2\n" || !strings.HasSuffix(trace, "solution 1: 1 3 0 2\n") {
		t.Errorf("solve 4 --trace: %d %q\n%s", code, out, trace)
	}
}

func TestSolveCLI(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"solve", "8"}, cli.ExitOK, "0 4 7 5 2 6 1 3\n"},
		{[]string{"solve", "1"}, cli.ExitOK, "0\n"},
		{[]string{"solve", "4", "--format", "json"}, cli.ExitOK, `{"n":4,"cols":[1,3,0,2]}` + "\n"},
		{[]string{"solve", "2"}, cli.ExitFail, "no solution for n = 2\n"},
		{[]string{"solve", "3", "--method", "construct"}, cli.ExitFail, "no solution for n = 3\n"},
		{[]string{"solve", "3", "--format", "json"}, cli.ExitFail, `{"n":3,"cols":null}` + "\n"},
		{[]string{"solve", "8", "--method", "construct"}, cli.ExitOK, "1 3 5 7 2 0 6 4\n"},
		{[]string{"solve", "4", "--format", "board"}, cli.ExitOK, "· ♛ · ·\n· · · ♛\n♛ · · ·\n· · ♛ ·\n"},
	} {
		code, out, _ := runShow(t, c.args...)
		if code != c.code || out != c.out {
			t.Errorf("%v: exit %d, %q; want %d, %q", c.args, code, out, c.code, c.out)
		}
	}
	for _, n := range []string{"1000000", "4999", "31"} {
		code, out, errs := runShow(t, "solve", n)
		cols, err := solutions.ParseCols(out)
		if code != cli.ExitOK || errs != "" || err != nil || strconv.Itoa(len(cols)) != n || solutions.Verify(cols) != nil {
			t.Errorf("solve %s: exit %d, %v, %q", n, code, err, errs)
		}
	}
	// The node limit: search gives up, auto falls back.
	if code, _, errs := runShow(t, "solve", "30", "--method", "search", "--max-nodes", "1000"); code != cli.ExitFail || !strings.Contains(errs, "gave up") {
		t.Errorf("search with node limit: %d %q", code, errs)
	}
	if code, out, _ := runShow(t, "solve", "28", "--max-nodes", "1000"); code != cli.ExitOK || len(strings.Fields(out)) != 28 {
		t.Errorf("auto with node limit: %d %q", code, out)
	}
}

func TestShowBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"solutions"}, {"solutions", "0"}, {"solutions", "-3"}, {"solutions", "abc"}, {"solutions", "12x"},
		{"solutions", "33"}, {"solutions", "8", "9"}, {"solutions", "8", "--format", "xml"},
		{"solutions", "8", "--bogus"}, {"solutions", "8", "--limit", "-1"}, {"solutions", "8", "--trace"},
		{"solutions", "8", "--trace", "--limit", "1", "--unique"}, {"solutions", "8", "--trace-limit", "-2"},
		{"solve"}, {"solve", "0"}, {"solve", "-3"}, {"solve", "abc"}, {"solve", "12x"}, {"solve", "1e6"},
		{"solve", "20000000"}, {"solve", "8", "--method", "magic"}, {"solve", "8", "--format", "xml"},
		{"solve", "300", "--format", "board"}, {"solve", "300", "--svg", "x.svg"}, {"solve", "100", "--method", "search"},
		{"solve", "100", "--trace"}, {"solve", "8", "--trace", "--method", "construct"}, {"solve", "8", "--frobnicate"},
	} {
		code, out, errs := runShow(t, args...)
		if code != cli.ExitUsage || out != "" {
			t.Errorf("%v: exit %d, stdout %q", args, code, out)
		}
		// One clear line.
		if !strings.HasPrefix(errs, "nqueens") {
			t.Errorf("%v: stderr %q", args, errs)
		}
		if len(lines(errs)) != 1 {
			t.Errorf("%v: stderr has %d lines: %q", args, len(lines(errs)), errs)
		}
	}
	if code, _, errs := runShow(t, "solutions", "40"); !strings.Contains(errs, "nqueens solve 40") || code != cli.ExitUsage {
		t.Errorf("solutions 40: %q", errs)
	}
	if code, _, _ := runShow(t, "solve", "-h"); code != cli.ExitOK {
		t.Errorf("solve -h: exit %d", code)
	}
}

func TestHugeListingWarns(t *testing.T) {
	code, out, errs := runShow(t, "solutions", "20", "--limit", "1")
	if code != cli.ExitOK || len(lines(out)) != 1 || errs != "" {
		t.Errorf("solutions 20 --limit 1: %d %q %q", code, out, errs)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var o, e bytes.Buffer
	code = app.Run(ctx, &cli.Env{Stdout: &o, Stderr: &e}, []string{"solutions", "28"})
	if code != cli.ExitInterrupted || !strings.Contains(e.String(), "not known") {
		t.Errorf("interrupted solutions 28: %d %q", code, e.String())
	}
}

func TestSVGFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "b.svg")
	if code, out, errs := runShow(t, "solve", "8", "--svg", path); code != cli.ExitOK || out == "" || errs != "" {
		t.Fatalf("solve 8 --svg: %d %q", code, errs)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(data, new(struct{})); err != nil || bytes.Count(data, []byte("<use ")) != 8 {
		t.Errorf("bad SVG (%v)", err)
	}
	path2 := filepath.Join(dir, "c.svg")
	if code, _, _ := runShow(t, "solutions", "6", "--svg", path2, "--limit", "1"); code != cli.ExitOK {
		t.Errorf("solutions --svg: exit %d", code)
	}
	if _, err := os.Stat(path2); err != nil {
		t.Error(err)
	}
	if code, _, errs := runShow(t, "solutions", "3", "--svg", filepath.Join(dir, "d.svg")); code != cli.ExitFail || errs == "" {
		t.Errorf("solutions 3 --svg: %d %q", code, errs)
	}
	if code, _, errs := runShow(t, "solve", "8", "--svg", filepath.Join(dir, "no", "such", "e.svg")); code != cli.ExitFail || errs == "" {
		t.Errorf("unwritable --svg: %d %q", code, errs)
	}
}

// epipe is a stdout whose reader has gone away.
type epipe struct{}

func (epipe) Write([]byte) (int, error) { return 0, syscall.EPIPE }

func TestBrokenPipeWriter(t *testing.T) {
	for _, args := range [][]string{{"solutions", "10"}, {"solve", "100000"}, {"solutions", "6", "--trace", "--limit", "3"}} {
		var e bytes.Buffer
		code := app.Run(context.Background(), &cli.Env{Stdout: epipe{}, Stderr: io.Discard}, args)
		if code != cli.ExitOK || e.Len() != 0 {
			t.Errorf("%v into a broken pipe: exit %d, %q", args, code, e.String())
		}
	}
}

func TestHelperMain(t *testing.T) { clitest.HelperMain(t, main) }

func TestBrokenPipeProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, args := range []string{"solutions 14", "solve 1000000"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperMain$")
		cmd.Env = append(os.Environ(), clitest.Env("nqueens", strings.Fields(args)...))
		var errb bytes.Buffer
		cmd.Stderr = &errb
		r, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 100)
		if _, err := io.ReadFull(r, buf); err != nil {
			t.Fatal(err)
		}
		r.Close() // like head: read a little, then go away
		err = cmd.Wait()
		if err != nil || errb.Len() != 0 {
			t.Errorf("%s | head: %v, stderr %q", args, err, errb.String())
		}
	}
}
