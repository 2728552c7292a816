package logic

import (
	"errors"
	"math/bits"
	"sync"
	"time"
)

// The SE scale: the techniques, weights and order of preference of Sudoku
// Explainer's command-line rater (serate, as SukakuExplainer ships it, with
// its default technique set). A puzzle's rating is three numbers: ER, the
// hardest step of the solve; EP, the hardest step up to the first placed
// digit; ED, the first step. At every point the solver takes the first
// step of the first technique, in the order below, that finds one; a
// technique with several steps on the board takes the easiest (each
// technique orders its own steps, chains by length). Difficulties are
// computed as serate computes them, in binary floating point, and printed
// rounded to a tenth the way it rounds them.

// seRule is a technique of the SE scale, in the order of preference.
type seRule struct {
	name   string // the technique, as Techniques lists it
	lo, hi int    // its lowest and highest difficulty, in tenths
	// scores lists the difficulties it can take when they are not every
	// tenth from lo to hi.
	scores []int
	find   func(e *seEngine, b *board) (hint, bool)
}

// seList is the SE scale's technique list, in serate's order of
// preference, and minFrom[i] the lowest difficulty of the techniques from
// i on: a solve capped at a limit below it can stop there.
type seList struct {
	rules   []seRule
	minFrom []int
}

// seRules returns the SE scale's technique list (seTable's).
func seRules() []seRule { return seTable().rules }

// seTable is made on first use: at start-up it cost every command that
// links the package, sudoku solve among them.
var seTable = sync.OnceValue(func() *seList {
	rules := []seRule{
		{name: "Hidden Single", lo: 10, hi: 15, scores: []int{10, 12, 15}, find: seHiddenSingle},
		{name: "Direct Pointing", lo: 17, hi: 19, scores: []int{17, 19}, find: seDirectLocking},
		{name: "Direct Hidden Pair", lo: 20, hi: 20, find: seFirst(seStyle.hiddenSet(2, true))},
		{name: "Naked Single", lo: 23, hi: 23, find: seNakedSingle},
		{name: "Direct Hidden Triplet", lo: 25, hi: 25, find: seFirst(seStyle.hiddenSet(3, true))},
		{name: "Pointing & Claiming", lo: 26, hi: 28, scores: []int{26, 28}, find: seFirst(seStyle.locking(seLockPasses))},
		{name: "Naked Pair", lo: 30, hi: 30, find: seFirst(seStyle.nakedSet(2))},
		{name: "X-Wing", lo: 32, hi: 32, find: seFirst(seStyle.fish(2))},
		{name: "Hidden Pair", lo: 34, hi: 34, find: seFirst(seStyle.hiddenSet(2, false))},
		{name: "Naked Triplet", lo: 36, hi: 36, find: seFirst(seStyle.nakedSet(3))},
		{name: "Swordfish", lo: 38, hi: 38, find: seFirst(seStyle.fish(3))},
		{name: "Hidden Triplet", lo: 40, hi: 40, find: seFirst(seStyle.hiddenSet(3, false))},
		{name: "Turbot Fish", lo: 40, hi: 43, find: seStrongLinks(2)},
		{name: "XY-Wing", lo: 42, hi: 42, find: seFirst(seStyle.wing(false))},
		{name: "XYZ-Wing", lo: 44, hi: 44, find: seFirst(seStyle.wing(true))},
		{name: "Unique Rectangle / Loop", lo: 45, hi: 56, find: seUniqueLoops},
		{name: "Naked Quad", lo: 50, hi: 50, find: seFirst(seStyle.nakedSet(4))},
		{name: "Jellyfish", lo: 52, hi: 52, find: seFirst(seStyle.fish(4))},
		{name: "Hidden Quad", lo: 54, hi: 54, find: seFirst(seStyle.hiddenSet(4, false))},
		{name: "3 Strong Links", lo: 54, hi: 57, find: seStrongLinks(3)},
		{name: "WXYZ-Wing", lo: 55, hi: 56, find: seALSWing(3)},
		{name: "Bivalue Universal Grave", lo: 56, hi: 62, find: seBUG},
		{name: "4 Strong Links", lo: 58, hi: 61, find: seStrongLinks(4)},
		{name: "VWXYZ-Wing", lo: 62, hi: 64, find: seALSWing(4)},
		{name: "Aligned Pair Exclusion", lo: 62, hi: 62, find: seAlignedExclusion(2)},
		{name: "UVWXYZ-Wing", lo: 66, hi: 66, find: seALSWing(5)},
		{name: "Forcing Chains & Cycles", lo: 65, hi: maxChainTenths, find: seChainProducer(chainCycles)},
		{name: "TUVWXYZ-Wing", lo: 75, hi: 75, find: seALSWing(6)},
		{name: "Aligned Triplet Exclusion", lo: 75, hi: 75, find: seAlignedExclusion(3)},
		{name: "Nishio Forcing Chains", lo: 75, hi: maxChainTenths, find: seChainProducer(chainNishio)},
		{name: "Multiple Forcing Chains", lo: 80, hi: maxChainTenths, find: seChainProducer(chainMultiple)},
		{name: "Dynamic Forcing Chains", lo: 85, hi: maxChainTenths, find: seChainProducer(chainDynamic)},
		{name: "Dynamic Forcing Chains (+)", lo: 90, hi: maxChainTenths, find: seChainProducer(chainDynamicPlus)},
		{name: "Nested Forcing Chains (+ Forcing Chains)", lo: 95, hi: maxChainTenths, find: seChainProducer(chainNested2)},
		{name: "Nested Forcing Chains (+ Multiple Forcing Chains)", lo: 100, hi: maxChainTenths, find: seChainProducer(chainNested3)},
		{name: "Nested Forcing Chains (+ Dynamic Forcing Chains)", lo: 105, hi: maxChainTenths, find: seChainProducer(chainNested4)},
		{name: "Nested Forcing Chains (+ Dynamic Forcing Chains (+))", lo: 105, hi: maxChainTenths, find: seChainProducer(chainNested41)},
		{name: "Nested Forcing Chains (+ Dynamic Forcing Chains (+ Forcing Chains))", lo: 105, hi: maxChainTenths, find: seChainProducer(chainNested42)},
		{name: "Nested Forcing Chains (+ Dynamic Forcing Chains (+ Multiple Forcing Chains))", lo: 105, hi: maxChainTenths, find: seChainProducer(chainNested43)},
	}
	minFrom := make([]int, len(rules)+1)
	minFrom[len(rules)] = 1 << 30
	for i := len(rules) - 1; i >= 0; i-- {
		minFrom[i] = min(rules[i].lo, minFrom[i+1])
	}
	return &seList{rules: rules, minFrom: minFrom}
})

// seStyle is the SE scale's part in the catalogue's searches: serate's
// orders and names.
var seStyle = style{
	// Blocks, then columns, then rows.
	singleHouses: [27]int{18, 19, 20, 21, 22, 23, 24, 25, 26, 9, 10, 11, 12, 13, 14, 15, 16, 17, 0, 1, 2, 3, 4, 5, 6, 7, 8},
	pointing:     "Pointing", claiming: "Claiming",
	subsetHouses: [27]int{18, 19, 20, 21, 22, 23, 24, 25, 26, 9, 10, 11, 12, 13, 14, 15, 16, 17, 0, 1, 2, 3, 4, 5, 6, 7, 8},
	// A house with fewer empty cells has a smaller set of the other kind.
	minNaked:  func(n int) int { return 2 * n },
	minHidden: func(n int) int { return 2*n + 1 },
	naked:     [5]string{2: "Naked Pair", 3: "Naked Triplet", 4: "Naked Quad"},
	hidden:    [5]string{2: "Hidden Pair", 3: "Hidden Triplet", 4: "Hidden Quad"},
	// Columns as the base first, the lines before the digits.
	fishName: [5]string{2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"},
	fishFree: true,
	xyWing:   "XY-Wing", xyzWing: "XYZ-Wing", wingText: seWingText,
}

// maxChainTenths bounds the chains' difficulties for Attainable and the
// technique list: a chain's length adds a tenth for every 50% more
// candidates, without a bound, but no puzzle known goes past 12.
const maxChainTenths = 120

// seEngine is the SE-scale solver's state along one solve: the chaining
// techniques keep their last search, as serate does, to answer again on
// an unchanged board.
type seEngine struct {
	s      *solver
	chains map[chainMode]*chainer
}

// sePool keeps engines (their chainers' arenas and scratch sets) between
// solves.
var sePool = sync.Pool{New: func() any { return &seEngine{chains: map[chainMode]*chainer{}} }}

func newSEEngine(s *solver) *seEngine {
	e := sePool.Get().(*seEngine)
	e.s = s
	return e
}

// release returns the engine to the pool.
func (e *seEngine) release() {
	e.s = nil
	sePool.Put(e)
}

// next returns the step the SE scale takes on b, or errCapped with the
// step (or the technique the search stopped at) when it scores above
// limit (in tenths).
func (e *seEngine) next(b *board, limit int) (hint, error) {
	t := seTable()
	rules := t.rules
	for i := range rules {
		if t.minFrom[i] > limit {
			return hint{rule: i, name: rules[i].name, diff: score(rules[i].lo), cell: -1}, errCapped
		}
		var t0 time.Time
		if seProfile != nil {
			t0 = time.Now()
		}
		h, ok := rules[i].find(e, b)
		if seProfile != nil {
			seProfile[i] += time.Since(t0)
		}
		if e.s.cancelled() {
			return hint{}, e.s.ctx.Err()
		}
		if !ok {
			continue
		}
		h.rule = i
		if seTenths(h.diff) > limit {
			return h, errCapped
		}
		return h, nil
	}
	return hint{}, errNoStep
}

// errNoStep is a solve stuck with no step: it cannot happen on a puzzle
// with one solution (the nested chains always find one), short of a bug.
var errNoStep = errors.New("logic: no step found on an unsolved grid")

// seProfile, when set (by a test), accumulates the time spent in each
// technique.
var seProfile []time.Duration

// seTenths rounds a difficulty to tenths as serate prints it.
func seTenths(d float64) int { return int((d + 0.05) * 10) }

// seScore rounds a difficulty to the tenth serate prints.
func seScore(d float64) float64 { return float64(seTenths(d)) / 10 }

// seRegion returns the house of SE's region type t (0 block, 1 row, 2
// column) and index i.
func seRegion(t, i int) int {
	switch t {
	case 0:
		return 18 + i
	case 1:
		return i
	}
	return 9 + i
}

// seRegionOf returns the house of type t (0 block, 1 row, 2 column) holding
// cell c.
func seRegionOf(t, c int) int {
	switch t {
	case 0:
		return houseOf[c][2]
	case 1:
		return houseOf[c][0]
	}
	return houseOf[c][1]
}

// seType returns SE's region type of house h: 0 block, 1 row, 2 column.
func seType(h int) int {
	switch {
	case h >= 18:
		return 0
	case h < 9:
		return 1
	}
	return 2
}

// colex calls f with every k-subset of 0..n-1 (as a bit mask) in
// increasing order of the mask, the order serate's combination generator
// uses, until f returns true; it reports whether f did.
func colex(k, n int, f func(mask uint32) bool) bool {
	if k > n || k <= 0 {
		return false
	}
	v := uint32(1)<<k - 1
	top := uint32(1) << n
	for v < top {
		if f(v) {
			return true
		}
		// Gosper's hack: the next larger mask with k bits.
		c := v & -v
		r := v + c
		v = (((r ^ v) >> 2) / c) | r
	}
	return false
}

// maskBits lists the set bits of m, increasing.
func maskBits(m uint32, out []int) []int {
	out = out[:0]
	for ; m != 0; m &= m - 1 {
		out = append(out, bits.TrailingZeros32(m))
	}
	return out
}

// hashOrder reorders moves listed in insertion order into the order in
// which serate's hash map of removable candidates (keyed by cell, the
// cell's index its hash) iterates them: by cell modulo the table size,
// then in insertion order; a cell's digits stay together, increasing.
// Nested chains take a hint's removals in that order, and their order
// shapes the chains.
func hashOrder(ms []Move) []Move {
	var cells []int
	var seen [81]bool
	for _, m := range ms {
		if !seen[m.Cell] {
			seen[m.Cell] = true
			cells = append(cells, m.Cell)
		}
	}
	size := 16
	for len(cells)*4 > size*3 {
		size *= 2
	}
	// A stable sort of the cells by bucket.
	ordered := make([]int, 0, len(cells))
	for bucket := 0; bucket < size; bucket++ {
		for _, c := range cells {
			if c&(size-1) == bucket {
				ordered = append(ordered, c)
			}
		}
	}
	var digitsOf [81]uint16
	for _, m := range ms {
		digitsOf[m.Cell] |= 1 << (m.Digit - 1)
	}
	out := make([]Move, 0, len(ms))
	for _, c := range ordered {
		for m := digitsOf[c]; m != 0; m &= m - 1 {
			out = append(out, Move{c, bits.TrailingZeros16(m) + 1})
		}
	}
	return out
}
