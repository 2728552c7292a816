package join

import "math/bits"

// quadTable lists every placement of non-attacking queens (any number,
// none included) on an h×q rectangle (h rows, q columns), grouped by the
// rows and columns they use. Every quadrant of every frame draws its
// partial boards from such a table: a placement's diagonals are kept in
// the rectangle's own coordinates, and a frame shifts them into place and
// rejects those that its placed queens attack.
//
// Entry i packs the placement's diagonals: bit r+c (0..h+q-2) of the low
// half, bit r-c+q-1 of the high half, for each queen (r, c).
type quadTable struct {
	h, q  int
	start []uint32 // start[key]..start[key+1]: the entries of key rows | cols<<h
	ents  []uint64
}

// list returns the placements using exactly rows and cols.
func (t *quadTable) list(rows, cols uint32) []uint64 {
	k := rows | cols<<uint(t.h)
	return t.ents[t.start[k]:t.start[k+1]]
}

// walkQuad calls f with every placement on an h×q rectangle: its key
// (rows | cols<<h) and packed diagonals; every 2^20 placements it calls
// tick, and stops with tick's error.
func walkQuad(h, q int, f func(key uint32, diags uint64), tick func() error) error {
	var n uint32
	var err error
	var walk func(r int, rows, cols uint32, d1, d2 uint64)
	walk = func(r int, rows, cols uint32, d1, d2 uint64) {
		if err != nil {
			return
		}
		if r == h {
			f(rows|cols<<uint(h), d1|d2<<32)
			if n++; n&(1<<20-1) == 0 && tick != nil {
				err = tick()
			}
			return
		}
		walk(r+1, rows, cols, d1, d2)
		for c := 0; c < q; c++ {
			b1, b2 := uint64(1)<<uint(r+c), uint64(1)<<uint(r-c+q-1)
			if cols>>uint(c)&1 == 0 && d1&b1 == 0 && d2&b2 == 0 {
				walk(r+1, rows|1<<uint(r), cols|1<<uint(c), d1|b1, d2|b2)
			}
		}
	}
	walk(0, 0, 0, 0, 0)
	return err
}

// buildQuadTable builds the table for h×q rectangles. It walks the
// placements twice, counting them per key and then filing them, so the
// entries need no sorting and no second copy. It calls tick every 2^20
// placements walked, and gives up with tick's error.
func buildQuadTable(h, q int, tick func() error) (*quadTable, error) {
	t := &quadTable{h: h, q: q, start: make([]uint32, 1<<uint(h+q)+1)}
	if err := walkQuad(h, q, func(k uint32, _ uint64) { t.start[k]++ }, tick); err != nil {
		return nil, err
	}
	// Counts to starts: start[k] becomes where key k's entries begin.
	sum := uint32(0)
	for k := range t.start {
		c := t.start[k]
		t.start[k] = sum
		sum += c
	}
	t.ents = make([]uint64, sum)
	err := walkQuad(h, q, func(k uint32, d uint64) {
		t.ents[t.start[k]] = d
		t.start[k]++
	}, tick)
	if err != nil {
		return nil, err
	}
	// Filing advanced every start to its key's end: shift back.
	copy(t.start[1:], t.start[:len(t.start)-1])
	t.start[0] = 0
	return t, nil
}

// subsets calls f with every subset of set (a q-bit mask) with k
// elements, in increasing order.
func subsets(set uint32, k int, f func(uint32)) {
	if k < 0 || bits.OnesCount32(set) < k {
		return
	}
	if k == 0 {
		f(0)
		return
	}
	// Walk the k-subsets of the positions of set in colex order (Gosper's
	// hack) and deposit them into set's bits.
	var pos [32]uint
	n := 0
	for s := set; s != 0; s &= s - 1 {
		pos[n] = uint(bits.TrailingZeros32(s))
		n++
	}
	for x := uint32(1)<<uint(k) - 1; x < 1<<uint(n); {
		var sub uint32
		for y := x; y != 0; y &= y - 1 {
			sub |= 1 << pos[bits.TrailingZeros32(y)]
		}
		f(sub)
		c := x & -x
		r := x + c
		x = ((r^x)>>2)/c | r
	}
}
