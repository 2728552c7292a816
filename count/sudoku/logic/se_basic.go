package logic

import (
	"math/bits"
)

// The SE scale's singles, intersections, subsets, fish and wings: the
// catalogue's (catalogue.go) in serate's orders, and its direct
// techniques (a pointing, claiming or hidden set that leaves a single).

// seHiddenSingle finds a full house (1.0: the last empty cell of a house)
// or a hidden single (1.2 in a block, 1.5 in a row or column); full houses
// first.
func seHiddenSingle(e *seEngine, b *board) (hint, bool) {
	if h, ok := singleIn(b, &seStyle.singleHouses, true, "Hidden Single"); ok {
		return h, true
	}
	return singleIn(b, &seStyle.singleHouses, false, "Hidden Single")
}

// seNakedSingle finds a cell with one candidate left (2.3).
func seNakedSingle(e *seEngine, b *board) (hint, bool) { return nakedSingle(b, "Naked Single") }

// seLockPasses are the intersections serate searches, in order: a
// block's candidates in one column, in one row; a column's in one block, a
// row's; digit by digit.
var seLockPasses = []lockPass{
	{bases: houseRange(18, 27), covers: []int{2}, digitOuter: true},
	{bases: houseRange(18, 27), covers: []int{1}, digitOuter: true},
	{bases: houseRange(9, 18), covers: []int{0}, digitOuter: true},
	{bases: houseRange(0, 9), covers: []int{0}, digitOuter: true},
}

// crosses reports whether houses a and b share cells.
func crosses(a, b int) bool { return inCover[a][b] != 0 }

// whereIn returns the masks of digit d's positions in house h that lie in
// house o and outside it.
func whereIn(b *board, h, d, o int) (in, out uint16) {
	w := b.where(h, d)
	return w & inCover[h][o], w &^ inCover[h][o]
}

// seDirectLocking finds a pointing (1.7) or claiming (1.9) that leaves a
// hidden single in another house of the base's type crossing the cover:
// the single is placed, the intersection's removals are left for later.
func seDirectLocking(e *seEngine, b *board) (hint, bool) {
	var h hint
	found := lockings(&b.cand, seLockPasses, func(r1, r2, d int) bool {
		t1 := seType(r1)
		for i3 := 0; i3 < 9; i3++ {
			r3 := seRegion(t1, i3)
			if r3 == r1 || !crosses(r3, r2) {
				continue
			}
			if popcount(b.where(r3, d)) <= 1 {
				continue
			}
			_, out := whereIn(b, r3, d, r2)
			if popcount(out) != 1 {
				continue
			}
			c := houseCells[r3][bits.TrailingZeros16(out)]
			name, diff := "Direct Claiming", 1.9
			if t1 == 0 {
				name, diff = "Direct Pointing", 1.7
			}
			h = hint{name: name, diff: diff, cell: c, digit: d, desc: func(st *Step) {
				cells := digitCellsIn(b, r1, d)
				st.say("s.step.direct-locked", cellArg("cell", c), digitArg("digit", d), techArg(name, lowerFirst(name)), houseArg("house", r1),
					houseArg("house2", r2), cellsArg("cells", cells), houseArg("house3", r3))
				st.Cells = cells
				st.Houses = []House{houseOfIndex(r1), houseOfIndex(r2), houseOfIndex(r3)}
				for _, x := range cells {
					st.Marks = append(st.Marks, Mark{x, d, 0})
				}
			}}
			return true
		}
		return false
	})
	return h, found
}

// seFirst makes a technique of the SE scale of a catalogue enumeration:
// its first step.
func seFirst(e each) func(*seEngine, *board) (hint, bool) {
	return func(en *seEngine, b *board) (hint, bool) { return en.s.taker.first(b, e) }
}

// commonTuple reports whether each of ms has at least two bits and their
// union has exactly n, and returns the union.
func commonTuple(ms []uint16, n int) (uint16, bool) {
	var u uint16
	for _, m := range ms {
		if popcount(m) <= 1 {
			return 0, false
		}
		u |= m
	}
	return u, popcount(u) == n
}
