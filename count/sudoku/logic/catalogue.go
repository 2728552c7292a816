package logic

import (
	"math/bits"
	"strings"
)

// The catalogue: the techniques both scales share (singles,
// intersections, subsets, fish, wings), each found by one search. A scale
// is a table over them (se.go, classic.go): the names its steps carry,
// their weights and order of preference, and the order in which a search
// visits houses, digits and combinations, which decides which of several
// steps on a board is taken. The classic scale keeps nqcount's first
// orders, the SE scale serate's.

// hint is one step a technique found, on either scale.
type hint struct {
	rule  int     // the technique (SE scale: its index in seRules)
	name  string  // the step's name as its scale prints it ("Skyscraper", "Unique Rectangle type 2", "x-wing", ...)
	diff  float64 // its difficulty
	cell  int     // the cell it places a digit in, or -1
	digit int
	elims []Move // the candidates it removes, in the order the technique lists them
	// desc fills a step's sentence and pattern (for explanations and
	// hints; ratings never call it).
	desc func(st *Step)
	// chain is the chain behind a chaining step (chains only).
	chain *chainHint
	// parents lists, for a step a dynamic chain's propagation applies, the
	// removals it relies on: the candidates src (the board where the
	// propagation started) had and cur (its board now) lacks, as "off"
	// potentials.
	parents func(src, cur *board, out []int) []int
}

// step converts the hint into a Step (with its sentence unless quiet).
func (h *hint) step(quiet bool) Step {
	st := Step{Technique: h.name, Score: seScore(h.diff), Text: h.name}
	if h.cell >= 0 {
		st.Placements = []Move{{h.cell, h.digit}}
	}
	st.Eliminations = append([]Move(nil), h.elims...)
	if quiet || h.desc == nil {
		return st // a rating's step, which stays off the heap
	}
	d := new(Step)
	*d = st
	d.Text = ""
	h.desc(d)
	if d.Text == "" {
		d.Text = h.name
	}
	return *d
}

// each enumerates a technique's steps on a board, in its scale's order,
// until yield returns true; it reports whether yield did.
type each func(b *board, yield func(hint) bool) bool

// locking, nakedSet, hiddenSet, fish and wing are the catalogue's
// enumerations in a style (see lockingEach, nakedSets, hiddenSets,
// fishEach and wings).
func (sy *style) locking(passes []lockPass) each {
	return func(b *board, y func(hint) bool) bool { return lockingEach(b, sy, passes, y) }
}

func (sy *style) nakedSet(n int) each {
	return func(b *board, y func(hint) bool) bool { return nakedSets(b, sy, n, y) }
}

func (sy *style) hiddenSet(n int, direct bool) each {
	return func(b *board, y func(hint) bool) bool { return hiddenSets(b, sy, n, direct, y) }
}

func (sy *style) fish(n int) each {
	return func(b *board, y func(hint) bool) bool { return fishEach(b, sy, n, y) }
}

func (sy *style) wing(xyz bool) each {
	return func(b *board, y func(hint) bool) bool { return wings(b, sy, xyz, y) }
}

// style is a scale's part in the catalogue's searches.
type style struct {
	// singleHouses is the order houses are searched in for singles.
	singleHouses [27]int
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
	// naked, hidden and fishName name the sets and fish by size (2-4).
	naked, hidden, fishName [5]string
	// fishDigitOuter searches fish digit by digit (then orientation, then
	// lines), else orientation, lines, then digits; fishRowsFirst takes
	// rows as the base before columns; fishFree, if set, skips a digit
	// with fewer than 2n lines where it is not placed.
	fishDigitOuter, fishRowsFirst, fishFree bool
	// xyWing and xyzWing name the wings, wingText writes their sentence
	// (pivot p and pincers a, c with their candidates; z the digit
	// removed).
	xyWing, xyzWing string
	wingText        func(st *Step, name string, p, a, c int, pc, ca, cc uint16, z int, el []Move)
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
// all of digit d's candidates in base, d) of the candidates cand (a
// board's, or a forcing chain's propagation's), in the order of the
// passes, until f returns true.
func lockings(cand *[81]uint16, passes []lockPass, f func(base, cover, d int) bool) bool {
	at := func(p *lockPass, base, d int) bool {
		w := where(cand, base, d)
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
func lockingEach(b *board, sy *style, passes []lockPass, yield func(hint) bool) bool {
	return lockings(&b.cand, passes, func(r1, r2, d int) bool {
		el := lockElims(b, r1, r2, d)
		if len(el) == 0 {
			return false
		}
		name, diff := sy.claiming, 2.8
		if r2 < 18 {
			name, diff = sy.pointing, 2.6
		}
		return yield(hint{name: name, diff: diff, cell: -1, elims: el, desc: func(st *Step) {
			cells := digitCellsIn(b, r1, d)
			st.say("s.step.locked", techArg(name, lowerFirst(name)), houseArg("house", r1), digitArg("digit", d), houseArg("house2", r2), cellsArg("cells", cells), cannotArg(el))
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

// combos calls f with every k-subset of the bits of pool, as a mask, until
// f returns true, and reports whether it did: lexicographically by the
// members (lowest first) when lex, else by increasing mask, the order of
// serate's combination generator.
func combos(pool uint16, k int, lex bool, f func(mask uint16) bool) bool {
	var pos [16]uint8
	n := 0
	for m := pool; m != 0; m &= m - 1 {
		pos[n] = uint8(bits.TrailingZeros16(m))
		n++
	}
	if k <= 0 || k > n {
		return false
	}
	if lex {
		var rec func(start, depth int, m uint16) bool
		rec = func(start, depth int, m uint16) bool {
			if depth == k {
				return f(m)
			}
			for i := start; i <= n-(k-depth); i++ {
				if rec(i+1, depth+1, m|1<<pos[i]) {
					return true
				}
			}
			return false
		}
		return rec(0, 0, 0)
	}
	// Gosper's hack on the members' indices: depositing them in pool's
	// bits keeps the order of the masks.
	v := uint32(1)<<k - 1
	for top := uint32(1) << n; v < top; {
		var m uint16
		for x := v; x != 0; x &= x - 1 {
			m |= 1 << pos[bits.TrailingZeros32(x)]
		}
		if f(m) {
			return true
		}
		c := v & -v
		r := v + c
		v = (((r ^ v) >> 2) / c) | r
	}
	return false
}

// nakedSets yields every naked set of n cells (pair 3.0, triple 3.6, quad
// 5.0: n cells of a house whose candidates are n digits between them, which
// the house's other cells lose), in the style's order, until yield returns
// true.
func nakedSets(b *board, sy *style, n int, yield func(hint) bool) bool {
	for _, hs := range sy.subsetHouses {
		if int(b.empty[hs]) < sy.minNaked(n) {
			continue
		}
		var pool uint16
		for j, c := range houseCells[hs] {
			if k := popcount(b.cand[c]); k >= 2 && k <= n {
				pool |= 1 << j
			}
		}
		found := combos(pool, n, sy.lex, func(mask uint16) bool {
			var u uint16
			for m := mask; m != 0; m &= m - 1 {
				u |= b.cand[houseCells[hs][bits.TrailingZeros16(m)]]
			}
			if popcount(u) != n {
				return false
			}
			var el []Move
			for j, c := range houseCells[hs] {
				if mask>>j&1 != 0 {
					continue
				}
				for _, d := range digits(b.cand[c] & u) {
					el = append(el, Move{c, d})
				}
			}
			if len(el) == 0 {
				return false
			}
			cells := make([]int, 0, n)
			for m := mask; m != 0; m &= m - 1 {
				cells = append(cells, houseCells[hs][bits.TrailingZeros16(m)])
			}
			name := sy.naked[n]
			diff := [...]float64{2: 3.0, 3: 3.6, 4: 5.0}[n]
			return yield(hint{name: name, diff: diff, cell: -1, elims: el, desc: func(st *Step) {
				st.say("s.step.naked-subset", techArg(name, lowerFirst(name)), houseArg("house", hs), cellsArg("cells", cells), digitsArg("digits", digits(u), false), cannotArg(el))
				st.Cells = cells
				st.Houses = []House{houseOfIndex(hs)}
				for _, x := range cells {
					for _, y := range digits(b.cand[x]) {
						st.Marks = append(st.Marks, Mark{x, y, 0})
					}
				}
			}, parents: func(src, cur *board, out []int) []int {
				// The cells' other digits were removed.
				for _, x := range cells {
					for _, d := range digits(src.cand[x] &^ u) {
						out = append(out, potID(x, d, false))
					}
				}
				return out
			}})
		})
		if found {
			return true
		}
	}
	return false
}

// hiddenSets yields every hidden set of n digits (pair 3.4, triple 4.0,
// quad 5.4: n digits with n places between them in a house, whose cells
// lose their other candidates), in the style's order, until yield returns
// true. direct (the SE scale's Direct Hidden Pair 2.0 and Triplet 2.5)
// yields instead the sets whose cells, once reduced to the set's digits,
// leave a hidden single in the house: the single is placed.
func hiddenSets(b *board, sy *style, n int, direct bool, yield func(hint) bool) bool {
	least := sy.minHidden(n)
	if direct {
		least = n + 1
	}
	var where [10]uint16
	for _, hs := range sy.subsetHouses {
		if int(b.empty[hs]) < least {
			continue
		}
		var pool uint16
		for d := 1; d <= 9; d++ {
			where[d] = b.where(hs, d)
			if k := popcount(where[d]); k >= 2 && k <= n {
				pool |= 1 << (d - 1)
			}
		}
		found := combos(pool, n, sy.lex, func(dm uint16) bool {
			var common uint16
			for m := dm; m != 0; m &= m - 1 {
				common |= where[bits.TrailingZeros16(m)+1]
			}
			if popcount(common) != n {
				return false
			}
			var cells []int
			var el []Move
			for m := common; m != 0; m &= m - 1 {
				c := houseCells[hs][bits.TrailingZeros16(m)]
				cells = append(cells, c)
				for _, d := range digits(b.cand[c] &^ dm) {
					el = append(el, Move{c, d})
				}
			}
			set := digits(dm)
			if direct {
				for d := 1; d <= 9; d++ {
					if dm>>(d-1)&1 != 0 {
						continue
					}
					w := where[d]
					if popcount(w) <= 1 || popcount(w&^common) != 1 {
						continue
					}
					c := houseCells[hs][bits.TrailingZeros16(w&^common)]
					name := "Direct " + sy.hidden[n]
					diff := 2.0
					if n == 3 {
						diff = 2.5
					}
					return yield(hint{name: name, diff: diff, cell: c, digit: d, desc: func(st *Step) {
						st.say("s.step.direct-hidden", cellArg("cell", c), digitArg("digit", d), techArg(name, lowerFirst(name)), houseArg("house", hs), digitsArg("digits", set, false), cellsArg("cells", cells))
						st.Cells = cells
						st.Houses = []House{houseOfIndex(hs)}
						for _, x := range cells {
							for _, y := range digits(b.cand[x] & dm) {
								st.Marks = append(st.Marks, Mark{x, y, 0})
							}
						}
					}})
				}
				return false
			}
			if len(el) == 0 {
				return false
			}
			name := sy.hidden[n]
			diff := [...]float64{2: 3.4, 3: 4.0, 4: 5.4}[n]
			return yield(hint{name: name, diff: diff, cell: -1, elims: el, desc: func(st *Step) {
				st.say("s.step.hidden-subset", techArg(name, lowerFirst(name)), houseArg("house", hs), digitsArg("digits", set, false), cellsArg("cells", cells), cannotArg(el))
				st.Cells = cells
				st.Houses = []House{houseOfIndex(hs)}
				for _, x := range cells {
					for _, y := range digits(b.cand[x] & dm) {
						st.Marks = append(st.Marks, Mark{x, y, 0})
					}
				}
			}, parents: func(src, cur *board, out []int) []int {
				// The set's digits were removed from the house's other cells.
				var pos uint16
				for _, d := range set {
					pos |= cur.where(hs, d)
				}
				for i, x := range houseCells[hs] {
					if pos>>i&1 == 0 {
						for _, d := range set {
							if src.has(x, d) {
								out = append(out, potID(x, d, false))
							}
						}
					}
				}
				return out
			}})
		})
		if found {
			return true
		}
	}
	return false
}

// fishEach yields every fish of n lines on one digit (X-Wing 3.2,
// Swordfish 3.8, Jellyfish 5.2: n rows whose candidates for the digit lie
// in n columns between them, or n columns in n rows, the rest of which
// lose the digit), in the style's order, until yield returns true.
func fishEach(b *board, sy *style, n int, yield func(hint) bool) bool {
	// The orientations as region types (seType): base, cover.
	orients := [2][2]int{{2, 1}, {1, 2}}
	if sy.fishRowsFirst {
		orients[0], orients[1] = orients[1], orients[0]
	}
	// where[o][d][l]: digit d's positions in line l of orientation o's
	// base.
	var where [2][10][9]uint16
	for o, tp := range orients {
		for l := 0; l < 9; l++ {
			for j, c := range houseCells[seRegion(tp[0], l)] {
				for m := b.cand[c]; m != 0; m &= m - 1 {
					where[o][bits.TrailingZeros16(m)+1][l] |= 1 << j
				}
			}
		}
	}
	// try yields the fish of digit d on the lines of mask, if they make
	// one, and reports whether yield returned true.
	try := func(o int, lines uint16, d int) bool {
		tp := orients[o]
		var cover uint16
		for m := lines; m != 0; m &= m - 1 {
			w := where[o][d][bits.TrailingZeros16(m)]
			if popcount(w) < 2 {
				return false
			}
			cover |= w
		}
		if popcount(cover) != n {
			return false
		}
		var el []Move
		for m := cover; m != 0; m &= m - 1 {
			cv := seRegion(tp[1], bits.TrailingZeros16(m))
			for j, c := range houseCells[cv] {
				if lines>>j&1 == 0 && b.has(c, d) {
					el = append(el, Move{c, d})
				}
			}
		}
		if len(el) == 0 {
			return false
		}
		base := make([]int, 0, n)
		for m := lines; m != 0; m &= m - 1 {
			base = append(base, seRegion(tp[0], bits.TrailingZeros16(m)))
		}
		var covers []int
		for m := cover; m != 0; m &= m - 1 {
			covers = append(covers, seRegion(tp[1], bits.TrailingZeros16(m)))
		}
		name := sy.fishName[n]
		return yield(hint{name: name, diff: [...]float64{2: 3.2, 3: 3.8, 4: 5.2}[n], cell: -1, elims: el, desc: func(st *Step) {
			st.say("s.step.fish", techArg(name, lowerFirst(name)), digitArg("digit", d), housesArg("base", base), housesArg("cover", covers), cannotArg(el))
			for _, hb := range base {
				st.Houses = append(st.Houses, houseOfIndex(hb))
				for _, c := range digitCellsIn(b, hb, d) {
					st.Cells = append(st.Cells, c)
					st.Marks = append(st.Marks, Mark{c, d, 0})
				}
			}
			for _, cv := range covers {
				st.Houses = append(st.Houses, houseOfIndex(cv))
			}
		}, parents: func(src, cur *board, out []int) []int {
			return lockParents(src, cur, base, covers, d, out)
		}})
	}
	if sy.fishDigitOuter {
		for d := 1; d <= 9; d++ {
			for o := range orients {
				var pool uint16
				for l := 0; l < 9; l++ {
					if k := popcount(where[o][d][l]); k >= 2 && k <= n {
						pool |= 1 << l
					}
				}
				if combos(pool, n, sy.lex, func(lines uint16) bool { return try(o, lines, d) }) {
					return true
				}
			}
		}
		return false
	}
	var free [10]int // lines without the digit placed
	for d := 1; d <= 9; d++ {
		free[d] = 9
	}
	if sy.fishFree {
		for c := 0; c < 81; c++ {
			free[b.val[c]]--
		}
	}
	for o := range orients {
		if combos(0x1FF, n, sy.lex, func(lines uint16) bool {
			for d := 1; d <= 9; d++ {
				if free[d] >= 2*n && try(o, lines, d) {
					return true
				}
			}
			return false
		}) {
			return true
		}
	}
	return false
}

// wings yields every XY-Wing (4.2; xyz false) or XYZ-Wing (4.4; xyz
// true) until yield returns true.
// XY-Wing: a pivot with candidates x, y sees two pincers with x, z and y,
// z: whichever the pivot is, one pincer is z, so any cell that sees both
// pincers cannot be z. XYZ-Wing: the pivot has x, y, z itself, so only the
// cells that see all three lose z. Pivots are taken in cell order, pairs
// of pincers in the order of the pivot's peers: both scales' order.
func wings(b *board, sy *style, xyz bool, yield func(hint) bool) bool {
	want, name, diff := 2, sy.xyWing, 4.2
	if xyz {
		want, name, diff = 3, sy.xyzWing, 4.4
	}
	var pins [20]int
	for p := 0; p < 81; p++ {
		pc := b.cand[p]
		if popcount(pc) != want {
			continue
		}
		n := 0
		for _, q := range peerList[p] {
			if popcount(b.cand[q]) == 2 {
				pins[n] = q
				n++
			}
		}
		for i, a := range pins[:n] {
			for _, c := range pins[i+1 : n] {
				ca, cc := b.cand[a], b.cand[c]
				z := ca & cc
				if ca == cc || popcount(z) != 1 {
					continue
				}
				if xyz {
					// a and c share z, and with it cover the pivot.
					if pc&z == 0 || (ca|cc) != pc {
						continue
					}
				} else if z&pc != 0 || (ca^cc) != pc {
					// Each pincer shares a different pivot digit.
					continue
				}
				zd := onlyDigit(z)
				seen := peerSet[a].and(peerSet[c])
				if xyz {
					seen = seen.and(peerSet[p])
				}
				seen.remove(p)
				var el []Move
				for _, x := range seen.cells() {
					if b.has(x, zd) {
						el = append(el, Move{x, zd})
					}
				}
				if len(el) == 0 {
					continue
				}
				if yield(hint{name: name, diff: diff, cell: -1, elims: el, desc: func(st *Step) {
					sy.wingText(st, name, p, a, c, pc, ca, cc, zd, el)
					st.Cells = []int{p, a, c}
					for _, x := range []int{p, a, c} {
						for _, d := range digits(b.cand[x]) {
							col := 0
							if d == zd {
								col = 1
							}
							st.Marks = append(st.Marks, Mark{x, d, col})
						}
					}
				}}) {
					return true
				}
			}
		}
	}
	return false
}

// seWingText is the SE scale's sentence for a wing.
func seWingText(st *Step, name string, p, a, c int, pc, ca, cc uint16, z int, el []Move) {
	st.say("s.step.wing", techArg(name, lowerFirst(name)), cellArg("pivot", p), digitsArg("pivotdigits", digits(pc), true),
		cellArg("wing1", a), digitsArg("digits1", digits(ca), true), cellArg("wing2", c), digitsArg("digits2", digits(cc), true),
		digitArg("digit", z), cannotArg(el))
}

// classicWingText is the classic scale's sentence for a wing.
func classicWingText(st *Step, name string, p, a, c int, pc, ca, cc uint16, z int, el []Move) {
	if popcount(pc) == 3 {
		st.say("s.step.xyz-wing-classic", techArg(name, "xyz-wing"), cellArg("pivot", p), digitsArg("pivotdigits", digits(pc), true),
			cellArg("wing1", a), digitsArg("digits1", digits(ca), true), cellArg("wing2", c), digitsArg("digits2", digits(cc), true),
			digitArg("digit", z), cannotArg(el))
		return
	}
	zm := uint16(1) << (z - 1)
	x, y := onlyDigit(ca&^zm), onlyDigit(cc&^zm)
	st.say("s.step.xy-wing-classic", techArg(name, "xy-wing"), cellArg("pivot", p), digitArg("x", x), digitArg("y", y),
		cellArg("wing1", a), cellArg("wing2", c), digitArg("digit", z), cannotArg(el))
}

// singleIn finds, in the first of the houses (in the order given) with
// one (alone) or more empty cells, a digit with one place left: a full
// house (1.0) when alone, else a hidden single (1.2 in a box, 1.5 in a row
// or column). The step is named name.
func singleIn(b *board, houses *[27]int, alone bool, name string) (hint, bool) {
	for _, h := range houses {
		if e := b.empty[h]; e == 0 || (e == 1) != alone {
			continue
		}
		var once, twice uint16
		for _, c := range houseCells[h] {
			x := b.cand[c]
			twice |= once & x
			once |= x
		}
		single := once &^ twice
		if single == 0 {
			continue
		}
		d := onlyDigit(single)
		c := houseCells[h][bits.TrailingZeros16(b.where(h, d))]
		diff := 1.5
		switch {
		case alone:
			diff = 1.0
		case h >= 18:
			diff = 1.2
		}
		return hint{name: name, diff: diff, cell: c, digit: d, desc: func(st *Step) {
			if alone {
				st.say("s.step.full-house", cellArg("cell", c), digitArg("digit", d), houseArg("house", h))
			} else {
				st.say("s.step.hidden-single", cellArg("cell", c), digitArg("digit", d), houseArg("house", h))
			}
			// The pattern: the house's other (empty) cells.
			for _, x := range houseCells[h] {
				if x != c && (alone || b.val[x] == 0) {
					st.Cells = append(st.Cells, x)
				}
			}
			st.Houses = []House{houseOfIndex(h)}
		}}, true
	}
	return hint{}, false
}

// nakedSingle finds a cell with one candidate left (2.3), the first in
// cell order.
func nakedSingle(b *board, name string) (hint, bool) {
	for c := 0; c < 81; c++ {
		if popcount(b.cand[c]) != 1 {
			continue
		}
		d := onlyDigit(b.cand[c])
		return hint{name: name, diff: 2.3, cell: c, digit: d, desc: func(st *Step) {
			st.say("s.step.naked-single", cellArg("cell", c), digitArg("digit", d))
			st.Cells = []int{c}
		}}, true
	}
	return hint{}, false
}

// taker takes the first step of an enumeration (a solver keeps one: its
// yield is made once, not at every search).
type taker struct {
	h     hint
	ok    bool
	yield func(hint) bool
}

// first returns the first step e yields on b.
func (t *taker) first(b *board, e each) (hint, bool) {
	if t.yield == nil {
		t.yield = func(x hint) bool { t.h, t.ok = x, true; return true }
	}
	t.ok = false
	e(b, t.yield)
	h, ok := t.h, t.ok
	t.h = hint{}
	return h, ok
}

// lockParents returns the removals an intersection or a fish relies on:
// digit d's candidates, in the base houses outside the covers, that src
// had and cur has lost.
func lockParents(src, cur *board, base, covers []int, d int, out []int) []int {
	for _, h := range base {
		for _, c := range houseCells[h] {
			if !src.has(c, d) || cur.has(c, d) {
				continue
			}
			in := false
			for _, cv := range covers {
				in = in || houseSet[cv].has(c)
			}
			if !in {
				out = append(out, potID(c, d, false))
			}
		}
	}
	return out
}

// lockElims returns digit d's candidates in house r2 outside house r1.
func lockElims(b *board, r1, r2, d int) []Move {
	var el []Move
	for _, c := range houseCells[r2] {
		if !houseSet[r1].has(c) && b.has(c, d) {
			el = append(el, Move{c, d})
		}
	}
	return el
}

// digitCellsIn returns the cells of house h where d is a candidate.
func digitCellsIn(b *board, h, d int) []int {
	var out []int
	for _, c := range houseCells[h] {
		if b.has(c, d) {
			out = append(out, c)
		}
	}
	return out
}

// lowerFirst writes a technique's name for the middle or start of a
// sentence, as the classic scale's names read: "Hidden Pair" as "hidden
// pair", "X-Wing" as "x-wing"; a word with an acronym ("XY-Wing", "BUG")
// stays as it is.
func lowerFirst(s string) string {
	words := strings.Split(s, " ")
	for i, w := range words {
		acronym := false
		for _, p := range strings.Split(w, "-") {
			if len(p) >= 2 && strings.ToUpper(p) == p && strings.ToLower(p) != p {
				acronym = true
			}
		}
		if !acronym {
			words[i] = strings.ToLower(w)
		}
	}
	return strings.Join(words, " ")
}
