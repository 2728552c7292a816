package logic

import (
	"math/bits"
	"slices"
)

// The SE scale's aligned exclusion: for two (6.2) or three cells (7.5),
// every combination of their candidates that would leave a cell seeing
// them all (an excluder, with at most as many candidates as the set has
// cells) without a candidate, or put one digit in two of them that see
// each other, is impossible; a candidate in no possible combination goes.

func seAlignedExclusion(n int) func(e *seEngine, b *board) (hint, bool) {
	return func(e *seEngine, b *board) (hint, bool) {
		// The base cells: two candidates or more, no naked single among
		// their peers, and excluders.
		var cands []int
		var excl [81]cellset
		var isCand cellset
		for c := 0; c < 81; c++ {
			if popcount(b.cand[c]) < 2 {
				continue
			}
			single := false
			var ex cellset
			for _, p := range peerList[c] {
				switch k := popcount(b.cand[p]); {
				case k == 1:
					single = true
				case k >= 2 && k <= n:
					ex.add(p)
				}
			}
			if !single && !ex.empty() {
				cands = append(cands, c)
				excl[c] = ex
				isCand.add(c)
			}
		}
		if len(cands) < n {
			return hint{}, false
		}
		var twin []int
		for n2 := 1; n2 < len(cands); n2++ {
			for n1 := 0; n1 < n2; n1++ {
				c0, c1 := cands[n1], cands[n2]
				common := excl[c0].and(excl[c1])
				if n == 2 {
					if common.count() < 2 {
						continue
					}
					if h, ok := alignedTry(b, []int{c0, c1}, common); ok {
						return h, true
					}
					continue
				}
				// The third cell: an excluder of either that is a base cell
				// too, in serate's order (the first cell's excluders, then the
				// second's).
				twin = twin[:0]
				var seen cellset
				seen.add(c0)
				seen.add(c1)
				for _, ex := range [2]cellset{excl[c0], excl[c1]} {
					for _, c := range ex.and(isCand).andNot(seen).cells() {
						seen.add(c)
						twin = append(twin, c)
					}
				}
				for _, c2 := range twin {
					cm := common.and(excl[c2])
					if cm.count() < 2 {
						continue
					}
					if h, ok := alignedTry(b, []int{c0, c1, c2}, cm); ok {
						return h, true
					}
				}
			}
		}
		return hint{}, false
	}
}

// alignedTry tests the base cells given with their common excluders.
func alignedTry(b *board, cells []int, common cellset) (hint, bool) {
	n := len(cells)
	var exs [21]uint16
	ne := 0
	for _, x := range common.cells() {
		exs[ne] = b.cand[x]
		ne++
	}
	var pairSees [3][3]bool
	for a := 0; a < n; a++ {
		for z := a + 1; z < n; z++ {
			pairSees[a][z] = sees(cells[a], cells[z])
		}
	}
	possible := func(ds [3]int) bool {
		for a := 0; a < n; a++ {
			for z := a + 1; z < n; z++ {
				if ds[a] == ds[z] && pairSees[a][z] {
					return false
				}
			}
		}
		var used uint16
		for a := 0; a < n; a++ {
			used |= 1 << (ds[a] - 1)
		}
		for _, m := range exs[:ne] {
			if m&^used == 0 {
				return false
			}
		}
		return true
	}
	var allowed [3]uint16 // per base cell, the digits some possible combination gives it
	var ds [3]int
	m2 := uint16(1) // a third cell's candidates: one pass when there are two cells
	if n == 3 {
		m2 = b.cand[cells[2]]
	}
	for m0 := b.cand[cells[0]]; m0 != 0; m0 &= m0 - 1 {
		ds[0] = bits.TrailingZeros16(m0) + 1
		for m1 := b.cand[cells[1]]; m1 != 0; m1 &= m1 - 1 {
			ds[1] = bits.TrailingZeros16(m1) + 1
			for m := m2; m != 0; m &= m - 1 {
				ds[2] = bits.TrailingZeros16(m) + 1
				if possible(ds) {
					for a := 0; a < n; a++ {
						allowed[a] |= 1 << (ds[a] - 1)
					}
				}
			}
		}
	}
	var el []Move
	for a, c := range cells {
		for _, d := range digits(b.cand[c] &^ allowed[a]) {
			el = append(el, Move{c, d})
		}
	}
	if len(el) == 0 {
		return hint{}, false
	}
	name, diff := "Aligned Pair Exclusion", 6.2
	if n == 3 {
		name, diff = "Aligned Triplet Exclusion", 7.5
	}
	cs := append([]int(nil), cells...)
	excluders := common.cells()
	return hint{name: name, diff: diff, cell: -1, elims: el, desc: func(st *Step) {
		st.say("s.step.aligned", techArg(name, lowerFirst(name)), cellsArg("cells", cs), cellsArg("excluders", excluders), Arg{Name: "moves", Kind: "moves", Moves: slices.Clone(el)})
		st.Cells = append(append([]int(nil), cs...), excluders...)
		for _, c := range cs {
			for _, d := range digits(b.cand[c]) {
				st.Marks = append(st.Marks, Mark{c, d, 0})
			}
		}
	}}, true
}
