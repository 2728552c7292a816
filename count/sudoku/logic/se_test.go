package logic

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/count/sudoku"
)

// seRated is a puzzle with serate's rating.
type seRated struct {
	puzzle     sudoku.Grid
	er, ep, ed float64
	set        string
}

// loadSERatings reads testdata/se-ratings.txt: serate's ratings of samples
// of the shared sets (data, made with serate outside the project).
func loadSERatings(t testing.TB) []seRated {
	t.Helper()
	f, err := os.Open("testdata/se-ratings.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []seRated
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || l[0] == '#' {
			continue
		}
		fs := strings.Fields(l)
		if len(fs) != 3 {
			t.Fatalf("bad line %q", l)
		}
		g, err := sudoku.Parse(fs[0])
		if err != nil {
			t.Fatal(err)
		}
		r := seRated{puzzle: g, set: fs[2]}
		v := strings.Split(fs[1], "/")
		if len(v) != 3 {
			t.Fatalf("bad rating %q", l)
		}
		r.er, _ = strconv.ParseFloat(v[0], 64)
		r.ep, _ = strconv.ParseFloat(v[1], 64)
		r.ed, _ = strconv.ParseFloat(v[2], 64)
		out = append(out, r)
	}
	return out
}

// TestSERatingsSample rates the committed sample and compares ER, EP and
// ED with serate's exactly. The sample spans the shared sets' ratings; a
// plain run rates the 17-clue and a part of the top1465 puzzles, -short and
// -race fewer, and NQCOUNT_SE_FULL=1 all of them, the hardest included
// (minutes).
func TestSERatingsSample(t *testing.T) {
	all := loadSERatings(t)
	every := map[string]int{"17-clue": 1, "top1465": 4, "forum-hardest-1106": 0}
	switch {
	case os.Getenv("NQCOUNT_SE_FULL") != "":
		every = map[string]int{"17-clue": 1, "top1465": 1, "forum-hardest-1106": 1}
	case testing.Short() || raceEnabled:
		every = map[string]int{"17-clue": 10, "top1465": 40, "forum-hardest-1106": 0}
	}
	var sample []seRated
	seen := map[string]int{}
	for _, r := range all {
		n := seen[r.set]
		seen[r.set]++
		if k := every[r.set]; k > 0 && n%k == 0 {
			sample = append(sample, r)
		}
	}
	if len(sample) < 50 {
		t.Fatalf("only %d puzzles in the sample", len(sample))
	}
	gs := make([]sudoku.Grid, len(sample))
	for i, r := range sample {
		gs[i] = r.puzzle
	}
	// The agreement table (RESULTS.md): per set, how many ER, EP, ED and
	// all three equal serate's, and within 0.1 and 0.2.
	type tally struct{ n, all, er, ep, ed, er1, ep1, ed1, er2 int }
	sets := map[string]*tally{}
	diff := 0
	for i, res := range rateAll(gs, Options{}) {
		r := sample[i]
		if res.Err != nil {
			t.Fatalf("%s: %v", r.puzzle, res.Err)
		}
		got := res.Rating
		tl := sets[r.set]
		if tl == nil {
			tl = &tally{}
			sets[r.set] = tl
		}
		tl.n++
		near := func(a, b float64, tenths int) int {
			if seTenths(math.Abs(a-b)) <= tenths {
				return 1
			}
			return 0
		}
		tl.er += near(got.ER, r.er, 0)
		tl.ep += near(got.EP, r.ep, 0)
		tl.ed += near(got.ED, r.ed, 0)
		tl.er1 += near(got.ER, r.er, 1)
		tl.ep1 += near(got.EP, r.ep, 1)
		tl.ed1 += near(got.ED, r.ed, 1)
		tl.er2 += near(got.ER, r.er, 2)
		if got.ER == r.er && got.EP == r.ep && got.ED == r.ed {
			tl.all++
		} else {
			diff++
			t.Errorf("%s (%s): %.1f/%.1f/%.1f, serate %.1f/%.1f/%.1f", r.puzzle, r.set, got.ER, got.EP, got.ED, r.er, r.ep, r.ed)
		}
		if got.Scale != ScaleSE || got.Rater != Version || got.Score != got.ER {
			t.Errorf("%s: scale %q, rater %q, score %.1f", r.puzzle, got.Scale, got.Rater, got.Score)
		}
	}
	t.Logf("%d of %d puzzles rated as serate does", len(sample)-diff, len(sample))
	t.Logf("| set | puzzles | ER/EP/ED equal | ER equal | EP equal | ED equal | ER within 0.1 | EP within 0.1 | ED within 0.1 | ER within 0.2 |")
	for _, name := range []string{"17-clue", "top1465", "forum-hardest-1106"} {
		if tl := sets[name]; tl != nil {
			t.Logf("| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d |", name, tl.n, tl.all, tl.er, tl.ep, tl.ed, tl.er1, tl.ep1, tl.ed1, tl.er2)
		}
	}
}

// seFixture is a puzzle whose solve on the SE scale needs a technique as
// its hardest step, with serate's rating.
type seFixture struct {
	rule        string
	puzzle, sol sudoku.Grid
	er, ep, ed  float64
	source      string
}

func loadSEFixtures(t testing.TB) []seFixture {
	t.Helper()
	data, err := os.ReadFile("testdata/se-techniques.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []seFixture
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || l[0] == '#' {
			continue
		}
		f := strings.Split(l, "|")
		if len(f) != 5 {
			t.Fatalf("bad fixture line %q", l)
		}
		p, err1 := sudoku.Parse(f[1])
		s, err2 := sudoku.Parse(f[2])
		if err1 != nil || err2 != nil {
			t.Fatalf("fixture %s: %v %v", f[0], err1, err2)
		}
		fx := seFixture{rule: f[0], puzzle: p, sol: s, source: f[4]}
		v := strings.Split(f[3], "/")
		fx.er, _ = strconv.ParseFloat(v[0], 64)
		fx.ep, _ = strconv.ParseFloat(v[1], 64)
		fx.ed, _ = strconv.ParseFloat(v[2], 64)
		out = append(out, fx)
	}
	return out
}

// slowFixture reports whether a fixture's solve takes seconds (the nested
// chains): -short and -race skip them.
func slowFixture(f seFixture) bool { return f.er >= 9.5 }

// TestSETechniquesOnPuzzlesThatNeedThem solves, for every technique of the
// SE scale, a puzzle whose hardest step it takes: the solve replays to the
// solution with every step checked, the hardest step is the technique's,
// and the rating is serate's.
func TestSETechniquesOnPuzzlesThatNeedThem(t *testing.T) {
	fx := loadSEFixtures(t)
	have := map[string]bool{}
	for _, f := range fx {
		have[f.rule] = true
		t.Run(strings.ReplaceAll(f.rule, " ", "_"), func(t *testing.T) {
			if slowFixture(f) && (testing.Short() || raceEnabled) {
				t.Skip("a nested chain: seconds (run without -short and -race)")
			}
			var steps []Step
			s, b, err := start(context.Background(), f.puzzle)
			if err != nil {
				t.Fatal(err)
			}
			s.sol = f.sol
			var hardest int
			r := 0.0
			for b.left() > 0 {
				st, err := s.next(&b, 1<<30)
				if err != nil {
					t.Fatal(err)
				}
				if st.Score > r {
					r, hardest = st.Score, s.lastRule
				}
				steps = append(steps, st)
				b.apply(&st)
			}
			s.done()
			if got := replay(t, f.puzzle, f.sol, steps); got != f.sol {
				t.Fatalf("replay ends on %s", got)
			}
			if got := seRules()[hardest].name; got != f.rule {
				t.Errorf("%s (%s): hardest technique %s (%.1f), want %s", f.puzzle, f.source, got, r, f.rule)
			}
			rt, err := Rate(f.puzzle)
			if err != nil {
				t.Fatal(err)
			}
			if rt.ER != f.er || rt.EP != f.ep || rt.ED != f.ed {
				t.Errorf("%s: %.1f/%.1f/%.1f, serate %.1f/%.1f/%.1f", f.puzzle, rt.ER, rt.EP, rt.ED, f.er, f.ep, f.ed)
			}
			lo, hi := score(seRules()[hardest].lo), score(seRules()[hardest].hi)
			if rt.ER < lo || rt.ER > hi {
				t.Errorf("ER %.1f outside %s's %.1f-%.1f", rt.ER, f.rule, lo, hi)
			}
			for _, st := range steps {
				if st.Score == rt.ER && len(st.Cells) == 0 {
					t.Errorf("%s step without pattern cells: %s", st.Technique, st.Text)
				}
			}
		})
	}
	for _, r := range seRules() {
		if !have[r.name] && !slices.Contains(seUnfixtured, r.name) {
			t.Errorf("no fixture for %s", r.name)
		}
	}
}

// seUnfixtured are the techniques without a fixture: Aligned Triplet
// Exclusion and Dynamic Forcing Chains (+) are the hardest step of no
// puzzle rated in testdata/se-ratings.txt (a chain of another family comes
// first or scores lower), and the nested levels above the first take 15 to
// 30 CPU-seconds a puzzle, too long for a fixture the finders' test runs
// every technique on (TestSERatingsSample with NQCOUNT_SE_FULL=1 rates
// puzzles that need them).
var seUnfixtured = []string{
	"Aligned Triplet Exclusion",
	"Dynamic Forcing Chains (+)",
	"Nested Forcing Chains (+ Multiple Forcing Chains)",
	"Nested Forcing Chains (+ Dynamic Forcing Chains)",
	"Nested Forcing Chains (+ Dynamic Forcing Chains (+))",
	"Nested Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))",
	"Nested Forcing Chains (+ Dynamic Forcing Chains (+ Multiple Forcing Chains))",
}

// TestSEFindersAreSound runs every technique of the SE scale, not only the
// one the solver takes, on every board along the solves of samples of the
// shared sets (and of the fixtures), and checks every step it finds, and
// every step the nested chains' propagation enumerates, against the
// solution.
func TestSEFindersAreSound(t *testing.T) {
	type job struct {
		puzzle, sol sudoku.Grid
		nested      bool // run the nested levels too
	}
	var jobs []job
	for _, f := range loadSEFixtures(t) {
		if !slowFixture(f) || !(testing.Short() || raceEnabled) {
			jobs = append(jobs, job{f.puzzle, f.sol, slowFixture(f) && !raceEnabled})
		}
	}
	if d := sharedDir(t, false); d != "" {
		n := map[string]int{"17-clue.answers.txt": 30, "magictour-top1465.answers.txt": 12}
		if testing.Short() || raceEnabled {
			n = map[string]int{"17-clue.answers.txt": 6, "magictour-top1465.answers.txt": 2}
		}
		for set, k := range n {
			for _, a := range sample(t, filepath.Join(d, set), k) {
				jobs = append(jobs, job{a.puzzle, a.sol, false})
			}
		}
	}
	found := map[string]int{}
	enumerated := 0
	for _, j := range jobs {
		s, b, err := start(context.Background(), j.puzzle)
		if err != nil {
			t.Fatal(err)
		}
		s.sol = j.sol
		e := newSEEngine(s)
		for b.left() > 0 {
			// The step the solver takes, and its technique.
			st, err := s.next(&b, 1<<30)
			if err != nil {
				t.Fatal(err)
			}
			taken := s.lastRule
			for i, r := range seRules() {
				// Chains only where the solve reaches them (and Aligned
				// Triplet Exclusion everywhere: the solve reaches it on
				// no sample board, a chain comes first); the nested
				// levels only on the jobs that ask for them, up to the
				// technique the solve takes.
				if seRules()[i].lo >= 65 && i > taken && r.name != "Aligned Triplet Exclusion" {
					continue
				}
				if seRules()[i].lo >= 90 && !j.nested {
					continue
				}
				h, ok := r.find(e, &b)
				if !ok {
					continue
				}
				hs := h.step(false)
				hs.finish()
				if err := s.check(&b, &hs); err != nil {
					t.Fatalf("%s on %s: %s: %v", r.name, j.puzzle, hs.Text, err)
				}
				found[r.name]++
			}
			// The enumerations nested chains apply: every step.
			for _, each := range seAdvanced {
				each(&b, func(h hint) bool {
					hs := h.step(false)
					hs.finish()
					if err := s.check(&b, &hs); err != nil && err.Error() != "it changes nothing" {
						t.Fatalf("enumerated %s on %s: %v", hs.Technique, j.puzzle, err)
					}
					enumerated++
					return false
				})
			}
			b.apply(&st)
		}
		e.release()
		s.done()
	}
	if !testing.Short() && !raceEnabled {
		for _, r := range seRules() {
			if found[r.name] == 0 && r.lo < 95 {
				t.Errorf("%s never found a step", r.name)
			}
		}
	}
	t.Logf("steps found: %v; %d enumerated", found, enumerated)
}

func TestSEOrders(t *testing.T) {
	// serate's combination generator counts masks up.
	var got []uint32
	colex(2, 4, func(m uint32) bool { got = append(got, m); return false })
	if fmt.Sprint(got) != "[3 5 6 9 10 12]" {
		t.Errorf("colex(2, 4): %v", got)
	}
	// One of each reversed pair of link orders, in generation order.
	if fmt.Sprint(slPerms()[2], slPerms()[3]) != "[[0 1]] [[0 1 2] [1 0 2] [0 2 1]]" {
		t.Errorf("link orders %v %v", slPerms()[2], slPerms()[3])
	}
	if fmt.Sprint(linkSets(2)) != "[[0 0] [0 1] [1 1] [0 2] [1 2] [2 2]]" {
		t.Errorf("link sets %v", linkSets(2))
	}
	// Hash map order: by cell modulo the table (16, 32 past 12 cells),
	// then insertion order.
	ms := []Move{{20, 1}, {4, 2}, {36, 3}, {3, 1}, {3, 5}}
	if fmt.Sprint(hashOrder(ms)) != "[r1c4=1 r1c4=5 r3c3=1 r1c5=2 r5c1=3]" {
		t.Errorf("hash order %v", hashOrder(ms))
	}
	var many []Move
	for c := 80; c >= 68; c-- {
		many = append(many, Move{c, 1})
	}
	if h := hashOrder(many); h[0].Cell != 68 || h[len(h)-1].Cell != 80 {
		t.Errorf("hash order of 13 cells %v", h)
	}
	// A chain's length adds a tenth at every step of 4, 6, 8, 12, 16, 24...
	for c, want := range map[int]float64{6: 0, 7: 0.1, 8: 0.1, 9: 0.2, 10: 0.2, 11: 0.3, 14: 0.3, 15: 0.4, 18: 0.4, 19: 0.5, 26: 0.5, 27: 0.6} {
		if got := lengthDifficulty(c); seTenths(got) != seTenths(want) {
			t.Errorf("lengthDifficulty(%d) = %.2f, want %.1f", c, got, want)
		}
	}
	for _, c := range []struct {
		lo, hi float64
		want   bool
	}{{1, 1, true}, {1.1, 1.1, false}, {1.3, 1.4, false}, {1.6, 1.6, false}, {1.7, 1.7, true}, {1.8, 1.8, false}, {2.1, 2.2, false}, {4.1, 4.1, true}, {4.7, 4.7, true}, {6.5, 11.9, true}, {12, 12, true}} {
		if got := Attainable(c.lo, c.hi); got != c.want {
			t.Errorf("Attainable(%.1f, %.1f) = %v", c.lo, c.hi, got)
		}
	}
}

// TestSERatingText pins a rating's text forms.
func TestSERatingText(t *testing.T) {
	g, _ := sudoku.Parse("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........")
	r, err := Rate(g)
	if err != nil {
		t.Fatal(err)
	}
	if got := r.String(); got != "ER 9.0 EP 1.2 ED 1.2 (Dynamic Contradiction Forcing Chains) [se scale, rater "+Version+"]" {
		t.Errorf("String %q", got)
	}
	if got := r.Short(); got != "hard 9.0/1.2/1.2 [se "+Version+"]" {
		t.Errorf("Short %q", got)
	}
	c, err := RateWith(context.Background(), g, Options{Limit: 4})
	if err != nil || !c.Capped || !strings.Contains(c.Short(), " >=") {
		t.Errorf("capped %+v %v", c, err)
	}
	cl, err := RateWith(context.Background(), g, Options{Scale: ScaleClassic})
	if err != nil || cl.Scale != ScaleClassic || cl.ER != 8.3 {
		t.Errorf("classic %+v %v", cl, err)
	}
	if _, err := RateWith(context.Background(), g, Options{Scale: "nope"}); err == nil {
		t.Error("an unknown scale rates")
	}
}
