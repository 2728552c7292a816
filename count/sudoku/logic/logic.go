// Package logic solves sudoku puzzles the way a person does, one logical
// step at a time, and rates them by the steps they need.
//
// Two rating scales share the solver. The default, ScaleSE, is Sudoku
// Explainer's: the techniques, weights and order of preference of its
// command-line rater serate (as SukakuExplainer 1.18.1 ships it, default
// technique set), so that a rating here is the rating puzzle makers and
// the solving forums quote. A puzzle's rating is three numbers: ER, the
// hardest step of the solve; EP, the hardest step up to the first digit
// placed; ED, the first step. The techniques (Techniques lists them, in
// the order they are tried) run from singles (1.0-1.5), "direct"
// intersections and hidden subsets that yield a single at once (1.7-2.5),
// naked singles (2.3), intersections, subsets, fish and wings (2.6-4.4),
// uniqueness patterns (unique rectangles and loops 4.5-5.1, BUG
// 5.6-6.2), strong-link fish (Skyscraper, 2-String Kite, Turbot Fish:
// 4.0-6.1), ALS wings (WXYZ- to TUVWXYZ-Wing, 5.5-7.5) and aligned
// exclusion (6.2, 7.5) to chains: bidirectional cycles and forcing chains
// (6.5+), Nishio (7.5+), multiple (8.0+) and dynamic forcing chains
// (8.5+), and nested ones (9.0-12). At every point the solver takes the
// first technique, in that order, that finds a step, and of its steps the
// easiest (chains by length: a tenth more for every half as many
// candidates again). ScaleClassic is nqcount's first scale, kept by name.
//
// Hint gives the next step from a grid, Explain every step of a solve,
// Rate the rating (ER, EP, ED, the level name of sudoku.Level and the
// techniques used). Steps carry a sentence and the pattern's cells,
// candidates and links, for text, JSON and a board to display. Every step
// is checked against the puzzle's solution before it is returned. All
// functions are safe for concurrent use; package batch rates or explains a
// stream of puzzles on every core.
package logic

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/nqcount/nqcount/count/sudoku"
)

// Version is the rater's version: it changes whenever a rating of some
// puzzle may change. Every Rating carries it with its scale.
const Version = "2.0"

// Scale names a rating scale.
type Scale string

// The scales.
const (
	// ScaleSE is Sudoku Explainer's (serate's) scale, the default.
	ScaleSE Scale = "se"
	// ScaleClassic is nqcount's first scale (rater 1.x).
	ScaleClassic Scale = "classic"
)

// Scales lists the scales, the default first.
var Scales = []Scale{ScaleSE, ScaleClassic}

// ParseScale reads a scale's name ("" is the default).
func ParseScale(s string) (Scale, error) {
	switch Scale(s) {
	case "", ScaleSE:
		return ScaleSE, nil
	case ScaleClassic:
		return ScaleClassic, nil
	}
	return "", fmt.Errorf("unknown rating scale %q: want se or classic", s)
}

// Technique is one technique of the solver and its scores.
type Technique struct {
	// Name is the name steps carry in Step.Technique (serate's name on
	// the SE scale; chains name their variant, e.g. "Cell Forcing Chains").
	Name string `json:"name"`
	// Score is the technique's lowest score; MaxScore its highest (the
	// same, unless the score depends on where or how long the pattern
	// is).
	Score    float64 `json:"score"`
	MaxScore float64 `json:"max_score"`
}

// Techniques returns the techniques of the default scale (ScaleSE) in the
// order the solver tries them.
func Techniques() []Technique { return TechniquesOf(ScaleSE) }

// TechniquesOf returns a scale's techniques in the order the solver tries
// them.
func TechniquesOf(sc Scale) []Technique {
	if sc == ScaleClassic {
		return slices.Clone(classicList)
	}
	out := make([]Technique, len(seRules()))
	for i, r := range seRules() {
		out[i] = Technique{r.name, score(r.lo), score(r.hi)}
	}
	return out
}

// solver holds what a solve needs between steps: the solution (to check
// every step), the scale, cancellation, and the techniques' scratch space.
type solver struct {
	ctx      context.Context
	sol      sudoku.Grid
	scale    Scale
	stop     bool
	quiet    bool // rating only: the steps skip their sentences and patterns
	se       *seEngine
	lastRule int // the SE technique of the last step next returned
	pending  [5][]pending
	prop     prop
	arena    arena
	branches *[729]branchState
	taker    taker // the catalogue's searches' first steps
}

func (s *solver) cancelled() bool {
	if !s.stop && s.ctx.Err() != nil {
		s.stop = true
	}
	return s.stop
}

// errCapped ends a solve at a step above the score limit.
var errCapped = errors.New("step above the limit")

// next returns the step the solver takes on b, or errCapped with the step
// if it scores above limit (in tenths), or ctx's error.
func (s *solver) next(b *board, limit int) (Step, error) {
	if s.scale == ScaleClassic {
		return s.classicNext(b, limit)
	}
	if s.se == nil {
		s.se = newSEEngine(s)
	}
	h, err := s.se.next(b, limit)
	if err != nil && err != errCapped {
		if err == errNoStep {
			return Step{}, fmt.Errorf("%w (the puzzle %s)", err, s.sol)
		}
		return Step{}, err
	}
	s.lastRule = h.rule
	st := h.step(s.quiet || err == errCapped)
	st.finish()
	if err == errCapped {
		return st, errCapped
	}
	if cerr := s.check(b, &st); cerr != nil {
		return Step{}, fmt.Errorf("logic: %s step %q is wrong (%v): a bug, please report the puzzle %s", st.Technique, st.Text, cerr, s.sol)
	}
	return st, nil
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

// start checks g and returns its board and a solver for it on the default
// scale.
func start(ctx context.Context, g sudoku.Grid) (*solver, board, error) {
	if err := g.Check(); err != nil {
		return nil, board{}, err
	}
	n, sol := sudoku.Solve(g, 2)
	if n != 1 {
		return nil, board{}, &sudoku.ErrNotUnique{Solutions: n}
	}
	return &solver{ctx: ctx, sol: sol, scale: ScaleSE}, newBoard(&g), nil
}

// Options choose how a puzzle is rated or explained.
type Options struct {
	// Scale is the rating scale; "" is ScaleSE.
	Scale Scale
	// Limit, if above 0, stops a rating at the first step that scores
	// above it: the rating is Capped (a generator looking for puzzles up
	// to some score saves the search for harder steps).
	Limit float64
}

// Hint returns the next step of a logical solve of g: the step the solver
// takes on the default scale, with candidates worked out afresh from the
// digits of g (each empty cell starts with the digits none of its peers
// holds). g must have exactly one solution: clashing digits give a
// *sudoku.ParseError, no or several solutions a *sudoku.ErrNotUnique (a
// wrong digit entered in a puzzle shows as no solution), a full grid
// ErrSolved.
func Hint(g sudoku.Grid) (Step, error) { return HintContext(context.Background(), g) }

// HintContext is Hint with a context: on a hard grid, finding a nested
// forcing chain may take seconds.
func HintContext(ctx context.Context, g sudoku.Grid) (Step, error) {
	return HintWith(ctx, g, Options{})
}

// HintWith is HintContext on a chosen scale (opt.Limit is ignored).
func HintWith(ctx context.Context, g sudoku.Grid, opt Options) (Step, error) {
	s, b, err := start(ctx, g)
	if err != nil {
		return Step{}, err
	}
	if s.scale, err = ParseScale(string(opt.Scale)); err != nil {
		return Step{}, err
	}
	if b.left() == 0 {
		return Step{}, ErrSolved
	}
	defer s.done()
	return s.next(&b, 1<<30)
}

// done releases the solver's scratch space.
func (s *solver) done() {
	if s.se != nil {
		if !s.stop {
			s.se.release()
		}
		// A cancelled solve's engine holds the chain searches it cut
		// short, which the next solve on the same board would take as
		// whole: it is dropped, not pooled.
		s.se = nil
	}
}

// Rating is a puzzle's difficulty.
type Rating struct {
	// Scale is the scale rated on; Rater the rater's version (Version).
	Scale Scale  `json:"scale"`
	Rater string `json:"rater"`
	// Score is the rating's one number: ER.
	Score float64 `json:"score"`
	// ER is the score of the hardest step of the solve, EP the highest
	// score up to the first step that places a digit, ED the first step's
	// (serate's ER, EP and ED on ScaleSE).
	ER float64 `json:"er"`
	EP float64 `json:"ep"`
	ED float64 `json:"ed"`
	// Hardest names the technique of the first step scoring ER.
	Hardest string `json:"hardest"`
	// Level is the named range holding Score.
	Level sudoku.Level `json:"level"`
	// Techniques are the techniques the solve used, in the scale's order.
	Techniques []TechniqueUse `json:"techniques"`
	// Steps is the number of steps of the solve.
	Steps int `json:"steps"`
	// Capped is set by a rating with a limit when a step scored above it:
	// the solve stopped there, and Score is that step's score, a lower
	// bound of the true score (EP and ED too when the solve stopped before
	// reaching them).
	Capped bool `json:"capped,omitempty"`

	hardRule int // the technique (in the scale's list) of the step scoring ER
}

// String writes the rating on one line as the commands print it:
// "ER 7.1 EP 1.2 ED 1.2 (Forcing Chain) [se scale, rater 2.0]", with
// "at least" before a capped score.
func (r Rating) String() string {
	er := fmt.Sprintf("%.1f", r.ER)
	if r.Capped {
		er = "at least " + er
	}
	hard := r.Hardest
	if hard == "" {
		hard = "nothing to do"
	}
	return fmt.Sprintf("ER %s EP %.1f ED %.1f (%s) [%s]", er, r.EP, r.ED, hard, r.Label())
}

// Short writes the rating as the words after a puzzle on its line: the
// level (the second field of sudoku rate's lines, as it always was), then
// serate's ER/EP/ED and the scale and rater: "hard 9.0/1.2/1.2 [se 2.0]"
// (">=" before a capped ER).
func (r Rating) Short() string {
	capped := ""
	if r.Capped {
		capped = ">="
	}
	return fmt.Sprintf("%s %s%.1f/%.1f/%.1f [%s %s]", r.Level, capped, r.ER, r.EP, r.ED, r.Scale, r.Rater)
}

// Label names the rating's scale and rater: "se scale, rater 2.0".
func (r Rating) Label() string { return fmt.Sprintf("%s scale, rater %s", r.Scale, r.Rater) }

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

// Explain solves g step by step on the default scale. See Hint for the
// errors.
func Explain(g sudoku.Grid) (Explanation, error) { return ExplainContext(context.Background(), g) }

// ExplainContext is Explain with a context; it returns ctx's error if ctx
// ends first.
func ExplainContext(ctx context.Context, g sudoku.Grid) (Explanation, error) {
	return ExplainWith(ctx, g, Options{})
}

// ExplainWith is ExplainContext on a chosen scale (opt.Limit is ignored).
func ExplainWith(ctx context.Context, g sudoku.Grid, opt Options) (Explanation, error) {
	var steps []Step
	opt.Limit = 0
	r, err := solve(ctx, g, opt, func(st Step) { steps = append(steps, st) })
	if err != nil {
		return Explanation{}, err
	}
	_, sol := sudoku.Solve(g, 1)
	return Explanation{Puzzle: g, Solution: sol, Rating: r, Steps: steps}, nil
}

// Rate rates g on the default scale. See Hint for the errors.
func Rate(g sudoku.Grid) (Rating, error) { return RateContext(context.Background(), g, 0) }

// RateContext is Rate with a context and a limit (see Options.Limit).
func RateContext(ctx context.Context, g sudoku.Grid, limit float64) (Rating, error) {
	return RateWith(ctx, g, Options{Limit: limit})
}

// RateWith rates g with the options given.
func RateWith(ctx context.Context, g sudoku.Grid, opt Options) (Rating, error) {
	return solve(ctx, g, opt, nil)
}

func solve(ctx context.Context, g sudoku.Grid, opt Options, emit func(Step)) (Rating, error) {
	sc, err := ParseScale(string(opt.Scale))
	if err != nil {
		return Rating{}, err
	}
	s, b, err := start(ctx, g)
	if err != nil {
		return Rating{}, err
	}
	s.scale = sc
	defer s.done()
	lim := 1 << 30
	if opt.Limit > 0 {
		lim = tenths(opt.Limit)
	}
	s.quiet = emit == nil
	r := Rating{Scale: sc, Rater: Version}
	type used struct {
		TechniqueUse
		rule, first int
	}
	use := map[string]*used{}
	placed := false
	add := func(st Step) {
		u := use[st.Technique]
		if u == nil {
			u = &used{TechniqueUse{Name: st.Technique}, s.ruleOf(st), len(use)}
			use[st.Technique] = u
		}
		u.Count++
		u.Score = max(u.Score, st.Score)
		if st.Score > r.ER {
			r.ER, r.Hardest, r.hardRule = st.Score, st.Technique, s.ruleOf(st)
		}
		if r.Steps == 0 {
			r.ED = r.ER
		}
		if !placed && len(st.Placements) > 0 {
			placed = true
			r.EP = r.ER
		}
		r.Steps++
	}
	for b.left() > 0 {
		st, err := s.next(&b, lim)
		if err == errCapped {
			if st.Score > r.ER {
				r.ER, r.Hardest = st.Score, st.Technique
			}
			if r.Steps == 0 {
				r.ED = r.ER
			}
			if !placed {
				r.EP = r.ER
			}
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
	if r.ER == 0 {
		r.ER, r.EP, r.ED = sudoku.MinScore, sudoku.MinScore, sudoku.MinScore // a full grid: nothing to do
	}
	r.Score = r.ER
	r.Level = sudoku.LevelOf(r.Score)
	us := make([]*used, 0, len(use))
	for _, u := range use {
		us = append(us, u)
	}
	slices.SortFunc(us, func(x, y *used) int {
		if x.rule != y.rule {
			return x.rule - y.rule
		}
		return x.first - y.first
	})
	r.Techniques = make([]TechniqueUse, len(us))
	for i, u := range us {
		r.Techniques[i] = u.TechniqueUse
	}
	return r, nil
}

// ruleOf returns the place in the scale's technique list of the technique
// that took step st (the last one next returned).
func (s *solver) ruleOf(st Step) int {
	if s.scale == ScaleClassic {
		for i, t := range classicList {
			if t.Name == st.Technique {
				return i
			}
		}
		return len(classicList)
	}
	return s.lastRule
}

// Attainable reports whether a step of the default scale can score between
// lo and hi (both included). A puzzle's score is one of its steps' scores,
// so a generator asked for scores where no step lands would search
// forever.
func Attainable(lo, hi float64) bool { return AttainableOn(ScaleSE, lo, hi) }

// AttainableOn is Attainable on a chosen scale.
func AttainableOn(sc Scale, lo, hi float64) bool {
	a, b := tenths(lo), tenths(hi)
	if sc == ScaleClassic {
		return classicAttainable(a, b)
	}
	for _, r := range seRules() {
		if r.scores == nil {
			if r.lo <= b && a <= r.hi {
				return true
			}
			continue
		}
		for _, t := range r.scores {
			if a <= t && t <= b {
				return true
			}
		}
	}
	return false
}

func classicAttainable(a, b int) bool {
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
