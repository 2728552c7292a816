package logic

import (
	"fmt"
	"math/bits"
	"slices"
)

// The SE scale's uniqueness techniques, which assume the puzzle has one
// solution: a loop of cells sharing two candidates, two cells in each house
// it visits (a unique rectangle, or a longer unique loop), would have two
// solutions if its cells held only those two digits, so the cells with
// more candidates ("extra" cells) must hold one of the others (types 1 to
// 4, 4.5-5.1); and a board where every cell but a few has two candidates
// and every digit two places in every house (a bivalue universal grave)
// would have two solutions, so the few cells hold their extra digits (BUG
// types 1 to 4, 5.6-6.2).

// ulHint is a unique loop step found.
type ulHint struct {
	kind   int // 1-4; 3 naked and 3 hidden are told apart by hidden
	hidden bool
	loop   []int
	v1, v2 int
	elims  []Move
	diff   float64
	detail Message
}

func ulBase(n int) float64 {
	r := 4.5
	if n >= 10 {
		r += 0.3
	}
	if n >= 8 {
		r += 0.2
	} else if n >= 6 {
		r += 0.1
	}
	return r
}

// seUniqueLoops finds the easiest unique loop step: by difficulty, then
// type.
func seUniqueLoops(e *seEngine, b *board) (hint, bool) {
	var hs []*ulHint
	for c := 0; c < 81; c++ {
		if popcount(b.cand[c]) != 2 {
			continue
		}
		m := b.cand[c]
		v1, v2 := onlyDigit(m&-m), onlyDigit(m&(m-1))
		var loops [][]int
		ulSearch(b, []int{c}, v1, v2, 2, 0, -1, &loops)
		for _, loop := range loops {
			if !validLoop(loop) {
				continue
			}
			var extra []int
			for _, x := range loop {
				if popcount(b.cand[x]) > 2 {
					extra = append(extra, x)
				}
			}
			add := func(h *ulHint) {
				if h == nil || len(h.elims) == 0 {
					return
				}
				for _, o := range hs {
					if o.kind == h.kind && o.hidden == h.hidden && sameCells(o.loop, h.loop) {
						return
					}
				}
				hs = append(hs, h)
			}
			pair := uint16(1)<<(v1-1) | 1<<(v2-1)
			switch {
			case len(extra) == 1:
				add(&ulHint{kind: 1, loop: loop, v1: v1, v2: v2, elims: []Move{{extra[0], v1}, {extra[0], v2}}, diff: ulBase(len(loop))})
			case len(extra) > 2:
				add(ulType2(b, loop, extra, v1, v2))
			case len(extra) == 2:
				r := (b.cand[extra[0]] | b.cand[extra[1]]) &^ pair
				if popcount(r) == 1 {
					add(ulType2(b, loop, extra, v1, v2))
				} else if popcount(r) >= 2 {
					for _, h := range ulType3(b, loop, extra[0], extra[1], v1, v2) {
						add(h)
					}
				}
				add(ulType4(b, loop, extra[0], extra[1], v1, v2))
			}
		}
	}
	if len(hs) == 0 {
		return hint{}, false
	}
	slices.SortStableFunc(hs, func(x, y *ulHint) int {
		switch {
		case x.diff < y.diff:
			return -1
		case x.diff > y.diff:
			return 1
		}
		return x.kind - y.kind
	})
	return hs[0].hint(b), true
}

func sameCells(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			return false
		}
	}
	return true
}

// ulSearch extends the loop from its last cell through a block, a row or a
// column (not the kind it came by) to cells with both digits, allowing two
// cells with more candidates (or any number sharing one extra digit).
func ulSearch(b *board, loop []int, v1, v2, allowed int, extra uint16, last int, out *[][]int) {
	c := loop[len(loop)-1]
	pair := uint16(1)<<(v1-1) | 1<<(v2-1)
	for t := 0; t < 3; t++ {
		if t == last {
			continue
		}
		for _, next := range houseCells[seRegionOf(t, c)] {
			if next == loop[0] && len(loop) >= 4 {
				*out = append(*out, slices.Clone(loop))
				continue
			}
			if slices.Contains(loop, next) {
				continue
			}
			m := b.cand[next]
			if m&pair != pair {
				continue
			}
			ex := (extra | m) &^ pair
			if popcount(m) == 2 || popcount(ex) == 1 || allowed > 0 {
				na := allowed
				if popcount(m) > 2 {
					na--
				}
				ulSearch(b, append(loop, next), v1, v2, na, ex, t, out)
			}
		}
	}
}

// validLoop reports whether every house the loop visits is visited by two
// of its cells, one at an even and one at an odd place.
func validLoop(loop []int) bool {
	var odd, even [27]bool
	for i, c := range loop {
		for t := 0; t < 3; t++ {
			h := seRegionOf(t, c)
			vis := &even
			if i%2 == 1 {
				vis = &odd
			}
			if vis[h] {
				return false
			}
			vis[h] = true
		}
	}
	return odd == even
}

func ulType2(b *board, loop, extra []int, v1, v2 int) *ulHint {
	pair := uint16(1)<<(v1-1) | 1<<(v2-1)
	d := onlyDigit((b.cand[extra[0]] &^ pair) & -(b.cand[extra[0]] &^ pair))
	common := cellset{^uint64(0), 1<<17 - 1}
	for _, x := range extra {
		common = common.and(peerSet[x])
	}
	var el []Move
	for _, c := range common.cells() {
		if !slices.Contains(extra, c) && b.has(c, d) {
			el = append(el, Move{c, d})
		}
	}
	return &ulHint{kind: 2, loop: loop, v1: v1, v2: v2, elims: el, diff: ulBase(len(loop)),
		detail: Message{"s.step.why-one-of", []Arg{cellsArg("cells", extra), digitArg("digit", d)}}}
}

// ulType3 finds the naked and hidden sets the two extra cells make with
// other cells of a house they share.
func ulType3(b *board, loop []int, c1, c2, v1, v2 int) []*ulHint {
	pair := uint16(1)<<(v1-1) | 1<<(v2-1)
	extra := (b.cand[c1] | b.cand[c2]) &^ pair
	var out []*ulHint
	var idx []int
	for degree := 2; degree <= 7; degree++ {
		for t := 0; t < 3; t++ {
			h := seRegionOf(t, c1)
			if h != seRegionOf(t, c2) {
				continue
			}
			empty := int(b.empty[h])
			i1, i2 := int(cellIndex[h][c1]), int(cellIndex[h][c2])
			if degree*2 <= empty && degree >= popcount(extra) {
				colex(degree, 9, func(mask uint32) bool {
					if mask>>i1&1 == 0 || mask>>i2&1 != 0 {
						return false
					}
					naked := extra & b.cand[c1] & b.cand[c2]
					ms := make([]uint16, 0, degree)
					var others []int
					for _, i := range maskBits(mask, idx) {
						if i == i1 {
							ms = append(ms, extra)
							continue
						}
						c := houseCells[h][i]
						ms = append(ms, b.cand[c])
						naked |= b.cand[c]
						others = append(others, c)
					}
					if popcount(naked) != degree {
						return false
					}
					common, ok := commonTuple(ms, degree)
					if !ok {
						return false
					}
					var el []Move
					for _, c := range houseCells[h] {
						if slices.Contains(others, c) || c == c1 || c == c2 {
							continue
						}
						for _, d := range digits(b.cand[c] & common) {
							el = append(el, Move{c, d})
						}
					}
					out = append(out, &ulHint{kind: 3, loop: loop, v1: v1, v2: v2, elims: el, diff: ulBase(len(loop)) + float64(degree-1)*0.1,
						detail: Message{"s.step.why-unique-naked", []Arg{cellArg("cell1", c1), cellArg("cell2", c2), digitsArg("digits", digits(common), false), cellsArg("cells", others), houseArg("house", h)}}})
					return false
				})
			}
			if degree*2 < empty {
				var rem []int
				for d := 1; d <= 9; d++ {
					if d != v1 && d != v2 && extra>>(d-1)&1 == 0 {
						rem = append(rem, d)
					}
				}
				if degree-2 <= len(rem) {
					if degree == 2 {
						out = ulHidden(b, out, loop, h, c1, c2, v1, v2, []int{v1, v2}, i1, i2)
					} else {
						colex(degree-2, len(rem), func(mask uint32) bool {
							var vals []int
							for _, i := range maskBits(mask, idx) {
								vals = append(vals, rem[i])
							}
							out = ulHidden(b, out, loop, h, c1, c2, v1, v2, append(vals, v1, v2), i1, i2)
							return false
						})
					}
				}
			}
		}
	}
	return out
}

func ulHidden(b *board, out []*ulHint, loop []int, h, c1, c2, v1, v2 int, vals []int, i1, i2 int) []*ulHint {
	var common, dm uint16
	for _, d := range vals {
		w := b.where(h, d) &^ (1 << i2)
		if w == 0 {
			return out
		}
		common |= w
		dm |= 1 << (d - 1)
	}
	if popcount(common) != len(vals) {
		return out
	}
	common &^= 1<<i1 | 1<<i2
	var el []Move
	var cells []int
	for m := common; m != 0; m &= m - 1 {
		c := houseCells[h][bits.TrailingZeros16(m)]
		cells = append(cells, c)
		for _, d := range digits(b.cand[c] &^ dm) {
			el = append(el, Move{c, d})
		}
	}
	return append(out, &ulHint{kind: 3, hidden: true, loop: loop, v1: v1, v2: v2, elims: el, diff: ulBase(len(loop)) + float64(len(cells)-1)*0.1,
		detail: Message{"s.step.why-unique-hidden", []Arg{cellArg("cell1", c1), cellArg("cell2", c2), digitsArg("digits", vals, false), cellsArg("cells", cells), houseArg("house", h)}}})
}

// ulType4 finds a house of the two extra cells where one loop digit has
// no other place: both cells lose the other.
func ulType4(b *board, loop []int, c1, c2, v1, v2 int) *ulHint {
	r1, r2 := -1, -1
	for t := 0; t < 3; t++ {
		h := seRegionOf(t, c1)
		if h != seRegionOf(t, c2) {
			continue
		}
		has1, has2 := false, false
		for _, c := range houseCells[h] {
			if c != c1 && c != c2 {
				has1 = has1 || b.has(c, v1)
				has2 = has2 || b.has(c, v2)
			}
		}
		if !has1 {
			r1 = h
		}
		if !has2 {
			r2 = h
		}
	}
	lock, rem, h := v1, v2, r1
	if r1 < 0 {
		if r2 < 0 {
			return nil
		}
		lock, rem, h = v2, v1, r2
	}
	return &ulHint{kind: 4, loop: loop, v1: v1, v2: v2, elims: []Move{{c1, rem}, {c2, rem}}, diff: ulBase(len(loop)),
		detail: Message{"s.step.why-unique-4", []Arg{digitArg("digit", lock), cellArg("cell1", c1), cellArg("cell2", c2), houseArg("house", h), digitArg("rem", rem)}}}
}

func (h *ulHint) hint(b *board) hint {
	name := fmt.Sprintf("Unique Rectangle type %d", h.kind)
	if len(h.loop) > 4 {
		name = fmt.Sprintf("Unique Loop %d type %d", len(h.loop), h.kind)
	}
	return hint{name: name, diff: h.diff, cell: -1, elims: h.elims, desc: func(st *Step) {
		why := h.detail
		if h.kind == 1 {
			why = Message{"s.step.why-unique-1", []Arg{cellArg("cell", h.elims[0].Cell)}}
		}
		st.say("s.step.unique", techArg(name, name), cellsArg("cells", h.loop), digitArg("d1", h.v1), digitArg("d2", h.v2), msgArg("why", why), cannotArg(h.elims))
		st.Cells = slices.Clone(h.loop)
		for _, c := range h.loop {
			for _, d := range []int{h.v1, h.v2} {
				if b.has(c, d) {
					st.Marks = append(st.Marks, Mark{c, d, 0})
				}
			}
		}
	}}
}

// seBUG finds a bivalue universal grave: removing each extra candidate of
// the cells with three or more leaves every cell two candidates and every
// digit two places in each house.
func seBUG(e *seEngine, b *board) (hint, bool) {
	temp := *b
	var bugCells []int
	var bugValues [81]uint16
	var allBug uint16
	var common cellset
	haveCommon := false
	var allExtra cellset
	haveAllExtra := false
	only, oneValue := 0, true
	addBug := func(c, d int) bool {
		if !slices.Contains(bugCells, c) {
			bugCells = append(bugCells, c)
		}
		bugValues[c] |= 1 << (d - 1)
		temp.cand[c] &^= 1 << (d - 1)
		if !haveCommon {
			common, haveCommon = peerSet[c], true
		} else {
			common = common.and(peerSet[c])
		}
		for _, x := range bugCells {
			common.remove(x)
		}
		return !(len(bugCells) > 1 && popcount(allBug) > 1 && common.empty())
	}
	for _, t := range [3]int{0, 1, 2} {
		for i := 0; i < 9; i++ {
			h := seRegion(t, i)
			for d := 1; d <= 9; d++ {
				w := b.where(h, d)
				if n := popcount(w); n == 0 || n == 2 {
					continue
				}
				var nb []int
				for m := w; m != 0; m &= m - 1 {
					c := houseCells[h][bits.TrailingZeros16(m)]
					if popcount(b.cand[c]) >= 3 {
						nb = append(nb, c)
					}
				}
				if !haveAllExtra {
					haveAllExtra = true
					allExtra = cellset{}
					for _, c := range nb {
						allExtra.add(c)
					}
					only = d
				} else if oneValue {
					if only == d {
						for _, c := range nb {
							allExtra.add(c)
						}
					} else {
						oneValue = false
					}
				}
				if len(nb) == 1 {
					allBug |= 1 << (d - 1)
					if !addBug(nb[0], d) {
						return hint{}, false
					}
				}
				if len(nb) == 0 {
					return hint{}, false
				}
			}
		}
	}
	if oneValue && haveAllExtra && allExtra.count() > len(bugCells) {
		for _, c := range bugCells {
			allExtra.remove(c)
		}
		for _, c := range allExtra.cells() {
			bugValues[c] = 0
			if !addBug(c, only) {
				return hint{}, false
			}
		}
	}
	for c := 0; c < 81; c++ {
		if temp.val[c] == 0 && popcount(temp.cand[c]) != 2 {
			return hint{}, false
		}
	}
	for h := 0; h < 27; h++ {
		for d := 1; d <= 9; d++ {
			if n := popcount(temp.where(h, d)); n != 0 && n != 2 {
				return hint{}, false
			}
		}
	}
	mk := func(name string, diff float64, el []Move, why Message) (hint, bool) {
		return hint{name: name, diff: diff, cell: -1, elims: el, desc: func(st *Step) {
			st.say("s.step.bug", techArg(name, name), cellsArg("cells", bugCells), msgArg("why", why), cannotArg(el))
			st.Cells = slices.Clone(bugCells)
			for _, c := range bugCells {
				for _, d := range digits(bugValues[c]) {
					st.Marks = append(st.Marks, Mark{c, d, 1})
				}
			}
		}}, true
	}
	switch {
	case len(bugCells) == 1:
		c := bugCells[0]
		var el []Move
		for _, d := range digits(b.cand[c] &^ allBug) {
			el = append(el, Move{c, d})
		}
		if len(el) == 0 {
			return hint{}, false
		}
		return mk("BUG type 1", 5.6, el, Message{"s.step.why-bug-1", []Arg{cellArg("cell", c), digitsArg("digits", digits(allBug), true)}})
	case popcount(allBug) == 1:
		d := onlyDigit(allBug)
		if haveCommon && !common.empty() {
			var el []Move
			for _, c := range common.cells() {
				if b.has(c, d) {
					el = append(el, Move{c, d})
				}
			}
			if len(el) > 0 {
				return mk("BUG type 2", 5.7, el, Message{"s.step.why-one-of", []Arg{cellsArg("cells", bugCells), digitArg("digit", d)}})
			}
		}
		if len(bugCells) == 2 {
			if h, ok := bug4(b, bugCells, bugValues, allBug, mk); ok {
				return h, true
			}
		}
	case haveCommon && !common.empty():
		if len(bugCells) == 2 {
			if h, ok := bug4(b, bugCells, bugValues, allBug, mk); ok {
				return h, true
			}
		}
		return bug3(b, bugCells, allBug, common, mk)
	}
	return hint{}, false
}

func bug4(b *board, cells []int, values [81]uint16, all uint16, mk func(string, float64, []Move, Message) (hint, bool)) (hint, bool) {
	c1, c2 := cells[0], cells[1]
	common := b.cand[c1] & b.cand[c2] &^ all
	if popcount(common) != 1 {
		return hint{}, false
	}
	d := onlyDigit(common)
	for t := 0; t < 3; t++ {
		h := seRegionOf(t, c1)
		if h != seRegionOf(t, c2) {
			continue
		}
		var el []Move
		for _, c := range []int{c1, c2} {
			for _, x := range digits(b.cand[c] &^ values[c] &^ common) {
				el = append(el, Move{c, x})
			}
		}
		if len(el) == 0 {
			return hint{}, false
		}
		return mk("BUG type 4", 5.7, el, Message{"s.step.why-bug-4", []Arg{cellArg("cell1", c1), cellArg("cell2", c2), digitArg("digit", d), houseArg("house", h)}})
	}
	return hint{}, false
}

func bug3(b *board, cells []int, all uint16, common cellset, mk func(string, float64, []Move, Message) (hint, bool)) (hint, bool) {
	var idx []int
	for degree := 2; degree <= 6; degree++ {
		for t := 0; t < 3; t++ {
			h := seRegionOf(t, cells[0])
			shared := true
			for _, c := range cells[1:] {
				shared = shared && seRegionOf(t, c) == h
			}
			if !shared {
				continue
			}
			var rc []int
			for _, c := range common.cells() {
				if houseSet[h].has(c) {
					rc = append(rc, c)
				}
			}
			if len(rc) < degree {
				continue
			}
			var res hint
			found := colex(degree-1, len(rc), func(mask uint32) bool {
				ms := make([]uint16, 0, degree)
				var naked []int
				var other uint16
				for _, i := range maskBits(mask, idx) {
					naked = append(naked, rc[i])
					ms = append(ms, b.cand[rc[i]])
					other |= b.cand[rc[i]]
				}
				ms = append(ms, all)
				if popcount(other) != degree {
					return false
				}
				set, ok := commonTuple(ms, degree)
				if !ok {
					return false
				}
				var el []Move
				for _, c := range rc {
					if slices.Contains(naked, c) || slices.Contains(cells, c) {
						continue
					}
					for _, d := range digits(b.cand[c] & set) {
						el = append(el, Move{c, d})
					}
				}
				if len(el) == 0 {
					return false
				}
				var ok2 bool
				res, ok2 = mk("BUG type 3", 5.7+float64(popcount(set)-1)*0.1, el,
					Message{"s.step.why-bug-3", []Arg{digitsArg("digits", digits(set), false), cellsArg("cells", naked), houseArg("house", h)}})
				return ok2
			})
			if found {
				return res, true
			}
		}
	}
	return hint{}, false
}
