package join

import "math/bits"

// rowList is the part of a quadrant table that one task reads: the
// placements on an h×q rectangle using exactly the rows of one set (a
// queen on each), with columns in a given set and no queen on a diagonal
// a frame's queens attack, grouped by the columns they use. A task of
// the bounded path (see Counter and bounded.go) builds the four it needs
// instead of holding the whole table: the largest holds a few hundredths
// of a per cent of the table's entries (788,698 of 633 million for a 12×12
// quadrant). Entries are packed as the table's (see quadTable).
type rowList struct {
	h, q  int
	rows  uint32
	start []uint32 // start[C]..start[C+1]: the entries on columns C (2^q+1)
	ents  []uint64
	// The counting walk's leaf groups, while they number at most
	// maxGroups (full: more): the filing then reads them instead of
	// walking again.
	groups []leafGroup
	full   bool
}

// leafGroup is a placement on all rows but the last, and the columns its
// last row's queen can take: the entries it ends in.
type leafGroup struct {
	ent        uint64 // the placement's diagonals, packed as an entry
	used, free uint32
}

// maxGroups bounds the leaf groups a row list keeps: 1 MiB of them, the
// lists of most row sets. A larger list is filed by walking again (a
// variable for tests).
var maxGroups = 1 << 16

// list returns the entries on exactly the columns cols.
func (l *rowList) list(cols uint32) []uint64 {
	return l.ents[l.start[cols]:l.start[cols+1]]
}

// size is the number of entries.
func (l *rowList) size() int { return len(l.ents) }

// build fills l with the placements on an h×q rectangle on exactly the
// rows rows, with columns in cols, whose diagonals miss att (packed as
// an entry: d1 bits low, d2 bits high). It walks the placements,
// counting them per column set (the last row's all at once), then files
// each in its place from the walk's leaf groups (or, for a list with
// more than maxGroups groups, by walking again), so that it holds nothing but
// the list and a bounded buffer.
func (l *rowList) build(h, q int, rows, cols uint32, att uint64) {
	l.h, l.q, l.rows = h, q, rows
	l.start = resize(l.start, 1<<uint(q)+1)
	clear(l.start)
	var rs [32]int
	k := 0
	for r := rows; r != 0; r &= r - 1 {
		rs[k] = bits.TrailingZeros32(r)
		k++
	}
	a1, a2 := att&0xFFFFFFFF, att>>32
	if k == 0 {
		l.start[1] = 1
		l.ents = append(l.ents[:0], 0)
		for c := 2; c < len(l.start); c++ {
			l.start[c] = 1
		}
		return
	}
	l.groups, l.full = l.groups[:0], false
	l.walk(rs[:k], q, cols, a1, a2, false)
	// Counts to ends: start[C+1] becomes where C's entries end, start[C]
	// where they begin; filing advances start[C] to C's end, and the
	// shift below puts it back.
	for c := 1; c < len(l.start); c++ {
		l.start[c] += l.start[c-1]
	}
	l.ents = resize(l.ents, int(l.start[len(l.start)-1]))
	if l.full {
		l.walk(rs[:k], q, cols, a1, a2, true)
	} else {
		l.fileGroups(rs[k-1], q)
	}
	copy(l.start[1:], l.start[:len(l.start)-1])
	l.start[0] = 0
}

// walk visits every placement with a queen on each of rows rs, columns in
// cols, diagonals off a1 and a2: counting them per column set in
// l.start[C+1], or with fill filing each at l.ents[l.start[C]] and
// advancing l.start[C]. It walks with an explicit stack, and takes the
// last row's queens all at once. The columns the placed queens' diagonals
// block on the next row are kept as two masks shifted by the rows between
// (down-left and down-right), those the frame's queens block on each row
// are read once: a step is a few shifts and ORs.
func (l *rowList) walk(rs []int, q int, cols uint32, a1, a2 uint64, fill bool) {
	type level struct {
		free   uint32 // columns left to try on this row
		used   uint32
		dl, dr uint32 // columns the placed queens' diagonals block here
		d1, d2 uint64
	}
	var st [32]level
	// Per row of rs: the columns blocked there (the frame's diagonals and
	// the columns not in cols), and the rows from the one before.
	var blocked [32]uint32
	var gap [32]uint
	for i, r := range rs {
		blocked[i] = ^open(r, q, cols, a1, a2)
		if i > 0 {
			gap[i] = uint(r - rs[i-1])
		}
	}
	last := len(rs) - 1
	i := 0
	st[0] = level{free: ^blocked[0]}
	for {
		if i == last {
			// The last row: every open column is a placement.
			lv := &st[i]
			r := rs[i]
			g := leafGroup{ent: lv.d1 | lv.d2<<32, used: lv.used, free: lv.free}
			if fill {
				l.file(g, r, q)
			} else {
				for f := lv.free; f != 0; f &= f - 1 {
					l.start[lv.used|1<<uint(bits.TrailingZeros32(f))+1]++
				}
				if lv.free != 0 && !l.full {
					if len(l.groups) == maxGroups {
						l.full = true
					} else {
						l.groups = append(l.groups, g)
					}
				}
			}
			lv.free = 0
		}
		// Back up to a row with a column left, and take it.
		for st[i].free == 0 {
			if i == 0 {
				return
			}
			i--
		}
		lv := &st[i]
		b := lv.free & -lv.free
		c := bits.TrailingZeros32(b)
		lv.free &^= b
		r := rs[i]
		i++
		nx := &st[i]
		nx.used = lv.used | b
		nx.d1 = lv.d1 | 1<<uint(r+c)
		nx.d2 = lv.d2 | 1<<uint(r-c+q-1)
		g := gap[i] & 31
		nx.dl = (lv.dl | b) >> g
		nx.dr = (lv.dr | b) << g
		nx.free = ^(blocked[i] | nx.used | nx.dl | nx.dr)
	}
}

// fileGroups files the entries of the counting walk's leaf groups, the
// last row r.
func (l *rowList) fileGroups(r, q int) {
	for _, g := range l.groups {
		l.file(g, r, q)
	}
}

// file files the entries of leaf group g, whose last row is r: each at
// l.ents[l.start[C]], advancing l.start[C].
func (l *rowList) file(g leafGroup, r, q int) {
	for f := g.free; f != 0; f &= f - 1 {
		c := bits.TrailingZeros32(f)
		u := g.used | 1<<uint(c)
		l.ents[l.start[u]] = g.ent | 1<<uint(r+c) | 1<<uint(r-c+q-1+32)
		l.start[u]++
	}
}

// open returns the columns of cols where a queen on row r misses the
// diagonals d1 and d2, in an h×q rectangle's packing.
func open(r, q int, cols uint32, d1, d2 uint64) uint32 {
	// Column c is on d1 bit r+c and d2 bit r-c+q-1: shift the diagonals
	// so that bit c of each says whether column c is taken.
	t1 := uint32(d1 >> uint(r))
	t2 := uint32(bits.Reverse64(d2<<uint(64-(r+q))) & (1<<uint(q) - 1))
	return cols &^ (t1 | t2)
}
