package join

import "math/bits"

// Helpers only the tests use: other cuts of the board than the ones
// Cut chooses, the planner's table sizes counted without building the
// tables, and whole frames counted at once.

// Cross cuts an odd board around its middle row and column, whose queens
// the frames place: four (n-1)/2 squares. The frames have all 8
// symmetries of the square, but each is small: the join's lists are
// short and making them dominates.
func Cross(n int) Geometry {
	q := (n - 1) / 2
	return Geometry{N: n, Q: q, WC: 1, HN: q, WR: 1, HS: q}
}

// Band cuts a board around its w middle rows and columns (w ≡ n mod 2).
func Band(n, w int) Geometry {
	q := (n - w) / 2
	return Geometry{N: n, Q: q, WC: w, HN: q, WR: w, HS: q}
}

// Geometries lists the cuts of an n×n board the package can count with:
// Cut(n) first, then the cross for odd n and wider bands, for tests and
// experiments.
func Geometries(n int) []Geometry {
	var gs []Geometry
	if n%2 == 0 {
		gs = append(gs, Even(n))
	} else {
		gs = append(gs, Column(n), Cross(n))
	}
	for w := n%2 + 2; w <= min(n, n%2+6); w += 2 {
		gs = append(gs, Band(n, w))
	}
	return gs
}

// quadEntries is the number of entries of the table for h×q, without
// building it: the planner's memory estimate.
func quadEntries(h, q int) uint64 {
	var walk func(r int, cols, d1, d2 uint64) uint64
	walk = func(r int, cols, d1, d2 uint64) uint64 {
		if r == h {
			return 1
		}
		n := walk(r+1, cols, d1, d2)
		for c := 0; c < q; c++ {
			b1, b2 := uint64(1)<<uint(r+c), uint64(1)<<uint(r-c+q-1)
			if cols>>uint(c)&1 == 0 && d1&b1 == 0 && d2&b2 == 0 {
				n += walk(r+1, cols|1<<uint(c), d1|b1, d2|b2)
			}
		}
		return n
	}
	return walk(0, 0, 0, 0)
}

// newQuadTable builds the table for h×q rectangles (h+q <= 26).
func newQuadTable(h, q int) *quadTable {
	t, _ := buildQuadTable(h, q, nil)
	return t
}

// countAll counts every completion of f.
func (f *frame) countAll(s *scratch) (uint64, error) {
	if bits.OnesCount64(f.b.Rows) != bits.OnesCount64(f.b.Cols) {
		return 0, nil
	}
	var total uint64
	for _, rt := range f.tops() {
		c, err := f.countTop(rt, s)
		if err != nil {
			return 0, err
		}
		total += c
	}
	return total, nil
}

// entry returns the conflict word and the join pattern of table entry y.
func (pm *patMap) entry(y uint64) (c, p uint64) {
	return y >> pm.down & pm.win, (y&0xFFFFFFFF)<<pm.a1>>pm.b1&pm.m1 | (y>>32)<<pm.a2>>pm.b2&pm.m2
}

// keyed returns p as bucket files it: compacted, its key above (bits
// top to m), so that a join may merge buckets and still tell their
// patterns apart by the deeper key bits (see trie).
func (k *keyer) keyed(p uint64) uint64 { return k.compact(p) | uint64(k.key(p))<<(k.top&63) }

// countBounded counts one task of f on the bounded path (a batch of one
// top: countBatch), for tests that count with a bscratch of their own.
func (f *frame) countBounded(rt uint32, rbs []uint32, s *bscratch) (uint64, error) {
	var n, h [1]uint64
	err := f.countBatch([]uint32{rt}, rbs, s, n[:], h[:])
	return n[0], err
}
