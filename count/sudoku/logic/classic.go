package logic

import (
	"fmt"
)

// The classic scale: nqcount's first rater, kept by name for scripts that
// rated with it. Its techniques are tried by lowest score; a chain's score
// grows with its length.

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
	{"full house", 10, 10, func(s *solver, b *board) (Step, bool) {
		return s.classicStep(singleIn(b, &classicStyle.singleHouses, true, "full house"))
	}},
	{"hidden single", 12, 15, func(s *solver, b *board) (Step, bool) {
		return s.classicStep(singleIn(b, &classicStyle.singleHouses, false, "hidden single"))
	}},
	{"naked single", 23, 23, func(s *solver, b *board) (Step, bool) { return s.classicStep(nakedSingle(b, "naked single")) }},
	{"pointing", 26, 26, fromCatalogue(classicStyle.locking(classicPointing))},
	{"claiming", 28, 28, fromCatalogue(classicStyle.locking(classicClaiming))},
	{"naked pair", 30, 30, fromCatalogue(classicStyle.nakedSet(2))},
	{"x-wing", 32, 32, fromCatalogue(classicStyle.fish(2))},
	{"hidden pair", 34, 34, fromCatalogue(classicStyle.hiddenSet(2, false))},
	{"naked triple", 36, 36, fromCatalogue(classicStyle.nakedSet(3))},
	{"swordfish", 38, 38, fromCatalogue(classicStyle.fish(3))},
	{"hidden triple", 40, 40, fromCatalogue(classicStyle.hiddenSet(3, false))},
	{"xy-wing", 42, 42, fromCatalogue(classicStyle.wing(false))},
	{"xyz-wing", 44, 44, fromCatalogue(classicStyle.wing(true))},
	{"naked quad", 50, 50, fromCatalogue(classicStyle.nakedSet(4))},
	{"jellyfish", 52, 52, fromCatalogue(classicStyle.fish(4))},
	{"hidden quad", 54, 54, fromCatalogue(classicStyle.hiddenSet(4, false))},
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

// classicStyle is the classic scale's part in the catalogue's searches.
var classicStyle = style{
	// Boxes, then rows, then columns: a hidden single in a box is the
	// easiest to see.
	singleHouses: [27]int{18, 19, 20, 21, 22, 23, 24, 25, 26, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17},
	pointing:     "pointing", claiming: "claiming",
	// Rows, then columns, then boxes.
	subsetHouses: [27]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26},
	lex:          true,
	minNaked:     func(n int) int { return n + 1 },
	minHidden:    func(n int) int { return n + 1 },
	naked:        [5]string{2: "naked pair", 3: "naked triple", 4: "naked quad"},
	hidden:       [5]string{2: "hidden pair", 3: "hidden triple", 4: "hidden quad"},
	// Digit by digit, rows as the base first.
	fishName:       [5]string{2: "x-wing", 3: "swordfish", 4: "jellyfish"},
	fishDigitOuter: true,
	fishRowsFirst:  true,
	xyWing:         "xy-wing", xyzWing: "xyz-wing", wingText: classicWingText,
}

// classicPointing searches the boxes in order, each digit by digit, for a
// digit's candidates in one row or column; classicClaiming the rows, then
// the columns, for a digit's candidates in one box.
var (
	classicPointing = []lockPass{{bases: houseRange(18, 27), covers: []int{1, 2}}}
	classicClaiming = []lockPass{{bases: houseRange(0, 18), covers: []int{0}}}
)

var classicList = func() []Technique {
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
	st := Step{
		Technique:  "guess",
		Score:      12.0,
		Placements: []Move{{best, d}},
		Cells:      []int{best},
	}
	st.say("s.step.guess", cellArg("cell", best), digitsArg("digits", digits(b.cand[best]), true), digitArg("digit", d))
	return st, true
}

// classicNext returns the easiest step of the classic scale on b, or
// errCapped with the step if every step found scores above limit (in
// tenths), or ctx's error.
func (s *solver) classicNext(b *board, limit int) (Step, error) {
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
	return Step{}, errNoStep
}

// fromCatalogue makes a classic finder of a catalogue enumeration: its
// first step.
func fromCatalogue(e each) finder {
	return func(s *solver, b *board) (Step, bool) { return s.classicStep(s.taker.first(b, e)) }
}

// classicStep makes the classic scale's step of a catalogue's hint, if
// ok.
func (s *solver) classicStep(h hint, ok bool) (Step, bool) {
	if !ok {
		return Step{}, false
	}
	return h.step(s.quiet), true
}
