package logic

import (
	"fmt"
	"math/bits"
)

// The catalogue: the techniques both scales share (singles,
// intersections, subsets, fish, wings), each found by one search. A scale
// is a table over them (se.go, classic.go): the names its steps carry,
// their weights and order of preference, and the order in which a search
// visits houses, digits and combinations, which decides which of several
// steps on a board is taken. The classic scale keeps nqcount's first
// orders, the SE scale serate's.

// style is a scale's part in the catalogue's searches.
type style struct {
	// lock lists the passes of the intersections' search, in order.
	lock []lockPass
	// pointing and claiming name the intersections.
	pointing, claiming string
	// subsetHouses is the order houses are searched in for subsets.
	subsetHouses [27]int
	// lex orders the combinations of subsets and fish lexicographically
	// (by their members, lowest first), else by serate's increasing bit
	// mask.
	lex bool
	// minNaked, minHidden(n) give the fewest empty cells a house needs
	// for a naked or a hidden set of n cells to be searched there.
	minNaked, minHidden func(n int) int
	// naked, hidden and fish name the sets and fish by size (2-4).
	naked, hidden, fish [5]string
	// fishDigitOuter searches fish digit by digit (then orientation, then
	// lines), else orientation, lines, then digits; fishRowsFirst takes
	// rows as the base before columns; fishFree, if set, skips a digit
	// with fewer than 2n lines where it is not placed.
	fishDigitOuter, fishRowsFirst, fishFree bool
	// xyWing and xyzWing name the wings, wingText writes their sentence.
	xyWing, xyzWing string
	wingText        func(p, a, c int, pc, ca, cc uint16, z int, el []Move) string
}

// lockPass is a pass of the intersections' search: the base houses, the
// region types (seType) of the covers tried for each, and whether digits
// are the outer loop (else the bases are).
type lockPass struct {
	bases      []int
	covers     []int
	digitOuter bool
}

// houseRange returns houses lo to hi-1.
func houseRange(lo, hi int) []int {
	out := make([]int, 0, hi-lo)
	for h := lo; h < hi; h++ {
		out = append(out, h)
	}
	return out
}

// inCover[h][o] holds the positions of house h's cells that lie in house
// o (set up with the houses, in board.go).
var inCover [27][27]uint16

// lockings calls f for every intersection (base, the cover house holding
// all of digit d's candidates in base, d), in the order of the passes,
// until f returns true.
func lockings(b *board, passes []lockPass, f func(base, cover, d int) bool) bool {
	at := func(p *lockPass, base, d int) bool {
		w := b.where(base, d)
		if popcount(w) < 2 {
			return false
		}
		first := houseCells[base][bits.TrailingZeros16(w)]
		for _, t := range p.covers {
			cover := seRegionOf(t, first)
			if cover != base && w&^inCover[base][cover] == 0 && f(base, cover, d) {
				return true
			}
		}
		return false
	}
	for i := range passes {
		p := &passes[i]
		if p.digitOuter {
			for d := 1; d <= 9; d++ {
				for _, base := range p.bases {
					if at(p, base, d) {
						return true
					}
				}
			}
			continue
		}
		for _, base := range p.bases {
			for d := 1; d <= 9; d++ {
				if at(p, base, d) {
					return true
				}
			}
		}
	}
	return false
}

// lockingEach yields every pointing (2.6: a box's candidates for a digit
// all in one line: the rest of the line loses the digit) and claiming
// (2.8: a line's in one box: the rest of the box loses it) the passes
// find, in their order, until yield returns true.
func lockingEach(b *board, sy *style, passes []lockPass, yield func(seHint) bool) bool {
	return lockings(b, passes, func(r1, r2, d int) bool {
		el := lockElims(b, r1, r2, d)
		if len(el) == 0 {
			return false
		}
		name, diff := sy.claiming, 2.8
		if r2 < 18 {
			name, diff = sy.pointing, 2.6
		}
		return yield(seHint{name: name, diff: diff, cell: -1, elims: el, desc: func(st *Step) {
			cells := digitCellsIn(b, r1, d)
			st.Text = fmt.Sprintf("%s: in %s, %d can only go in %s (%s), so %s", lowerFirst(name), houseName(r1), d, houseName(r2), cellList(cells), cannot(el))
			st.Cells = cells
			st.Houses = []House{houseOfIndex(r1), houseOfIndex(r2)}
			for _, x := range cells {
				st.Marks = append(st.Marks, Mark{x, d, 0})
			}
		}, parents: func(src, cur *board, out []int) []int {
			return lockParents(src, cur, []int{r1}, []int{r2}, d, out)
		}})
	})
}

// fromCatalogue makes a classic finder of a catalogue search.
func fromCatalogue(find func(b *board, yield func(seHint) bool) bool) finder {
	return func(s *solver, b *board) (Step, bool) {
		h, ok := first(b, find)
		if !ok {
			return Step{}, false
		}
		return h.step(s.quiet), true
	}
}
