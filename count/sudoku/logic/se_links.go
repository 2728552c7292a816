package logic

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"sync"
)

// The SE scale's strong-link fish: n strong links on one digit (a house
// where the digit has two places, or two groups of places: a block's
// row and column through one cell, a line's two block segments), joined
// end to end by weak links (two ends in one house). One of the chain's
// two free ends holds the digit, so every cell seeing both loses it; when
// the free ends share a house too the chain is a loop (an X-Loop) and
// every weak link's house loses it outside the chain. Two links are the
// Skyscraper, 2-String Kite and Turbot Fish (4.0-4.1), three 5.4-5.5,
// four 5.8-5.9; a grouped link adds 0.3. serate names a pattern by the
// kinds of its houses in chain order (0 block, 1 and 2 the two kinds of
// line), after the number of grouped links: "Skyscraper 011".

// slEnd is one end of a strong link: a cell, with up to two more cells
// for a grouped end (-1 when absent), and the column, row and block that
// hold all of them (-1 when none does).
type slEnd struct {
	cell, s1, s2    int
	col, row, block int
	set             cellset
}

// mkEnd makes a link end.
func mkEnd(cell, s1, s2 int) slEnd {
	e := slEnd{cell: cell, s1: s1, s2: s2}
	e.set.add(cell)
	if s1 >= 0 {
		e.set.add(s1)
		if s2 >= 0 {
			e.set.add(s2)
		}
	} else {
		e.s2 = -1
	}
	e.col, e.row, e.block = houseOf[cell][1], houseOf[cell][0], houseOf[cell][2]
	for _, h := range []*int{&e.col, &e.row, &e.block} {
		if e.set.andNot(houseSet[*h]) != (cellset{}) {
			*h = -1
		}
	}
	return e
}

func (e slEnd) cells() []int {
	out := []int{e.cell}
	if e.s1 >= 0 {
		out = append(out, e.s1)
		if e.s2 >= 0 {
			out = append(out, e.s2)
		}
	}
	return out
}

// slLink is a strong link in a house.
type slLink struct {
	id      int // its number in the search (for adjacency)
	house   int
	ends    [2]slEnd
	grouped bool
	cands   cellset // the digit's places in the house
}

// seStrongLinks finds the easiest strong-link fish of n links: by
// difficulty, then most removals, then name.
func seStrongLinks(n int) func(e *seEngine, b *board) (hint, bool) {
	sets := linkSets(n)
	return func(e *seEngine, b *board) (hint, bool) {
		var best *slHint
		var digits [10]*slSearch
		for _, set := range sets {
			for d := 1; d <= 9; d++ {
				s := digits[d]
				if s == nil {
					s = newSLSearch(b, d, n)
					digits[d] = s
				}
				s.set = set
				s.build(0, 0, func(h *slHint) {
					if best == nil || h.less(best) {
						best = h
					}
				})
			}
		}
		if best == nil {
			return hint{}, false
		}
		return best.hint(b), true
	}
}

// linkSets lists the kinds of houses (0 block, 1 row, 2 column) of n links,
// non-decreasing, in serate's order.
func linkSets(n int) [][]int {
	var out [][]int
	var rec func(set []int)
	rec = func(set []int) {
		if len(set) == n {
			out = append(out, slices.Clone(set))
			return
		}
		lo := 0
		if len(set) > 0 {
			lo = set[len(set)-1]
		}
		for t := lo; t < 3; t++ {
			rec(append(set, t))
		}
	}
	rec(nil)
	mask := func(set []int) int {
		m := 0
		for i, t := range set {
			m |= 1 << (t*n + i)
		}
		return m
	}
	slices.SortFunc(out, func(x, y []int) int { return mask(x) - mask(y) })
	return out
}

type slSearch struct {
	b       *board
	digit   cellset // the digit's candidates
	d, n    int
	set     []int
	links   []slLink
	used    cellset
	byHouse [27][]slLink
	adj     []uint64 // by link id: the links some end of which shares a house with one of its ends
}

// newSLSearch finds digit d's strong links and which link to which.
func newSLSearch(b *board, d, n int) *slSearch {
	s := &slSearch{b: b, d: d, digit: b.digitCells(d), n: n, links: make([]slLink, n)}
	var all []*slLink
	for h := 0; h < 27; h++ {
		s.byHouse[h] = s.regionLinks(h)
		for i := range s.byHouse[h] {
			s.byHouse[h][i].id = len(all)
			all = append(all, &s.byHouse[h][i])
		}
	}
	s.adj = make([]uint64, len(all))
	for i, x := range all {
		for j, y := range all {
			if i == j {
				continue
			}
			for _, ex := range &x.ends {
				for _, ey := range &y.ends {
					if shareHouse(&ex, &ey) >= 0 {
						s.adj[i] |= 1 << j
					}
				}
			}
		}
	}
	return s
}

// slHint is a strong-link fish found.
type slHint struct {
	d      int
	links  []slLink // in chain order
	dirs   []int    // the end each link is entered by
	shares []int    // the weak links' houses
	ring   int      // the loop's closing house, or -1
	elims  []Move
	total  int // removals as serate counts them (a loop counts a candidate once per house)
	diff   float64
	suffix string
}

func (h *slHint) less(o *slHint) bool {
	if h.diff != o.diff {
		return h.diff < o.diff
	}
	if h.total != o.total {
		return h.total > o.total
	}
	return h.suffix < o.suffix
}

// regionLinks returns the strong links digit d makes in house h, in
// serate's order.
func (s *slSearch) regionLinks(h int) []slLink {
	b, d := s.b, s.d
	w := b.where(h, d)
	n := popcount(w)
	if n < 2 || n > 6 {
		return nil
	}
	var cands cellset
	for m := w; m != 0; m &= m - 1 {
		cands.add(houseCells[h][bits.TrailingZeros16(m)])
	}
	cell := func(i int) int { return houseCells[h][i] }
	block := h >= 18
	if n == 2 {
		a, c := cell(bits.TrailingZeros16(w)), cell(bits.TrailingZeros16(w&(w-1)))
		if block && (a/9 == c/9 || a%9 == c%9) {
			return nil // a line's link, found there
		}
		return []slLink{{house: h, ends: [2]slEnd{mkEnd(a, -1, -1), mkEnd(c, -1, -1)}, cands: cands}}
	}
	// A grouped link: the first configuration whose empty area holds no
	// candidate decides.
	var b1, b2, heart uint16
	e := -1
	confs := 3
	if block {
		confs = 15
	}
	for k := 0; k < confs; k++ {
		if block && k > 8 && n < 4 {
			continue
		}
		empty, c1, c2, hm := slConf(block, k)
		if w&empty != 0 {
			continue
		}
		b1, b2, heart, e = w&c1, w&c2, w&hm, k
		break
	}
	if e < 0 || b1 == 0 || b2 == 0 {
		return nil
	}
	list := func(m uint16) []int {
		var out []int
		for ; m != 0; m &= m - 1 {
			out = append(out, cell(bits.TrailingZeros16(m)))
		}
		return out
	}
	at := func(xs []int, i int) int {
		if i < len(xs) {
			return xs[i]
		}
		return -1
	}
	l1, l2 := list(b1), list(b2)
	link := func(a, c slEnd) slLink {
		return slLink{house: h, ends: [2]slEnd{a, c}, grouped: true, cands: cands}
	}
	heartCell := -1
	if block && e < 9 {
		heartCell = cell(e)
	}
	switch {
	case len(l1) == 1 && len(l2) == 1:
		// serate links the two blade cells alone here, leaving out the
		// heart, which then holds the digit too: not a strong link (its
		// chains can remove a solution's digit), so none is made.
		return nil
	case len(l1) == 1 || len(l2) == 1:
		one, many := l1, l2
		if len(l1) != 1 {
			one, many = l2, l1
		}
		if block {
			return []slLink{link(mkEnd(one[0], -1, -1), mkEnd(many[0], heartCell, at(many, 1)))}
		}
		return []slLink{link(mkEnd(one[0], -1, -1), mkEnd(many[0], many[1], at(many, 2)))}
	}
	a := mkEnd(l1[0], l1[1], at(l1, 2))
	c := mkEnd(l2[0], l2[1], at(l2, 2))
	if block && e > 8 && n == 4 && sameLine(a.s1, c.s1) && sameLine(a.cell, c.cell) {
		// Four places in a rectangle: grouped by rows and by columns.
		return []slLink{link(a, c), link(mkEnd(l1[0], l2[0], -1), mkEnd(l1[1], l2[1], -1))}
	}
	if block && e < 9 && heart != 0 {
		if len(l1) == 2 {
			a = mkEnd(a.cell, a.s1, heartCell)
		}
		if len(l2) == 2 {
			c = mkEnd(c.cell, c.s1, heartCell)
		}
	}
	return []slLink{link(a, c)}
}

func sameLine(a, b int) bool { return a/9 == b/9 || a%9 == b%9 }

// slConf returns grouped-link configuration k of a block (0-8: a heart
// cell, its row and column the blades, the four other cells empty; 9-14:
// one line of the block empty, the other two the blades) or of a line
// (0-2: one block segment empty, the other two the blades), as position
// masks within the house.
func slConf(block bool, k int) (empty, blade1, blade2, heart uint16) {
	if !block {
		segs := [3]uint16{0x7, 0x38, 0x1C0}
		o := [3][2]int{{1, 2}, {0, 2}, {0, 1}}
		return segs[k], segs[o[k][0]], segs[o[k][1]], 0
	}
	if k < 9 {
		r, c := k/3, k%3
		for i := 0; i < 9; i++ {
			switch {
			case i == k:
				heart |= 1 << i
			case i%3 == c:
				blade1 |= 1 << i // the heart's column
			case i/3 == r:
				blade2 |= 1 << i // and row
			default:
				empty |= 1 << i
			}
		}
		return
	}
	rows := [3]uint16{0x7, 0x38, 0x1C0}
	cols := [3]uint16{0x49, 0x92, 0x124}
	switch k {
	case 9:
		return rows[2], rows[0], rows[1], 0
	case 10:
		return rows[1], rows[0], rows[2], 0
	case 11:
		return rows[0], rows[1], rows[2], 0
	case 12:
		return cols[2], cols[0], cols[1], 0
	case 13:
		return cols[1], cols[0], cols[2], 0
	}
	return cols[0], cols[1], cols[2], 0
}

// build chooses the link of each depth and, at the last, tries every
// order and direction of the links.
func (s *slSearch) build(depth, prev int, found func(*slHint)) {
	if depth == s.n {
		// The links must make a path: connected, each linked to another.
		var reach uint64 = 1 << s.links[0].id
		var members uint64
		for _, l := range s.links {
			members |= 1 << l.id
		}
		for k := 0; k < s.n; k++ {
			for _, l := range s.links {
				if reach>>l.id&1 != 0 {
					reach |= s.adj[l.id] & members
				}
			}
		}
		if reach == members {
			s.chains(found)
		}
		return
	}
	t := s.set[depth]
	from := 0
	if depth > 0 && s.set[depth-1] == t {
		from = prev + 1
	}
	for i := from; i < 9; i++ {
		h := seRegion(t, i)
		for _, l := range s.byHouse[h] {
			if !s.used.and(l.cands).empty() {
				continue // the links' houses share a place of the digit
			}
			s.links[depth] = l
			saved := s.used
			s.used = s.used.or(l.cands)
			s.build(depth+1, i, found)
			s.used = saved
		}
	}
}

// slPerms lists the orders of n links serate tries: every permutation in
// its generation order, one of each reversed pair (made on first use).
var slPerms = sync.OnceValue(func() map[int][][]int {
	perms := map[int][][]int{}
	for n := 2; n <= 4; n++ {
		q := make([]int, n)
		r := make([]int, n+1)
		for i := range q {
			q[i], r[i] = i, i
		}
		r[n] = n
		keep := func() {
			if permLex(q) {
				perms[n] = append(perms[n], slices.Clone(q))
			}
		}
		keep()
		for s := 1; s < n; {
			r[s]--
			t := s % 2 * r[s]
			q[t], q[s] = q[s], q[t]
			keep()
			s = 1
			for r[s] == 0 {
				r[s] = s
				s++
			}
		}
	}
	return perms
})

// permLex reports whether q, written as digits, is no greater than its
// reverse.
func permLex(q []int) bool {
	for i := range q {
		a, b := q[i], q[len(q)-1-i]
		if a != b {
			return a < b
		}
	}
	return true
}

// shareHouse returns the house holding all the cells of two ends (column,
// then row, then block), or -1.
func shareHouse(x, y *slEnd) int {
	switch {
	case x.col >= 0 && x.col == y.col:
		return x.col
	case x.row >= 0 && x.row == y.row:
		return x.row
	case x.block >= 0 && x.block == y.block:
		return x.block
	}
	return -1
}

// seesAll returns the cells that see every cell of two ends.
func seesAll(x, y *slEnd) cellset {
	v := cellset{^uint64(0), 1<<17 - 1}
	for _, e := range [2]*slEnd{x, y} {
		for m := e.set.lo; m != 0; m &= m - 1 {
			v = v.and(peerSet[bits.TrailingZeros64(m)])
		}
		for m := e.set.hi; m != 0; m &= m - 1 {
			v = v.and(peerSet[64+bits.TrailingZeros64(m)])
		}
	}
	return v
}

func (s *slSearch) chains(found func(*slHint)) {
	n := s.n
	var base cellset
	var minNum = 99
	for _, l := range s.links {
		base = base.or(houseSet[l.house])
		minNum = min(minNum, fullNumber(l.house))
	}
	shares := make([]int, n-1)
perms:
	for _, q := range slPerms()[n] {
		for w := 0; w < n-1; w++ {
			if s.adj[s.links[q[w]].id]>>s.links[q[w+1]].id&1 == 0 {
				continue perms
			}
		}
		for u := 0; u < 1<<n; u++ {
			dir := func(i int) int { return u >> (n - 1 - i) & 1 }
			ok := true
			for w := 0; w < n-1; w++ {
				out := &s.links[q[w]].ends[1-dir(w)]
				in := &s.links[q[w+1]].ends[dir(w+1)]
				if shares[w] = shareHouse(out, in); shares[w] < 0 {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			start := &s.links[q[0]].ends[dir(0)]
			end := &s.links[q[n-1]].ends[1-dir(n-1)]
			ring := shareHouse(start, end)
			if ring >= 0 && !(fullNumber(s.links[q[0]].house) == minNum && dir(0) == 0) {
				continue
			}
			v := seesAll(start, end)
			v.remove(start.cell)
			v.remove(end.cell)
			v = v.andNot(base).and(s.digit)
			if ring < 0 {
				for _, sh := range shares {
					v = v.andNot(houseSet[sh])
				}
				if v.empty() {
					continue
				}
			}
			h := &slHint{d: s.d, ring: ring, shares: slices.Clone(shares)}
			for i := 0; i < n; i++ {
				h.links = append(h.links, s.links[q[i]])
				h.dirs = append(h.dirs, dir(i))
			}
			var seen cellset
			addVictims := func(v cellset) {
				v = v.and(s.digit)
				h.total += v.count()
				seen = seen.or(v)
			}
			addVictims(v)
			if ring >= 0 {
				addVictims(v)
				for w := 0; w < n-1; w++ {
					out := &s.links[q[w]].ends[1-dir(w)]
					in := &s.links[q[w+1]].ends[dir(w+1)]
					vw := seesAll(out, in)
					vw.remove(out.cell)
					vw.remove(in.cell)
					addVictims(vw.andNot(base))
				}
			}
			if seen.empty() {
				continue
			}
			for _, c := range seen.cells() {
				h.elims = append(h.elims, Move{c, s.d})
			}
			h.rate(s.set, q)
			found(h)
		}
	}
}

// fullNumber is serate's number of a house: blocks 1-9, rows 11-19,
// columns 21-29.
func fullNumber(h int) int {
	switch {
	case h >= 18:
		return h - 17
	case h < 9:
		return 11 + h
	}
	return 21 + h - 9
}

// rate sets the pattern's name suffix and difficulty.
func (h *slHint) rate(set, q []int) {
	n := len(set)
	grouped := 0
	for _, l := range h.links {
		if l.grouped {
			grouped++
		}
	}
	kinds := make([]int, n)
	for i := range kinds {
		kinds[i] = set[q[i]]
	}
	if !permLex(kinds) {
		slices.Reverse(kinds)
	}
	h.suffix = fmt.Sprint(grouped) + lineName(kinds)
	base := [...]float64{2: 4.0, 3: 5.4, 4: 5.8}[n]
	rest := h.suffix[1:]
	switch {
	case grouped > 0:
		h.diff = base + 0.3
	case !strings.ContainsAny(rest, "02"):
		h.diff = base
	case strings.Contains(rest, "0") && strings.Contains(rest, "2"):
		h.diff = base + 0.2
	default:
		h.diff = base + 0.1
	}
}

// lineName writes the kinds of a chain's houses as serate does: lines of
// one kind as 1 and the other as 2, the least of the readings.
func lineName(kinds []int) string {
	var orig, swap strings.Builder
	hasRow := false
	for _, k := range kinds {
		orig.WriteByte(byte('0' + k))
		switch k {
		case 1:
			hasRow = true
			swap.WriteByte('2')
		case 2:
			swap.WriteByte('1')
		default:
			swap.WriteByte(byte('0' + k))
		}
	}
	if !hasRow {
		return strings.ReplaceAll(orig.String(), "2", "1")
	}
	sw := swap.String()
	rev := []byte(sw)
	slices.Reverse(rev)
	best := min(string(rev), sw)
	return min(orig.String(), best)
}

func (h *slHint) name() string {
	n := len(h.links)
	grouped := h.suffix[0] != '0'
	rest := h.suffix[1:]
	var name string
	switch {
	case h.ring >= 0:
		name = fmt.Sprintf("(%d Strong Links) ", n)
		if grouped {
			name += "Grouped "
		}
		name += "X-Loop"
	case !strings.ContainsAny(rest, "02"):
		name = "Skyscraper"
		if n >= 3 {
			name = fmt.Sprintf("%d Skyscrapers", n)
		}
	case !strings.Contains(rest, "0") && n < 4:
		name = fmt.Sprintf("%d-String Kite", n)
	default:
		name = fmt.Sprintf("%d Strong links", n)
	}
	if grouped && h.ring < 0 {
		name = "Grouped " + name
	}
	return name + " " + h.suffix
}

func (h *slHint) hint(b *board) hint {
	name := h.name()
	return hint{name: name, diff: h.diff, cell: -1, elims: h.elims, desc: func(st *Step) {
		links := Arg{Name: "links", Kind: "links"}
		d := h.d
		for i, l := range h.links {
			in, out := l.ends[h.dirs[i]], l.ends[1-h.dirs[i]]
			links.Links = append(links.Links, StrongLink{From: in.cells(), To: out.cells(), House: houseOfIndex(l.house)})
			st.Houses = append(st.Houses, houseOfIndex(l.house))
			for _, e := range [2]slEnd{in, out} {
				for _, c := range e.cells() {
					if b.has(c, d) {
						st.Cells = append(st.Cells, c)
						st.Marks = append(st.Marks, Mark{c, d, 0})
					}
				}
			}
			st.Links = append(st.Links, Link{From: Move{in.cell, d}, To: Move{out.cell, d}, Strong: true})
			if i+1 < len(h.links) {
				nx := h.links[i+1].ends[h.dirs[i+1]]
				st.Links = append(st.Links, Link{From: Move{out.cell, d}, To: Move{nx.cell, d}})
			}
		}
		key := "s.step.links"
		if h.ring >= 0 {
			key = "s.step.links-loop"
		}
		st.say(key, techArg(name, lowerFirst(name)), digitArg("digit", d), links, cannotArg(h.elims))
	}}
}
