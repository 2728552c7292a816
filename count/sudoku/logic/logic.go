// Package logic solves sudoku puzzles the way a person does, one logical
// step at a time, and rates them by the hardest step they need.
//
// Each step is found by a technique with a score on a scale like Sudoku
// Explainer's: full house 1.0, hidden single 1.2 (box) or 1.5 (row,
// column), naked single 2.3, pointing 2.6, claiming 2.8, naked pair 3.0,
// X-Wing 3.2, hidden pair 3.4, naked triple 3.6, Swordfish 3.8, hidden
// triple 4.0, XY-Wing 4.2, XYZ-Wing 4.4, naked quad 5.0, Jellyfish 5.2,
// hidden quad 5.4, simple coloring 5.6, multi-coloring 5.8, X-chains 6.5+,
// XY-chains 6.6+, alternating inference chains 7.0+, forcing chains
// 8.0-8.9, dynamic forcing chains 8.5-9.4, nested forcing chains 9.5-11.9,
// and a guess (12.0) where even those find nothing (Techniques lists them). At every
// point the solver takes a step of the easiest technique that finds one;
// a puzzle's score is the highest score of its steps.
//
// Hint gives the next step from a grid, Explain every step of a solve,
// Rate the score, its level name (sudoku.Level) and the techniques used.
// Steps carry a sentence and the pattern's cells, candidates and links, for
// text, JSON and a board to display. Every step is checked against the
// puzzle's solution before it is returned. All functions are safe for
// concurrent use; RateAll and ExplainAll spread a batch over the cores.
package logic

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nqcount/nqcount/count/sudoku"
)

// Technique is one technique of the solver and its scores.
type Technique struct {
	// Name is the name steps carry in Step.Technique.
	Name string `json:"name"`
	// Score is the technique's lowest score; MaxScore its highest (the
	// same, unless the score depends on where or how long the pattern
	// is).
	Score    float64 `json:"score"`
	MaxScore float64 `json:"max_score"`
}

// finder looks for one step of a technique on the board.
type finder func(s *solver, b *board) (Step, bool)

type technique struct {
	name   string
	lo, hi int // scores in tenths
	find   finder
}

// techniques lists the techniques in the order they are tried: by lowest
// score. Entries without a finder are found by the entry before them.
var techniques = []technique{
	{"full house", 10, 10, fullHouse},
	{"hidden single", 12, 15, hiddenSingle},
	{"naked single", 23, 23, nakedSingle},
	{"pointing", 26, 26, lockedCandidates(true)},
	{"claiming", 28, 28, lockedCandidates(false)},
	{"naked pair", 30, 30, nakedSubset(2, 30)},
	{"x-wing", 32, 32, fish(2, 32, "x-wing")},
	{"hidden pair", 34, 34, hiddenSubset(2, 34)},
	{"naked triple", 36, 36, nakedSubset(3, 36)},
	{"swordfish", 38, 38, fish(3, 38, "swordfish")},
	{"hidden triple", 40, 40, hiddenSubset(3, 40)},
	{"xy-wing", 42, 42, wing(false)},
	{"xyz-wing", 44, 44, wing(true)},
	{"naked quad", 50, 50, nakedSubset(4, 50)},
	{"jellyfish", 52, 52, fish(4, 52, "jellyfish")},
	{"hidden quad", 54, 54, hiddenSubset(4, 54)},
	{"simple coloring", 56, 56, simpleColoring},
	{"multi-coloring", 58, 58, multiColoring},
	{"x-chain", 65, 79, chains},
	{"xy-chain", 66, 79, nil},
	{"aic", 70, 79, nil},
	{"forcing chain", 80, 89, forcing(1)},
	{"dynamic forcing chain", 85, 94, forcing(2)},
	{"nested forcing chain", 95, 119, forcing(3)},
	{"nested forcing chain", 115, 119, forcing(4)},
	{"guess", 120, 120, guess},
}

// Techniques returns the techniques in the order the solver tries them,
// easiest first.
func Techniques() []Technique { return slices.Clone(techniqueList) }

var techniqueList = func() []Technique {
	var out []Technique
	for _, t := range techniques {
		if len(out) > 0 && out[len(out)-1].Name == t.name {
			continue
		}
		out = append(out, Technique{t.name, score(t.lo), score(t.hi)})
	}
	return out
}()

// chains tries X-chains, then XY-chains, then alternating inference
// chains, and keeps the lowest-scored chain: a long X-chain may score above
// a short XY-chain.
func chains(s *solver, b *board) (Step, bool) {
	var best Step
	found := false
	for _, k := range []chainKind{xChain, xyChain, aicChain} {
		if found && tenths(best.Score) <= chainBase[k] {
			break
		}
		st, ok := chain(k)(s, b)
		if s.cancelled() {
			return Step{}, false
		}
		if ok && (!found || st.Score < best.Score) {
			best, found = st, true
		}
	}
	return best, found
}

// guess (12.0) places the solution's digit in a cell with the fewest
// candidates, when no technique finds anything: the scale's end.
func guess(s *solver, b *board) (Step, bool) {
	best := -1
	for c := 0; c < 81; c++ {
		if b.val[c] == 0 && (best < 0 || popcount(b.cand[c]) < popcount(b.cand[best])) {
			best = c
		}
	}
	if best < 0 {
		return Step{}, false
	}
	d := int(s.sol[best])
	return Step{
		Technique:  "guess",
		Score:      12.0,
		Text:       fmt.Sprintf("guess: no technique finds a step here; %s is %s, and the solution has %d there", sudoku.CellName(best), digitList(digits(b.cand[best]), "or"), d),
		Placements: []Move{{best, d}},
		Cells:      []int{best},
	}, true
}

// solver holds what a solve needs between steps: the solution (to check
// every step), cancellation, and the forcing chains' scratch space and
// pending conclusions.
type solver struct {
	ctx      context.Context
	sol      sudoku.Grid
	stop     bool
	quiet    bool // rating only: the singles skip their sentences and patterns
	pending  [5][]pending
	prop     prop
	arena    arena
	branches *[729]branchState
}

func (s *solver) cancelled() bool {
	if !s.stop && s.ctx.Err() != nil {
		s.stop = true
	}
	return s.stop
}

// errCapped ends a solve at a step above the score limit.
var errCapped = errors.New("step above the limit")

// next returns the easiest step on b, or errCapped with the step if every
// step found scores above limit (in tenths), or ctx's error.
func (s *solver) next(b *board, limit int) (Step, error) {
	for i, t := range techniques {
		if t.find == nil {
			continue
		}
		if t.lo > limit {
			return Step{Technique: t.name, Score: score(t.lo)}, errCapped
		}
		st, ok := t.find(s, b)
		if s.cancelled() {
			return Step{}, s.ctx.Err()
		}
		if !ok {
			continue
		}
		st.finish()
		if err := s.check(b, &st); err != nil {
			return Step{}, fmt.Errorf("logic: %s step %q is wrong (%v): a bug, please report the puzzle %s", techniques[i].name, st.Text, err, s.sol)
		}
		if tenths(st.Score) > limit {
			return st, errCapped
		}
		return st, nil
	}
	return Step{}, errors.New("logic: no step found on an unsolved grid")
}

// check verifies a step against the solution: what it places is the
// solution's digit, what it removes is not, and it changes something.
func (s *solver) check(b *board, st *Step) error {
	if len(st.Placements)+len(st.Eliminations) == 0 {
		return errors.New("it concludes nothing")
	}
	changes := false
	for _, m := range st.Placements {
		if int(s.sol[m.Cell]) != m.Digit {
			return fmt.Errorf("%s is %d in the solution", sudoku.CellName(m.Cell), s.sol[m.Cell])
		}
		changes = changes || b.val[m.Cell] == 0
	}
	for _, m := range st.Eliminations {
		if int(s.sol[m.Cell]) == m.Digit {
			return fmt.Errorf("it removes %s, the solution's digit", m)
		}
		changes = changes || b.has(m.Cell, m.Digit)
	}
	if !changes {
		return errors.New("it changes nothing")
	}
	return nil
}

// ErrSolved is returned by Hint for a grid with no empty cell.
var ErrSolved = errors.New("the grid is already solved")

// start checks g and returns its board and a solver for it.
func start(ctx context.Context, g sudoku.Grid) (*solver, board, error) {
	if err := g.Check(); err != nil {
		return nil, board{}, err
	}
	n, sol := sudoku.Solve(g, 2)
	if n != 1 {
		return nil, board{}, &sudoku.ErrNotUnique{Solutions: n}
	}
	return &solver{ctx: ctx, sol: sol}, newBoard(&g), nil
}

// Hint returns the next step of a logical solve of g: the easiest step the
// techniques find, with candidates worked out afresh from the digits of g
// (each empty cell starts with the digits none of its peers holds). g must
// have exactly one solution: clashing digits give a *sudoku.ParseError, no
// or several solutions a *sudoku.ErrNotUnique (a wrong digit entered in a
// puzzle shows as no solution), a full grid ErrSolved.
func Hint(g sudoku.Grid) (Step, error) { return HintContext(context.Background(), g) }

// HintContext is Hint with a context: on a hard grid, finding a forcing
// chain may take a second or more.
func HintContext(ctx context.Context, g sudoku.Grid) (Step, error) {
	s, b, err := start(ctx, g)
	if err != nil {
		return Step{}, err
	}
	if b.left() == 0 {
		return Step{}, ErrSolved
	}
	return s.next(&b, 1<<30)
}

// Rating is a puzzle's difficulty.
type Rating struct {
	// Score is the highest score of the solve's steps (1.0-12.0).
	Score float64 `json:"score"`
	// Level is the named range holding Score.
	Level sudoku.Level `json:"level"`
	// Techniques are the techniques the solve used, easiest first.
	Techniques []TechniqueUse `json:"techniques"`
	// Steps is the number of steps of the solve.
	Steps int `json:"steps"`
	// Capped is set by RateContext with a limit when a step scored above
	// it: the solve stopped there, and Score is that step's score, a lower
	// bound of the true score.
	Capped bool `json:"capped,omitempty"`
}

// TechniqueUse is a technique's part in a solve.
type TechniqueUse struct {
	Name string `json:"name"`
	// Score is the highest score of the technique's steps.
	Score float64 `json:"score"`
	// Count is the number of its steps.
	Count int `json:"count"`
}

// Explanation is a logical solve, step by step.
type Explanation struct {
	Puzzle   sudoku.Grid `json:"puzzle"`
	Solution sudoku.Grid `json:"solution"`
	Rating   Rating      `json:"rating"`
	// Steps, applied in order to the puzzle's candidates, solve it.
	Steps []Step `json:"steps"`
}

// Explain solves g step by step. See Hint for the errors.
func Explain(g sudoku.Grid) (Explanation, error) { return ExplainContext(context.Background(), g) }

// ExplainContext is Explain with a context; it returns ctx's error if ctx
// ends first.
func ExplainContext(ctx context.Context, g sudoku.Grid) (Explanation, error) {
	var steps []Step
	r, err := solve(ctx, g, 0, func(st Step) { steps = append(steps, st) })
	if err != nil {
		return Explanation{}, err
	}
	_, sol := sudoku.Solve(g, 1)
	return Explanation{Puzzle: g, Solution: sol, Rating: r, Steps: steps}, nil
}

// Rate rates g: the score of the hardest step its solve needs. See Hint for
// the errors.
func Rate(g sudoku.Grid) (Rating, error) { return RateContext(context.Background(), g, 0) }

// RateContext is Rate with a context and a limit: with limit > 0 the solve
// stops at the first step that scores above limit, and the rating is
// Capped (a generator looking for puzzles up to some score saves the
// search for harder steps).
func RateContext(ctx context.Context, g sudoku.Grid, limit float64) (Rating, error) {
	return solve(ctx, g, limit, nil)
}

func solve(ctx context.Context, g sudoku.Grid, limit float64, emit func(Step)) (Rating, error) {
	s, b, err := start(ctx, g)
	if err != nil {
		return Rating{}, err
	}
	lim := 1 << 30
	if limit > 0 {
		lim = tenths(limit)
	}
	s.quiet = emit == nil
	var r Rating
	use := map[string]*TechniqueUse{}
	add := func(st Step) {
		u := use[st.Technique]
		if u == nil {
			u = &TechniqueUse{Name: st.Technique}
			use[st.Technique] = u
		}
		u.Count++
		u.Score = max(u.Score, st.Score)
		r.Score = max(r.Score, st.Score)
		r.Steps++
	}
	for b.left() > 0 {
		st, err := s.next(&b, lim)
		if err == errCapped {
			r.Score = max(r.Score, st.Score)
			r.Capped = true
			break
		}
		if err != nil {
			return Rating{}, err
		}
		add(st)
		if emit != nil {
			emit(st)
		}
		b.apply(&st)
	}
	if b.left() == 0 && b.grid() != s.sol {
		return Rating{}, fmt.Errorf("logic: the solve of %s ended on %s, not the solution: a bug", g, b.grid())
	}
	if r.Score == 0 {
		r.Score = sudoku.MinScore // a full grid: nothing to do
	}
	r.Level = sudoku.LevelOf(r.Score)
	r.Techniques = make([]TechniqueUse, 0, len(use))
	for _, t := range techniqueList {
		if u := use[t.Name]; u != nil {
			r.Techniques = append(r.Techniques, *u)
		}
	}
	return r, nil
}

// Attainable reports whether a step can score between lo and hi (both
// included). A puzzle's score is one of its steps' scores, so a generator
// asked for scores where no step lands would search forever: hidden
// singles score 1.2 or 1.5 and most techniques one fixed score, while
// chains and forcing chains cover every tenth from 6.5 to 11.9.
func Attainable(lo, hi float64) bool {
	a, b := tenths(lo), tenths(hi)
	for _, t := range techniques {
		if t.name == "hidden single" {
			if (a <= 12 && 12 <= b) || (a <= 15 && 15 <= b) {
				return true
			}
			continue
		}
		if t.lo <= b && a <= t.hi {
			return true
		}
	}
	return false
}
