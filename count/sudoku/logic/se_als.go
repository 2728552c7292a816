package logic

import (
	"fmt"
)

// The SE scale's ALS wings (WXYZ- to TUVWXYZ-Wing): n cells that all see
// one another holding n+1 digits between them (an almost locked set), and
// a cell outside with two of those digits that sees every cell of the set
// holding one of them (x, restricted): if that cell is not x it is z, and
// if it is x the set is locked without x and holds z; so z goes from the
// cells seeing both the outer cell and the set's z cells. When both
// digits are restricted (doubly linked) every digit of the set is locked
// too.

var alsNames = [...]string{3: "WXYZ-Wing", 4: "VWXYZ-Wing", 5: "UVWXYZ-Wing", 6: "TUVWXYZ-Wing"}

// alsHint is an ALS wing found.
type alsHint struct {
	cells  []int
	yz     int
	x, z   int // the restricted digit and the one removed (z set to 0 for a double link)
	double bool
	elims  []Move
	big    int // the set's largest cell, in candidates
	size   int // the set's candidates, cell by cell
	diff   float64
	suffix string
}

func alsDiff(n, big int) float64 {
	switch n {
	case 3:
		return 5.5 + float64((4-3)-abs(3-big))*0.1
	case 4:
		return 6.2 + float64((5-3)-abs(3-big))*0.1
	case 5:
		return 6.6
	}
	return 7.5
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// seALSWing finds the easiest ALS wing of n cells: by difficulty, then
// most removals, then the greatest name suffix.
func seALSWing(n int) func(e *seEngine, b *board) (hint, bool) {
	return func(e *seEngine, b *board) (hint, bool) {
		var best *alsHint
		cells := make([]int, 0, n)
		var rec func(area cellset, union uint16, big, size int)
		rec = func(area cellset, union uint16, big, size int) {
			if len(cells) == n {
				if popcount(union) == n+1 {
					alsTails(b, cells, union, big, size, func(h *alsHint) {
						if best == nil || h.diff < best.diff || (h.diff == best.diff && (len(h.elims) > len(best.elims) ||
							(len(h.elims) == len(best.elims) && h.suffix > best.suffix))) {
							best = h
						}
					})
				}
				return
			}
			for _, c := range area.cells() {
				m := b.cand[c]
				k := popcount(m)
				if k < 2 || popcount(union|m) > n+1 {
					continue
				}
				cells = append(cells, c)
				rec(area.and(forwardPeers[c]), union|m, max(big, k), size+k)
				cells = cells[:len(cells)-1]
			}
		}
		for c := 0; c < 81; c++ {
			m := b.cand[c]
			if k := popcount(m); k >= 2 && k <= n+1 {
				cells = append(cells[:0], c)
				rec(forwardPeers[c], m, k, k)
			}
		}
		if best == nil {
			return hint{}, false
		}
		return best.hint(b, n), true
	}
}

// forwardPeers[c] are c's peers of higher index.
var forwardPeers [81]cellset

func init() {
	for c := 0; c < 81; c++ {
		for _, p := range peerList[c] {
			if p > c {
				forwardPeers[c].add(p)
			}
		}
	}
}

// alsTails finds the outer cells of the almost locked set cells.
func alsTails(b *board, cells []int, union uint16, big, size int, found func(*alsHint)) {
	var set, around cellset
	for _, c := range cells {
		set.add(c)
		around = around.or(peerSet[c])
	}
	around = around.andNot(set)
	// restricted reports whether the outer cell sees every cell of the set
	// holding digit d; holders returns those cells.
	holders := func(d int) []int {
		var out []int
		for _, c := range cells {
			if b.has(c, d) {
				out = append(out, c)
			}
		}
		return out
	}
	restricted := func(yz, d int) bool {
		for _, c := range holders(d) {
			if !sees(yz, c) {
				return false
			}
		}
		return true
	}
	for _, yz := range around.cells() {
		m := b.cand[yz]
		if popcount(m) != 2 || m&union != m {
			continue
		}
		x := onlyDigit(m & -m)
		z := onlyDigit(m &^ (m & -m))
		double := restricted(yz, z)
		switch {
		case restricted(yz, x) && !double:
		case restricted(yz, x):
		case double:
			x, z, double = z, x, false
		default:
			continue
		}
		h := &alsHint{cells: append([]int(nil), cells...), yz: yz, x: x, z: z, double: double, big: big, size: size}
		var seen [81]uint16
		add := func(v cellset, d int) bool {
			any := false
			for _, c := range v.cells() {
				if c != yz && !set.has(c) && b.has(c, d) {
					if seen[c]>>(d-1)&1 == 0 {
						seen[c] |= 1 << (d - 1)
						h.elims = append(h.elims, Move{c, d})
					}
					any = true
				}
			}
			return any
		}
		seeAll := func(v cellset, cs []int) cellset {
			for _, c := range cs {
				v = v.and(peerSet[c])
			}
			return v
		}
		all := cellset{^uint64(0), 1<<17 - 1}
		weak, strongX := false, false
		if h.double {
			for _, w := range digits(union &^ m) {
				if add(seeAll(all, holders(w)), w) {
					weak = true
				}
			}
			strongX = add(seeAll(peerSet[yz], holders(x)), x)
		}
		strongZ := add(seeAll(peerSet[yz], holders(z)), z)
		if h.double && !weak && (!strongZ || !strongX) {
			h.double = false
		}
		if len(h.elims) == 0 {
			continue
		}
		link := 1
		if h.double {
			link = 2
		}
		h.suffix = fmt.Sprintf("%d%d%d", link, big, size)
		h.diff = alsDiff(len(cells), big)
		found(h)
	}
}

func (h *alsHint) hint(b *board, n int) hint {
	name := alsNames[n] + " " + h.suffix
	return hint{name: name, diff: h.diff, cell: -1, elims: h.elims, desc: func(st *Step) {
		var digs uint16
		held := Arg{Name: "held", Kind: "cellcands"}
		for _, c := range h.cells {
			digs |= b.cand[c]
			for _, d := range digits(b.cand[c]) {
				held.Moves = append(held.Moves, Move{c, d})
			}
		}
		how := Message{"s.step.why-als", []Arg{cellArg("cell", h.yz), digitArg("x", h.x), digitArg("z", h.z)}}
		if h.double {
			how.Key = "s.step.why-als-double"
		}
		st.say("s.step.als", techArg(name, name), held, digitsArg("digits", digits(digs), false), msgArg("how", how), cannotArg(h.elims))
		st.Cells = append(append([]int(nil), h.cells...), h.yz)
		for _, c := range st.Cells {
			for _, d := range digits(b.cand[c]) {
				col := 0
				if d == h.z || (h.double && d == h.x) {
					col = 1
				}
				st.Marks = append(st.Marks, Mark{c, d, col})
			}
		}
	}}
}
