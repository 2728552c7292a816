package logic_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/logic"
)

// candPuzzles are puzzles whose solves need eliminations: an x-chain
// (ExampleStep's) and top1465's first (forcing chains). (The whole of
// top1465 is solved hint after hint through the web API's test.)
var candPuzzles = []string{
	".1.6...8.3.2..........49.....83...........4.7......5..46..........2...9.7...5....",
	"4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
}

// applyStep applies a step to a grid and its candidates as a player does.
func applyStep(g *sudoku.Grid, c *logic.Candidates, st logic.Step) {
	for _, m := range st.Placements {
		g[m.Cell] = uint8(m.Digit)
		c[m.Cell] = 0
		for p := 0; p < 81; p++ {
			if p/9 == m.Cell/9 || p%9 == m.Cell%9 || (p/27 == m.Cell/27 && p%9/3 == m.Cell%9/3) {
				c[p] &^= 1 << (m.Digit - 1)
			}
		}
	}
	for _, m := range st.Eliminations {
		if c[m.Cell] == 0 && g[m.Cell] == 0 {
			c[m.Cell] = 0x1FF
		}
		c[m.Cell] &^= 1 << (m.Digit - 1)
	}
}

// TestHintCandidatesFollowsExplain: started from the board and candidates
// an explained solve has reached, HintCandidates gives a sound step that
// changes them, and applying its steps one after another solves the
// puzzle, where Hint from the digits alone stalls on the first
// elimination it finds.
func TestHintCandidatesFollowsExplain(t *testing.T) {
	ctx := context.Background()
	for _, p := range candPuzzles {
		g0, err := sudoku.Parse(p)
		if err != nil {
			t.Fatal(err)
		}
		_, sol := sudoku.Solve(g0, 1)
		ex, err := logic.Explain(g0)
		if err != nil {
			t.Fatal(err)
		}
		// Step by step from the explained solve's states.
		g, c := g0, logic.Candidates{}
		same := 0
		for i, want := range ex.Steps {
			st, err := logic.HintCandidates(ctx, g, c)
			if err != nil {
				t.Fatalf("%s step %d: %v", p, i+1, err)
			}
			if st.Text == want.Text {
				same++
			}
			checkSound(t, st, sol, g, c)
			applyStep(&g, &c, want)
		}
		if _, err := logic.HintCandidates(ctx, g, c); !errors.Is(err, logic.ErrSolved) {
			t.Errorf("%s: after the explained solve: %v", p, err)
		}
		t.Logf("%s: %d of %d steps as Explain's", p, same, len(ex.Steps))
		// The solver is stateless but for the forcing chains' conclusions
		// kept between steps: nearly every step is the same.
		if same < len(ex.Steps)*3/4 {
			t.Errorf("%s: only %d of %d steps are the explained solve's", p, same, len(ex.Steps))
		}

		// Its own steps, applied, solve it with no step twice.
		g, c = g0, logic.Candidates{}
		seen := map[string]bool{}
		for {
			st, err := logic.HintCandidates(ctx, g, c)
			if errors.Is(err, logic.ErrSolved) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			k := fmt.Sprint(st.Placements, st.Eliminations)
			if seen[k] {
				t.Fatalf("%s: %q again", p, st.Text)
			}
			seen[k] = true
			checkSound(t, st, sol, g, c)
			applyStep(&g, &c, st)
		}
		if g != sol {
			t.Errorf("%s: ends on %s", p, g)
		}
	}
}

// checkSound checks that a step agrees with the solution and changes the
// board or the candidates.
func checkSound(t *testing.T, st logic.Step, sol, g sudoku.Grid, c logic.Candidates) {
	t.Helper()
	changes := false
	for _, m := range st.Placements {
		if int(sol[m.Cell]) != m.Digit {
			t.Fatalf("%q places %v, the solution has %d", st.Text, m, sol[m.Cell])
		}
		changes = changes || g[m.Cell] == 0
	}
	for _, m := range st.Eliminations {
		if int(sol[m.Cell]) == m.Digit {
			t.Fatalf("%q removes %v, the solution's digit", st.Text, m)
		}
		changes = changes || c[m.Cell] == 0 || c[m.Cell]&(1<<(m.Digit-1)) != 0
	}
	if !changes {
		t.Fatalf("%q changes nothing", st.Text)
	}
}

func TestHintCandidatesMistakes(t *testing.T) {
	ctx := context.Background()
	g, _ := sudoku.Parse(candPuzzles[1])
	_, sol := sudoku.Solve(g, 1)
	var c logic.Candidates
	// The solution's digit taken out of two cells.
	for _, cell := range []int{1, 2} {
		c[cell] = 0x1FF &^ (1 << (sol[cell] - 1))
	}
	_, err := logic.HintCandidates(ctx, g, c)
	var mc *logic.MissingCandidatesError
	if !errors.As(err, &mc) || !slices.Equal(mc.Missing, []logic.Move{{Cell: 1, Digit: int(sol[1])}, {Cell: 2, Digit: int(sol[2])}}) {
		t.Fatalf("removed candidates: %v", err)
	}
	if want := fmt.Sprintf("the solution needs candidates that were removed: %d in r1c2, %d in r1c3", sol[1], sol[2]); err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	// A filled cell's candidates are ignored; the errors of Hint stay.
	c = logic.Candidates{}
	c[0] = 0x001
	if _, err := logic.HintCandidates(ctx, g, c); err != nil {
		t.Errorf("candidates of a given: %v", err)
	}
	var nu *sudoku.ErrNotUnique
	if _, err := logic.HintCandidates(ctx, sudoku.Grid{1}, c); !errors.As(err, &nu) {
		t.Errorf("one clue: %v", err)
	}
	if _, err := logic.HintCandidates(ctx, sol, c); !errors.Is(err, logic.ErrSolved) {
		t.Errorf("solved grid: %v", err)
	}
}

// A hint from the candidates a player keeps: once the first elimination
// is applied to them, the next hint moves on (Hint, from the digits alone,
// would find the same elimination again).
func ExampleHintCandidates() {
	g, _ := sudoku.Parse(".1.6...8.3.2..........49.....83...........4.7......5..46..........2...9.7...5....")
	var c logic.Candidates // none noted: every digit the peers allow
	for {
		st, _ := logic.HintCandidates(context.Background(), g, c)
		fmt.Println(st.Text)
		for _, m := range st.Placements {
			g[m.Cell] = uint8(m.Digit) // HintCandidates takes it out of the peers
		}
		for _, m := range st.Eliminations {
			if c[m.Cell] == 0 {
				c[m.Cell] = 0x1FF
			}
			c[m.Cell] &^= 1 << (m.Digit - 1)
		}
		if len(st.Eliminations) > 0 {
			break
		}
	}
	st, _ := logic.HintCandidates(context.Background(), g, c)
	fmt.Println(st.Text)
	// Output:
	// r6c9 can only be 8: hidden single in box 6, the only place for 8 there
	// r9c2 can only be 2: hidden single in box 7, the only place for 2 there
	// pointing: in box 6, 3 can only go in column 8 (r5c8, r6c8), so r3c8, r7c8, r9c8 cannot be 3
	// pointing: in box 7, 9 can only go in column 3 (r7c3, r9c3), so r1c3, r5c3, r6c3 cannot be 9
}
