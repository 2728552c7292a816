package join

import (
	"math/bits"
	"sync/atomic"
)

// Making half boards. For a side (west or east) and its rows rt of the
// north quadrant and rb of the south one, every split of the side's free
// columns into C (north) and the rest (south) pairs the north entries on
// (rt, C) with the south entries on (rb, rest): those two quadrant lists,
// less the entries the frame's queens attack, go into two columns of
// entries (filter), and every compatible pair of them gives a half board
// (cross). Both steps are kernel functions: the vector kernels filter
// eight or four entries and test eight or four pairs an instruction.

// vecPad is the room the vector kernels may read and write beyond the
// last entry or pattern: a whole 512-bit vector.
const vecPad = 8

// patMap says how an entry of a quadrant table (diagonals in table
// packing: d1 in the low half, d2 in the high half) becomes an entry
// ready to pair. A north and a south entry can only meet on the q-1
// diagonals of each kind from the south quadrant's first row on: the
// entry's conflict word is those bits, in table packing (the entry
// shifted right by down, masked by win). Its join pattern is its
// diagonals in the north quadrant's coordinates (d1 and d2 shifted left
// by the south quadrant's first row, for a south entry), bits sh1.. of
// d1 (m1 of them) and then, from bit l1, bits sh2.. of d2 (m2): for each
// half of the entry one left shift, one right shift and a mask (a1, b1,
// m1 and a2, b2, m2). The vector kernels read this struct: keep its
// layout.
type patMap struct {
	down, win  uint64
	a1, b1, m1 uint64
	a2, b2, m2 uint64
}

// newPatMap returns the map of a quadrant whose first row is shift rows
// below the north quadrant's, for conflict words of the q-1 diagonals
// from row s on, and patterns as above.
func newPatMap(shift, s, q, sh1, sh2, l1 uint, m1, m2 uint64) patMap {
	win := uint64(1)<<(max(q, 1)-1) - 1
	pm := patMap{down: uint64(s - shift), win: win | win<<32, a1: uint64(shift), b1: uint64(sh1), m1: m1, m2: m2 << l1}
	// ((d2 << shift) >> sh2 & m2) << l1, as one shift each way.
	if l1 > sh2 {
		pm.a2 = uint64(shift + l1 - sh2)
	} else {
		pm.a2, pm.b2 = uint64(shift), uint64(sh2-l1)
	}
	return pm
}

// entries is a list of quadrant entries ready to pair, as two columns:
// the conflict words c and the join patterns p. Each has room for vecPad
// more.
type entries struct {
	c, p []uint64
}

// reserve makes room for n entries (and vecPad more) in each column.
func (e *entries) reserve(n int) {
	if cap(e.c) < n+vecPad {
		k := n + n/2 + vecPad
		e.c, e.p = make([]uint64, k), make([]uint64, k)
	}
	e.c, e.p = e.c[:cap(e.c)], e.p[:cap(e.p)]
}

// filterGeneric stores in dst the entries of src that att does not
// attack, mapped by pm, and returns how many. dst has room for len(src).
func filterGeneric(dst *entries, src []uint64, att uint64, pm *patMap) int {
	c, p := dst.c[:len(src)], dst.p[:len(src)]
	// The fields in registers, the shift counts & 63 (no code for counts
	// of 64 and more).
	down, win := pm.down&63, pm.win
	a1, b1, m1, a2, b2, m2 := pm.a1&63, pm.b1&63, pm.m1, pm.a2&63, pm.b2&63, pm.m2
	j := 0
	for _, y := range src {
		// Branch-free: every entry is written, and kept (j advanced) only
		// when not attacked.
		c[j] = y >> down & win
		p[j] = (y&0xFFFFFFFF)<<a1>>b1&m1 | (y>>32)<<a2>>b2&m2
		j += fits(y & att)
	}
	return j
}

// crossGeneric appends to out the patterns a.p[i] | b.p[j] of the pairs
// of a[:na] and b[:nb] whose conflict words are disjoint. The caller
// leaves room in out for na·nb + vecPad more.
func crossGeneric(a *entries, na int, b *entries, nb int, out []uint64) []uint64 {
	if na > nb {
		a, na, b, nb = b, nb, a, na // the longer list inside
	}
	n := len(out)
	o := out[n : n+na*nb]
	bc, bp := b.c[:nb], b.p[:nb]
	i := 0
	for x, xc := range a.c[:na] {
		xp := a.p[x]
		// Branch-free: every candidate is written, and kept (i advanced)
		// only when compatible; about half are, so a branch would
		// mispredict often.
		w := o[i : i+nb]
		j := 0
		for y, yc := range bc {
			w[j] = xp | bp[y]
			j += fits(xc & yc)
		}
		i += j
	}
	return out[:n+i]
}

// fits is 1 when conflicts is 0, else 0; conflicts < 2^63 (diagonals
// in table packing always are).
func fits(conflicts uint64) int {
	return int((conflicts - 1) >> 63)
}

// norths holds the north entries of one side of a frame on one set of
// north rows, ready to pair: for each set of columns cols[i] with any,
// e[off[i]:off[i+1]]. A task keeps the north rows of both its sides for
// all its south row sets, so each side's are filtered once a task.
type norths struct {
	id   uint64 // the side's (half.id), not a pointer: a cache keeps nothing alive
	rows uint32
	cols []uint32
	off  []int32
	e    entries
}

// halfIDs numbers the sides of frames, for caches.
var halfIDs atomic.Uint64

// north returns the north entries of side of f on rows, from s's cache.
func (s *scratch) north(f *frame, side int, rows uint32) *norths {
	nc := &s.nc[side]
	h := &f.sides[side]
	if nc.id == h.id && nc.rows == rows && nc.off != nil {
		return nc
	}
	nc.id, nc.rows = h.id, rows
	nc.cols, nc.off = nc.cols[:0], append(nc.off[:0], 0)
	n := 0
	subsets(h.cols, bits.OnesCount32(rows), func(c uint32) {
		l := f.north.list(rows, c)
		if len(l) == 0 {
			return
		}
		if need := n + len(l) + vecPad; cap(nc.e.c) < need {
			old := nc.e
			nc.e.reserve(need + need/2)
			copy(nc.e.c, old.c[:n])
			copy(nc.e.p, old.p[:n])
		}
		s.view = entries{c: nc.e.c[n:], p: nc.e.p[n:]}
		if k := s.k.filter(&s.view, l, h.north, &h.pn); k > 0 {
			n += k
			nc.cols = append(nc.cols, c)
			nc.off = append(nc.off, int32(n))
		}
	})
	return nc
}

// halves appends to out the join patterns of the half boards of side
// (0 west, 1 east) with rows rt of the north quadrant and rb of the south
// one: for every split of the columns, every compatible pair of a north
// and a south entry.
func (f *frame) halves(side int, rt, rb uint32, out []uint64, s *scratch) []uint64 {
	h := &f.sides[side]
	if bits.OnesCount32(rt)+bits.OnesCount32(rb) != bits.OnesCount32(h.cols) {
		return out
	}
	nc := s.north(f, side, rt)
	kn := &s.k
	for i, c := range nc.cols {
		if sel := s.sel[side]; sel != 0 && sel>>classOf(f.colValue(side, c), s.p1, s.p2)&1 == 0 {
			continue
		}
		sl := f.south.list(rb, h.cols&^c)
		if len(sl) == 0 {
			continue
		}
		s.sa.reserve(len(sl))
		nb := kn.filter(&s.sa, sl, h.south, &h.ps)
		if nb == 0 {
			continue
		}
		lo, hi := int(nc.off[i]), int(nc.off[i+1])
		na := hi - lo
		if need := len(out) + na*nb + vecPad; cap(out) < need {
			out = append(out[:cap(out)], make([]uint64, need-cap(out)+need/2)...)[:len(out)]
		}
		s.view = entries{c: nc.e.c[lo:], p: nc.e.p[lo:]}
		out = kn.cross(&s.view, na, &s.sa, nb, out)
	}
	return out
}

// countRows counts the completions of f whose east queens take the rows
// rt of the north quadrants and rb of the south ones: under the diagonal
// symmetry, those of the column sets its key keeps, weighted (see
// joinDiag).
func (f *frame) countRows(rt, rb uint32, s *scratch) (uint64, error) {
	if !f.diag {
		s.sel = [2]uint8{}
		return f.countSel(rt, rb, s)
	}
	s.p1, s.p2 = f.diagKey(rt, rb)
	var eb, wb diagBounds
	s.e = f.halvesByClass(1, rt, rb, &eb, s.e[:0], s)
	if len(s.e) == 0 {
		return 0, nil
	}
	s.w = f.halvesByClass(0, f.ft&^rt, f.fb&^rb, &wb, s.w[:0], s)
	s.stat.made += uint64(len(s.e) + len(s.w))
	s.stat.maxList = max(s.stat.maxList, len(s.e), len(s.w))
	n, nodes, err := f.joinDiag(s.e, s.w, &eb, &wb, s.p1, s.p2, s)
	s.stat.halves += nodes
	if err == nil {
		err = s.tick(nodes) // progress counts the nodes, as the joins take them
	}
	return n, err
}

// halvesByClass appends to out the half boards of side with rows rt and
// rb (as halves) of the classes dEq1 to dAbove against (s.p1, s.p2),
// class after class, and sets their bounds in b.
func (f *frame) halvesByClass(side int, rt, rb uint32, b *diagBounds, out []uint64, s *scratch) []uint64 {
	b[dEq1] = len(out)
	for c := dEq1; c <= dAbove; c++ {
		s.sel[side] = 1 << c
		out = f.halves(side, rt, rb, out, s)
		b[c+1] = len(out)
	}
	s.sel[side] = 0
	return out
}

// diagBounds are where each class of column sets (diag.go) starts in a
// list of half boards made class after class: class c is [b[c], b[c+1]),
// dBelow (never made) empty.
type diagBounds [dAbove + 2]int

// part returns the part of list l of the classes in mask, which must be
// consecutive.
func (b *diagBounds) part(l []uint64, mask uint8) []uint64 {
	lo, hi := -1, 0
	for c := dBelow; c <= dAbove; c++ {
		if mask>>c&1 != 0 {
			if lo < 0 {
				lo = b[c]
			}
			hi = b[c+1]
		}
	}
	return l[lo:hi]
}

// joinDiag counts the completions of a row set with key (p1, p2) under
// the diagonal symmetry, from its east and west half boards e and w made
// class after class (eb and wb), by one join per pair of classes with a
// weight (diagJoins). Its nodes are the half boards each join takes: its
// east ones, and its west ones when it has east ones, as counting each
// join apart takes them.
func (f *frame) joinDiag(e, w []uint64, eb, wb *diagBounds, p1, p2 uint32, s *scratch) (total, nodes uint64, err error) {
	for _, j := range diagFor(p1, p2) {
		ej, wj := eb.part(e, j.east), wb.part(w, j.west)
		if len(ej) == 0 {
			continue
		}
		nodes += uint64(len(ej) + len(wj))
		if len(wj) == 0 {
			continue
		}
		n, err := f.join(ej, wj, s)
		if err != nil {
			return 0, nodes, err
		}
		total += j.weight * n
	}
	return total, nodes, nil
}

// countSel counts the completions of row set (rt, rb) whose half boards'
// column sets s.sel keeps.
func (f *frame) countSel(rt, rb uint32, s *scratch) (uint64, error) {
	s.e = f.halves(1, rt, rb, s.e[:0], s)
	if len(s.e) == 0 {
		return 0, nil
	}
	s.w = f.halves(0, f.ft&^rt, f.fb&^rb, s.w[:0], s)
	s.stat.halves += uint64(len(s.e) + len(s.w))
	s.stat.made += uint64(len(s.e) + len(s.w))
	s.stat.maxList = max(s.stat.maxList, len(s.e), len(s.w))
	if err := s.tick(uint64(len(s.e) + len(s.w))); err != nil {
		return 0, err
	}
	if len(s.w) == 0 {
		return 0, nil
	}
	return f.join(s.e, s.w, s)
}
