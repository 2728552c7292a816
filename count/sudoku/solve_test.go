package sudoku

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// answer is one line of a shared *.answers.txt file.
type answer struct {
	puzzle   Grid
	count    uint64
	solution string // "" unless count is 1
}

func loadAnswers(tb testing.TB, name string) []answer {
	tb.Helper()
	lines := loadLines(tb, name)
	out := make([]answer, len(lines))
	for i, l := range lines {
		f := strings.Split(l, ":")
		if len(f) < 2 {
			tb.Fatalf("%s line %d: want puzzle:count[:solution]", name, i+1)
		}
		g, err := Parse(f[0])
		if err != nil {
			tb.Fatalf("%s puzzle %d: %v", name, i+1, err)
		}
		n, err := strconv.ParseUint(f[1], 10, 64)
		if err != nil {
			tb.Fatalf("%s puzzle %d: count: %v", name, i+1, err)
		}
		out[i] = answer{puzzle: g, count: n}
		if len(f) > 2 {
			out[i].solution = f[2]
		}
	}
	return out
}

// sample returns every step-th answer, or all of them when
// SUDOKU_FULL=1 or step <= 1.
func sample(as []answer, step int) []answer {
	if os.Getenv("SUDOKU_FULL") == "1" || step <= 1 {
		return as
	}
	var out []answer
	for i := 0; i < len(as); i += step {
		out = append(out, as[i])
	}
	return out
}

func checkAnswers(t *testing.T, sv *Solver, as []answer, exact bool) {
	t.Helper()
	for i, a := range as {
		limit := uint64(2)
		if exact {
			limit = 1 << 40
		}
		n, sol := sv.Solve(&a.puzzle, limit)
		want := a.count
		if !exact && want > 2 {
			want = 2
		}
		if n != want {
			t.Errorf("puzzle %d %s: %d solutions, want %d", i+1, a.puzzle, n, want)
			continue
		}
		if a.solution != "" && sol.String() != a.solution {
			t.Errorf("puzzle %d %s: solution %s, want %s", i+1, a.puzzle, sol, a.solution)
		}
		if n > 0 && !isSolutionOf(sol, a.puzzle) {
			t.Errorf("puzzle %d: %s is not a solution", i+1, sol)
		}
	}
}

// isSolutionOf reports whether s is a complete valid grid that keeps p's givens.
func isSolutionOf(s, p Grid) bool {
	for i := range p {
		if s[i] == 0 || (p[i] != 0 && p[i] != s[i]) {
			return false
		}
	}
	return s.Check() == nil
}

// loadSample reads testdata/sample.answers.txt, a sample of the shared
// answers that needs no shared data.
func loadSample(t testing.TB) []answer {
	t.Helper()
	data, err := os.ReadFile("testdata/sample.answers.txt")
	if err != nil {
		t.Fatal(err)
	}
	var as []answer
	rd := NewReader(strings.NewReader(string(data)))
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || l[0] == '#' {
			continue
		}
		fl := strings.Split(l, ":")
		n, err := strconv.ParseUint(fl[1], 10, 64)
		if err != nil {
			t.Fatalf("sample %q: %v", l, err)
		}
		it, ok := rd.Next()
		if !ok || it.Err != nil {
			t.Fatalf("reader: %+v", it)
		}
		a := answer{puzzle: it.Grid, count: n}
		if len(fl) > 2 {
			a.solution = fl[2]
		}
		as = append(as, a)
	}
	if len(as) < 50 {
		t.Fatalf("only %d sample puzzles", len(as))
	}
	return as
}
