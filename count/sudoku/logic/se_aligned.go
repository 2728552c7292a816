package logic

import (
	"fmt"

	"github.com/nqcount/nqcount/count/sudoku"
)

// The SE scale's aligned exclusion: for two (6.2) or three cells (7.5), every
// combination of their candidates that would leave a cell seeing them all
// (an excluder, with at most as many candidates as the set has cells)
// without a candidate, or put one digit in two of them that see each other,
// is impossible; a candidate in no possible combination goes.

func seAlignedExclusion(n int) func(e *seEngine, b *board) (seHint, bool) {
	return func(e *seEngine, b *board) (seHint, bool) {
		// The base cells: two candidates or more, no naked single around,
		// and excluders.
		var cands []int
		var excl [81][]int
		for c := 0; c < 81; c++ {
			if popcount(b.cand[c]) < 2 {
				continue
			}
			single := false
			var ex []int
			for _, p := range peerList[c] {
				switch k := popcount(b.cand[p]); {
				case k == 1:
					single = true
				case k >= 2 && k <= n:
					ex = append(ex, p)
				}
			}
			if !single && len(ex) > 0 {
				cands = append(cands, c)
				excl[c] = ex
			}
		}
		if len(cands) < n {
			return seHint{}, false
		}
		isCand := func(c int) bool { return excl[c] != nil }
		for n2 := 1; n2 < len(cands); n2++ {
			for n1 := 0; n1 < n2; n1++ {
				c0, c1 := cands[n1], cands[n2]
				if n == 2 {
					if h, ok := alignedTry(b, []int{c0, c1}, excl[:]); ok {
						return h, true
					}
					continue
				}
				var twin []int
				seen := map[int]bool{c0: true, c1: true}
				for _, c := range append(append([]int(nil), excl[c0]...), excl[c1]...) {
					if !seen[c] && isCand(c) {
						seen[c] = true
						twin = append(twin, c)
					}
				}
				for _, c2 := range twin {
					if h, ok := alignedTry(b, []int{c0, c1, c2}, excl[:]); ok {
						return h, true
					}
				}
			}
		}
		return seHint{}, false
	}
}

// alignedTry tests the base cells given.
func alignedTry(b *board, cells []int, excl [][]int) (seHint, bool) {
	var common []int
	for _, x := range excl[cells[0]] {
		in := true
		for _, c := range cells[1:] {
			found := false
			for _, y := range excl[c] {
				found = found || y == x
			}
			in = in && found
		}
		if in {
			common = append(common, x)
		}
	}
	if len(common) < 2 {
		return seHint{}, false
	}
	n := len(cells)
	var allowed [3]uint16 // per base cell, the digits some possible combination gives it
	combo := make([]int, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			for a := 0; a < n; a++ {
				for z := a + 1; z < n; z++ {
					if combo[a] == combo[z] && sees(cells[a], cells[z]) {
						return
					}
				}
			}
			var used uint16
			for _, d := range combo {
				used |= 1 << (d - 1)
			}
			for _, x := range common {
				if b.cand[x]&^used == 0 {
					return
				}
			}
			for a, d := range combo {
				allowed[a] |= 1 << (d - 1)
			}
			return
		}
		for _, d := range digits(b.cand[cells[i]]) {
			combo[i] = d
			rec(i + 1)
		}
	}
	rec(0)
	var el []Move
	for a, c := range cells {
		for _, d := range digits(b.cand[c] &^ allowed[a]) {
			el = append(el, Move{c, d})
		}
	}
	if len(el) == 0 {
		return seHint{}, false
	}
	name, diff := "Aligned Pair Exclusion", 6.2
	if n == 3 {
		name, diff = "Aligned Triplet Exclusion", 7.5
	}
	return seHint{name: name, diff: diff, cell: -1, elims: el, desc: func(st *Step) {
		st.Text = fmt.Sprintf("%s: in every combination of candidates of %s that leaves each of %s a candidate, %s",
			lowerFirst(name), cellList(cells), cellList(common), cannot(el)+" never occurs")
		st.Cells = append(append([]int(nil), cells...), common...)
		for _, c := range cells {
			for _, d := range digits(b.cand[c]) {
				st.Marks = append(st.Marks, Mark{c, d, 0})
			}
		}
		_ = sudoku.CellName
	}}, true
}
