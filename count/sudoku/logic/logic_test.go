package logic

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/sudoku"
)

// fixture is a puzzle whose solve needs a technique as its hardest step.
type fixture struct {
	technique   string
	puzzle, sol sudoku.Grid
	source      string
}

func loadFixtures(t *testing.T) []fixture {
	t.Helper()
	data, err := os.ReadFile("testdata/techniques.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []fixture
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || l[0] == '#' {
			continue
		}
		f := strings.Split(l, "|")
		if len(f) != 4 {
			t.Fatalf("bad fixture line %q", l)
		}
		p, err1 := sudoku.Parse(f[1])
		s, err2 := sudoku.Parse(f[2])
		if err1 != nil || err2 != nil {
			t.Fatalf("fixture %s: %v %v", f[0], err1, err2)
		}
		out = append(out, fixture{f[0], p, s, f[3]})
	}
	return out
}

// replay applies the steps of an explanation to a fresh board, checking
// each against the known solution (placements are the solution's digits,
// eliminations are not, and every step changes the board), and returns
// the final grid.
func replay(t *testing.T, puzzle, sol sudoku.Grid, steps []Step) sudoku.Grid {
	t.Helper()
	b := newBoard(&puzzle)
	for i, st := range steps {
		changed := false
		for _, m := range st.Placements {
			if int(sol[m.Cell]) != m.Digit {
				t.Fatalf("%s step %d (%s) places %s; the solution has %d: %s", puzzle, i+1, st.Technique, m, sol[m.Cell], st.Text)
			}
			if b.val[m.Cell] == 0 && !b.has(m.Cell, m.Digit) {
				t.Fatalf("%s step %d places %s, not a candidate", puzzle, i+1, m)
			}
			changed = changed || b.val[m.Cell] == 0
		}
		for _, m := range st.Eliminations {
			if int(sol[m.Cell]) == m.Digit {
				t.Fatalf("%s step %d (%s) removes %s, the solution's digit: %s", puzzle, i+1, st.Technique, m, st.Text)
			}
			changed = changed || b.has(m.Cell, m.Digit)
		}
		if !changed {
			t.Fatalf("%s step %d (%s) changes nothing: %s", puzzle, i+1, st.Technique, st.Text)
		}
		if st.Text == "" || st.Technique == "" || st.Score < 1 || st.Score > 12 {
			t.Fatalf("%s step %d: incomplete %+v", puzzle, i+1, st)
		}
		b.apply(&st)
	}
	return b.grid()
}

// classic selects the classic scale: testdata/techniques.txt and the tests
// of its techniques are that scale's (the SE scale's are in se_test.go).
var classic = Options{Scale: ScaleClassic}

// startClassic is start on the classic scale.
func startClassic(t *testing.T, g sudoku.Grid) (*solver, board) {
	t.Helper()
	s, b, err := start(context.Background(), g)
	if err != nil {
		t.Fatal(err)
	}
	s.scale = ScaleClassic
	return s, b
}

// TestClassicTechniquesOnPuzzlesThatNeedThem solves, for every technique
// of the classic scale, a puzzle whose hardest step it takes.
func TestClassicTechniquesOnPuzzlesThatNeedThem(t *testing.T) {
	fx := loadFixtures(t)
	have := map[string]bool{}
	for _, f := range fx {
		have[f.technique] = true
		t.Run(f.technique, func(t *testing.T) {
			ex, err := ExplainWith(context.Background(), f.puzzle, classic)
			if err != nil {
				t.Fatal(err)
			}
			if got := replay(t, f.puzzle, f.sol, ex.Steps); got != f.sol {
				t.Fatalf("replay ends on %s, want %s", got, f.sol)
			}
			r := ex.Rating
			// Rating alone (no sentences) takes the same steps.
			if q, err := RateWith(context.Background(), f.puzzle, classic); err != nil || !reflect.DeepEqual(q, r) {
				t.Errorf("Rate %+v, %v; Explain's rating %+v", q, err, r)
			}
			if r.Scale != ScaleClassic || r.Hardest != r.Techniques[len(r.Techniques)-1].Name || r.ER != r.Score {
				t.Errorf("rating %+v: not the classic scale's", r)
			}
			if hard := r.Techniques[len(r.Techniques)-1].Name; hard != f.technique {
				t.Errorf("%s (from %s): hardest technique %s (score %.1f), want %s", f.puzzle, f.source, hard, r.Score, f.technique)
			}
			var tq Technique
			for _, x := range TechniquesOf(ScaleClassic) {
				if x.Name == f.technique {
					tq = x
				}
			}
			if r.Score < tq.Score || r.Score > tq.MaxScore {
				t.Errorf("score %.1f outside %s's %.1f-%.1f", r.Score, f.technique, tq.Score, tq.MaxScore)
			}
			n := 0
			for _, st := range ex.Steps {
				if st.Technique == f.technique {
					n++
					if len(st.Cells) == 0 {
						t.Errorf("%s step without pattern cells: %s", st.Technique, st.Text)
					}
				}
			}
			if n == 0 {
				t.Errorf("no %s step", f.technique)
			}
		})
	}
	// Hidden quads and guesses are covered by TestFindersAreSound and
	// TestGuess: no puzzle in the shared sets or the generator's reach
	// needs them as their hardest step (a hidden quad is the complement
	// of a naked subset of the same house, found first).
	for _, tq := range TechniquesOf(ScaleClassic) {
		if !have[tq.Name] && tq.Name != "hidden quad" && tq.Name != "guess" {
			t.Errorf("no fixture for %s", tq.Name)
		}
	}
}

// TestClassicFindersAreSound runs every finder of the classic scale, not
// only the one the solver picks, on every board along the fixtures'
// solves and checks what each finds against the solution.
func TestClassicFindersAreSound(t *testing.T) {
	found := map[string]int{}
	for i, f := range loadFixtures(t) {
		if raceEnabled && (i%4 != 0 || f.technique == "nested forcing chain") {
			continue
		}
		s, b := startClassic(t, f.puzzle)
		s.sol = f.sol // the fixture's, not the solver's
		nested := false
		for b.left() > 0 {
			// Boards where a single is next are many and alike: the
			// costlier finders (chains, forcing chains) skip them.
			singles := false
			for _, tq := range techniques[:3] {
				if _, ok := tq.find(s, &b); ok {
					singles = true
					break
				}
			}
			for _, tq := range techniques {
				if tq.find == nil || tq.name == "guess" || (singles && tq.lo >= 65) {
					continue
				}
				// The nested levels cost up to a second a board: run them
				// on the nested fixture only, up to the board where its solve
				// first needs them.
				if tq.lo >= 95 && (nested || f.technique != "nested forcing chain") {
					continue
				}
				st, ok := tq.find(s, &b)
				if !ok {
					continue
				}
				if tq.lo >= 95 {
					found[fmt.Sprintf("nested level %d", map[int]int{95: 3, 115: 4}[tq.lo])]++
				}
				st.finish()
				if err := s.check(&b, &st); err != nil {
					t.Fatalf("%s on %s: %s: %v", tq.name, f.puzzle, st.Text, err)
				}
				found[st.Technique]++
				// Pending forcing conclusions are proved by this board; drop
				// them so that the solve below searches afresh.
				clear(s.pending[:])
			}
			st, err := s.next(&b, 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			nested = nested || st.Score >= 9.5
			b.apply(&st)
		}
	}
	if !raceEnabled && (found["nested level 3"] == 0 || found["nested level 4"] == 0) {
		t.Errorf("the nested forcing chains (levels 3 and 4) did not both find a step: %v", found)
	}
	for _, tq := range TechniquesOf(ScaleClassic) {
		if found[tq.Name] == 0 && tq.Name != "guess" && !raceEnabled {
			t.Errorf("%s never found a step", tq.Name)
		}
	}
	t.Logf("steps found: %v", found)
}

func TestGuess(t *testing.T) {
	f := loadFixtures(t)[0]
	s, b, err := start(context.Background(), f.puzzle)
	if err != nil {
		t.Fatal(err)
	}
	st, ok := guess(s, &b)
	if !ok || len(st.Placements) != 1 || st.Score != 12 {
		t.Fatalf("guess: %+v %v", st, ok)
	}
	st.finish()
	if err := s.check(&b, &st); err != nil {
		t.Fatal(err)
	}
}

// TestClassicScale checks the classic scale's list (tried by lowest score,
// 1.0 to 12.0), its attainable scores and its chain length rule.
func TestClassicScale(t *testing.T) {
	ts := TechniquesOf(ScaleClassic)
	for i := 1; i < len(ts); i++ {
		if ts[i].Score < ts[i-1].Score {
			t.Errorf("%s (%.1f) is tried after %s (%.1f)", ts[i].Name, ts[i].Score, ts[i-1].Name, ts[i-1].Score)
		}
	}
	if ts[0].Score != sudoku.MinScore || ts[len(ts)-1].MaxScore != sudoku.MaxScore {
		t.Errorf("scale %.1f-%.1f, want %.1f-%.1f", ts[0].Score, ts[len(ts)-1].MaxScore, sudoku.MinScore, sudoku.MaxScore)
	}
	for _, c := range []struct {
		lo, hi float64
		want   bool
	}{{1, 1, true}, {1.3, 1.4, false}, {1.6, 2.2, false}, {2.3, 2.3, true}, {4.5, 4.9, false}, {6.0, 6.4, false}, {7.3, 7.3, true}, {11.9, 12, true}, {12, 12, true}} {
		if got := AttainableOn(ScaleClassic, c.lo, c.hi); got != c.want {
			t.Errorf("AttainableOn(classic, %.1f, %.1f) = %v", c.lo, c.hi, got)
		}
	}
	for n, want := range map[int]int{2: 0, 4: 0, 5: 1, 6: 1, 7: 2, 8: 2, 9: 3, 12: 3, 13: 4, 16: 4, 17: 5, 24: 5, 25: 6} {
		if got := lengthBonus(n); got != want {
			t.Errorf("lengthBonus(%d) = %d, want %d", n, got, want)
		}
	}
}

// family groups the classic scale's techniques whose scores lie in one
// band of the scale.
func family(name string) int {
	switch name {
	case "full house", "hidden single", "naked single":
		return 0
	case "simple coloring", "multi-coloring":
		return 2
	case "x-chain", "xy-chain", "aic":
		return 3
	case "forcing chain", "dynamic forcing chain", "nested forcing chain":
		return 4
	case "guess":
		return 5
	}
	return 1 // intersections, subsets, fish, wings
}

// TestClassicScoreMonotone checks on the fixtures and samples of the
// shared sets, rated on the classic scale, that the score is the hardest
// step's, and that a puzzle whose hardest technique is of an easier family
// always scores below one of a harder family: singles below intersections
// and subsets, below coloring, below chains, below forcing chains.
func TestClassicScoreMonotone(t *testing.T) {
	var grids []sudoku.Grid
	for _, f := range loadFixtures(t) {
		if f.technique != "nested forcing chain" {
			grids = append(grids, f.puzzle)
		}
	}
	n := 40
	if raceEnabled || testing.Short() {
		n = 8
	}
	if d := sharedDir(t, false); d != "" {
		for _, set := range []string{"17-clue.answers.txt", "magictour-top1465.answers.txt"} {
			for _, e := range sample(t, filepath.Join(d, set), n) {
				grids = append(grids, e.puzzle)
			}
		}
	}
	var lo, hi [6]float64
	for i := range lo {
		lo[i] = 99
	}
	for _, r := range rateAll(grids, classic) {
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		if r.Rating.Scale != ScaleClassic {
			t.Fatalf("rated on %s", r.Rating.Scale)
		}
		top := 0.0
		fam := 0
		for _, u := range r.Rating.Techniques {
			top = max(top, u.Score)
			fam = max(fam, family(u.Name))
		}
		if top != r.Rating.Score || r.Rating.Level != sudoku.LevelOf(top) {
			t.Errorf("score %.1f, level %v; hardest step %.1f", r.Rating.Score, r.Rating.Level, top)
		}
		lo[fam], hi[fam] = min(lo[fam], top), max(hi[fam], top)
	}
	for f := 1; f < len(lo); f++ {
		for g := 0; g < f; g++ {
			if lo[f] != 99 && hi[g] >= lo[f] {
				t.Errorf("family %d reaches %.1f, family %d starts at %.1f", g, hi[g], f, lo[f])
			}
		}
	}
	t.Logf("score ranges by family: lo %v hi %v", lo, hi)
}

// answer is a puzzle of a shared answers file with its solution.
type answer struct{ puzzle, sol sudoku.Grid }

// sharedDir returns ../shared/sudoku from the module root, or "" (with a
// skip if required) when it is absent.
func sharedDir(t *testing.T, required bool) string {
	t.Helper()
	dir, _ := os.Getwd()
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		if filepath.Dir(dir) == dir {
			dir = ""
			break
		}
		dir = filepath.Dir(dir)
	}
	d := filepath.Join(dir, "..", "shared", "sudoku")
	if _, err := os.Stat(d); dir == "" || err != nil {
		if required {
			t.Skipf("reference data %s is absent (clone the project next to shared/ to run this)", d)
		}
		t.Logf("reference data %s is absent: only the fixtures are used", d)
		return ""
	}
	return d
}

// sample reads an answers file and returns n of its unique puzzles,
// evenly spread.
func sample(t *testing.T, file string, n int) []answer { return sampleTB(t, file, n) }

func sampleTB(t testing.TB, file string, n int) []answer {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Skipf("reference file %s is absent: %v", file, err)
	}
	defer f.Close()
	var all []answer
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || l[0] == '#' {
			continue
		}
		parts := strings.Split(l, ":")
		if len(parts) != 3 || parts[1] != "1" {
			continue
		}
		p, err1 := sudoku.Parse(parts[0])
		s, err2 := sudoku.Parse(parts[2])
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %q: %v %v", file, l, err1, err2)
		}
		all = append(all, answer{p, s})
	}
	if len(all) == 0 {
		t.Fatalf("%s: no unique puzzle", file)
	}
	if n >= len(all) {
		return all
	}
	out := make([]answer, n)
	for i := range out {
		out[i] = all[i*len(all)/n]
	}
	return out
}

// TestExplainReplaysSharedSets explains an even sample of each shared set
// (its size bounded to keep the test short; -short and -race take fewer)
// and replays every solve to the answers file's solution.
func TestExplainReplaysSharedSets(t *testing.T) {
	d := sharedDir(t, true)
	sizes := map[string]int{"17-clue.answers.txt": 200, "magictour-top1465.answers.txt": 60, "forum-hardest-1106.answers.txt": 2}
	if testing.Short() || raceEnabled {
		sizes = map[string]int{"17-clue.answers.txt": 20, "magictour-top1465.answers.txt": 10, "forum-hardest-1106.answers.txt": 1}
	}
	for set, n := range sizes {
		t.Run(strings.TrimSuffix(set, ".answers.txt"), func(t *testing.T) {
			t.Parallel()
			for _, a := range sample(t, filepath.Join(d, set), n) {
				ex, err := Explain(a.puzzle)
				if err != nil {
					t.Fatalf("%s: %v", a.puzzle, err)
				}
				if ex.Solution != a.sol {
					t.Fatalf("%s: solution %s, want %s", a.puzzle, ex.Solution, a.sol)
				}
				if got := replay(t, a.puzzle, a.sol, ex.Steps); got != a.sol {
					t.Fatalf("%s: replay ends on %s", a.puzzle, got)
				}
			}
		})
	}
}

func TestHint(t *testing.T) {
	f := loadFixtures(t)
	for _, fx := range []fixture{f[1], f[7], f[20]} {
		ex, err := Explain(fx.puzzle)
		if err != nil {
			t.Fatal(err)
		}
		h, err := Hint(fx.puzzle)
		if err != nil {
			t.Fatal(err)
		}
		if h.Text != ex.Steps[0].Text {
			t.Errorf("Hint %q, first step %q", h.Text, ex.Steps[0].Text)
		}
		// Mid-solve, from the digits only (candidates afresh, as a player's
		// board gives them): a hint is still right.
		g := fx.puzzle
		for _, st := range ex.Steps[:len(ex.Steps)/2] {
			for _, m := range st.Placements {
				g[m.Cell] = uint8(m.Digit)
			}
		}
		h, err = Hint(g)
		if err != nil {
			t.Fatal(err)
		}
		if got := replay(t, g, fx.sol, []Step{h}); got == g && len(h.Eliminations) == 0 {
			t.Errorf("hint %q changes nothing", h.Text)
		}
	}
	top := f[20].puzzle
	// Errors: a full grid, clashing digits, a wrong digit (no solution),
	// too few digits (several solutions).
	if _, err := Hint(f[20].sol); !errors.Is(err, ErrSolved) {
		t.Errorf("solved grid: %v", err)
	}
	clash := top
	clash[1] = top[0]
	var pe *sudoku.ParseError
	if _, err := Hint(clash); !errors.As(err, &pe) {
		t.Errorf("clash: %v", err)
	}
	wrong := top
	for d := uint8(1); d <= 9; d++ {
		if d != f[20].sol[1] {
			wrong[1] = d
			if wrong.Check() == nil {
				break
			}
		}
	}
	var nu *sudoku.ErrNotUnique
	if _, err := Hint(wrong); !errors.As(err, &nu) || nu.Solutions != 0 {
		t.Errorf("wrong digit: %v", err)
	}
	var few sudoku.Grid
	few[0] = 1
	if _, err := Hint(few); !errors.As(err, &nu) || nu.Solutions != 2 {
		t.Errorf("one clue: %v", err)
	}
}

// TestStepJSON pins the JSON the web app reads: snake_case keys, and
// arrays (never null) for every list, on both scales; and a rating's JSON.
func TestStepJSON(t *testing.T) {
	g := loadFixtures(t)[1].puzzle
	for _, sc := range Scales {
		h, err := HintWith(context.Background(), g, Options{Scale: sc})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"technique", "score", "text"} {
			if _, ok := m[k]; !ok {
				t.Errorf("%s: %s lacks %q", sc, b, k)
			}
		}
		for _, k := range []string{"placements", "eliminations", "cells", "houses", "marks", "links"} {
			if _, ok := m[k].([]any); !ok {
				t.Errorf("%s: %s: %q is not an array", sc, b, k)
			}
		}
		if !strings.Contains(string(b), `"placements":[{"cell":`) || !strings.Contains(string(b), `"houses":[{"kind":"box","index":`) {
			t.Errorf("%s: JSON %s", sc, b)
		}
	}
	rb, _ := json.Marshal(Rating{Scale: ScaleSE, Rater: Version, Score: 2.3, ER: 2.3, EP: 2.3, ED: 1.2, Hardest: "Naked Single", Level: sudoku.Hidden,
		Techniques: []TechniqueUse{{"Hidden Single", 1.2, 3}, {"Naked Single", 2.3, 4}}, Steps: 7})
	want := `{"scale":"se","rater":"` + Version + `","score":2.3,"er":2.3,"ep":2.3,"ed":1.2,"hardest":"Naked Single","level":"hidden",` +
		`"techniques":[{"name":"Hidden Single","score":1.2,"count":3},{"name":"Naked Single","score":2.3,"count":4}],"steps":7}`
	if string(rb) != want {
		t.Errorf("rating JSON %s\nwant %s", rb, want)
	}
}

// TestCancel stops a hard rating: before it starts and while it runs.
func TestCancel(t *testing.T) {
	var hard sudoku.Grid
	for _, f := range loadFixtures(t) {
		if f.technique == "nested forcing chain" {
			hard = f.puzzle
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := RateContext(ctx, hard, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before: %v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := ExplainContext(ctx, hard)
		done <- err
	}()
	// A generous bound: this only guards against a rating that ignores
	// its context (which takes seconds here, minutes under -race).
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("cancelled during: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("ExplainContext ignores its context")
	}
}

func TestRateCapped(t *testing.T) {
	f := loadFixtures(t)
	top := f[20] // forcing chain
	r, err := RateContext(context.Background(), top.puzzle, 4.0)
	if err != nil || !r.Capped || r.Score <= 4.0 {
		t.Errorf("capped at 4.0: %+v %v", r, err)
	}
	full, err := Rate(top.puzzle)
	if err != nil || full.Capped || full.Score < r.Score {
		t.Errorf("full %+v %v; capped %+v", full, err, r)
	}
}

// TestForcingAgreements checks the classic scale's cell and unit forcing
// chains, which the solve rarely reaches (a contradiction is usually found
// first): on the boards where the forcing chain fixtures need a forcing
// chain, every conclusion common to the branches of a cell or a house is
// verified and checked against the solution.
func TestForcingAgreements(t *testing.T) {
	kinds := map[string]int{}
	example := ""
	for _, f := range loadFixtures(t) {
		if f.technique != "forcing chain" && f.technique != "dynamic forcing chain" {
			continue
		}
		s, b := startClassic(t, f.puzzle)
		s.sol = f.sol
		for b.left() > 0 {
			st, err := s.next(&b, 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(st.Technique, "forcing chain") {
				for level := 1; level <= 2; level++ {
					if _, ok := s.explore(&b, level); !ok {
						t.Fatal("cancelled")
					}
					for _, pd := range s.agreements(&b) {
						got, ok := s.verify(&b, level, pd)
						if !ok {
							t.Errorf("%s: agreement %+v does not verify", f.puzzle, pd)
							continue
						}
						got.finish()
						if err := s.check(&b, &got); err != nil {
							t.Fatalf("%s: %s: %v", f.puzzle, got.Text, err)
						}
						kinds[strings.SplitN(got.Text, ":", 2)[0]]++
						if strings.Contains(got.Text, "(unit)") && len(got.Text) < len(example) || example == "" {
							example = got.Text
						}
					}
				}
			}
			b.apply(&st)
		}
	}
	if kinds["forcing chain (cell)"]+kinds["dynamic forcing chain (cell)"] == 0 || kinds["forcing chain (unit)"]+kinds["dynamic forcing chain (unit)"] == 0 {
		t.Errorf("cell and unit forcing chains not both exercised: %v", kinds)
	}
	t.Logf("%v", kinds)
	t.Logf("e.g. %s", example)
}

// TestDocsTable checks the technique tables of docs/sudoku.md, one per
// scale, against TechniquesOf.
func TestDocsTable(t *testing.T) {
	data, err := os.ReadFile("../../../docs/sudoku.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, sc := range Scales {
		start := fmt.Sprintf("<!-- techniques (%s scale):", sc)
		i := strings.Index(doc, start)
		j := strings.Index(doc[max(i, 0):], "<!-- end of techniques -->")
		if i < 0 || j < 0 {
			t.Errorf("docs/sudoku.md: the %s scale's table markers not found", sc)
			continue
		}
		var rows []string
		for _, l := range strings.Split(doc[i:i+j], "\n") {
			if strings.HasPrefix(l, "| ") && !strings.HasPrefix(l, "| technique") {
				rows = append(rows, l)
			}
		}
		var want []string
		for _, tq := range TechniquesOf(sc) {
			s := fmt.Sprintf("%.1f", tq.Score)
			if tq.MaxScore != tq.Score {
				s += fmt.Sprintf("-%.1f", tq.MaxScore)
			}
			want = append(want, "| "+tq.Name+" | "+s+" |")
		}
		if strings.Join(rows, "\n") != strings.Join(want, "\n") {
			t.Errorf("docs/sudoku.md's %s table:\n%s\nwant:\n%s", sc, strings.Join(rows, "\n"), strings.Join(want, "\n"))
		}
	}
}
