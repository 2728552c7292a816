package join

import "math/bits"

// side is one side of a board, for enumerating its half boards.
type side struct {
	n    int
	cols uint64 // the side's free columns
	// pat[r][c] is the join pattern of a queen on (r, c).
	pat *[MaxN][MaxN]uint64
}

// leaf is one half board: its join pattern, and the key of the rows it
// uses among the free rows not fixed by the task.
type leaf struct {
	pat uint64
	key uint32
}

// gen is the state of one enumeration of half boards.
type gen struct {
	s      *side
	rest   uint64
	keybit *[MaxN]uint32
	out    []leaf
	nodes  uint64
}

// halves appends to out every placement of one queen in each column of
// s, on distinct rows, attacking neither each other nor the diagonals
// d1 (bit r+c) and d2 (bit r-c+n-1) of the placed queens, that uses
// every row of must and otherwise rows of rest only. keybit[r] is row r's
// bit in a leaf's key (zero for the rows of must). It returns the
// extended slice and the number of search nodes (queens placed).
//
// The rows of must are filled first, each with a queen in some column,
// then the columns still empty, each with a queen on some row of rest:
// both phases place a queen at every level, so the search has few dead
// ends.
func (s *side) halves(must, rest uint64, keybit *[MaxN]uint32, d1, d2 uint64, out []leaf) ([]leaf, uint64) {
	if bits.OnesCount64(must) > bits.OnesCount64(s.cols) {
		return out, 0
	}
	g := gen{s: s, rest: rest, keybit: keybit, out: out}
	g.rows(must, s.cols, d1, d2, 0, 0)
	return g.out, g.nodes
}

// rows fills the rows of must, then hands over to columns.
func (g *gen) rows(must, cols, d1, d2, pat uint64, key uint32) {
	if must == 0 {
		g.columns(cols, d1, d2, pat, key)
		return
	}
	n := g.s.n
	r := bits.TrailingZeros64(must)
	must &= must - 1
	for a := cols; a != 0; a &= a - 1 {
		c := bits.TrailingZeros64(a)
		b1, b2 := uint64(1)<<uint(r+c), uint64(1)<<uint(r-c+n-1)
		if d1&b1 != 0 || d2&b2 != 0 {
			continue
		}
		g.nodes++
		g.rows(must, cols&^(1<<uint(c)), d1|b1, d2|b2, pat|g.s.pat[r][c], key)
	}
}

// columns fills the empty columns cols, lowest first, with rows of rest.
func (g *gen) columns(cols, d1, d2, pat uint64, key uint32) {
	k := bits.OnesCount64(cols)
	if k == 0 {
		g.out = append(g.out, leaf{pat, key})
		return
	}
	type level struct {
		avail, cols, rows, d1, d2, pat uint64
		key                            uint32
	}
	var stack [MaxN]level
	n := g.s.n
	pt := g.s.pat
	kb := g.keybit
	rows := g.rest
	out := g.out
	var nodes uint64
	i := 0
	c := bits.TrailingZeros64(cols)
	avail := rows &^ (d1 >> uint(c)) &^ (d2 >> uint(n-1-c))
	last := k - 1
	for {
		if avail == 0 {
			if i == 0 {
				g.out = out
				g.nodes += nodes
				return
			}
			i--
			l := &stack[i]
			avail, cols, rows, d1, d2, pat, key = l.avail, l.cols, l.rows, l.d1, l.d2, l.pat, l.key
			c = bits.TrailingZeros64(cols)
			continue
		}
		bit := avail & -avail
		avail ^= bit
		nodes++
		r := bits.TrailingZeros64(bit)
		p := pat | pt[r][c]
		kk := key | kb[r]
		if i == last {
			out = append(out, leaf{p, kk})
			continue
		}
		stack[i] = level{avail, cols, rows, d1, d2, pat, key}
		rows &^= bit
		cols &= cols - 1
		d1 |= bit << uint(c)
		d2 |= bit << uint(n-1-c)
		pat, key = p, kk
		i++
		c = bits.TrailingZeros64(cols)
		avail = rows &^ (d1 >> uint(c)) &^ (d2 >> uint(n-1-c))
	}
}
