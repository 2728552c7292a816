package join

import (
	"fmt"
	"math"
)

// Memory estimates the bytes a count with geometry g takes with the given
// number of workers: the quadrant tables, shared by all, and each
// worker's lists of half boards, about 80 bytes per half board of the
// longest list (the lists, their copies sorted by index bits, the keys,
// and room to grow).
func Memory(g Geometry, workers int) uint64 {
	t := tableBytes(g.HN, g.Q)
	if g.HS != g.HN {
		t += tableBytes(g.HS, g.Q)
	}
	per := 80*maxList(g) + 1<<20
	return t + uint64(max(workers, 1))*per + 16<<20 // and the runtime's own
}

func tableBytes(h, q int) uint64 {
	return 8*quadSize(h, q) + 4*(uint64(1)<<uint(h+q)+1)
}

// quadSize is the number of placements on an h×q rectangle: measured
// for the sizes plans use (see quadSizes), extrapolated beyond.
func quadSize(h, q int) uint64 {
	for _, x := range quadSizes {
		if x[0] == uint64(h) && x[1] == uint64(q) {
			return x[2]
		}
	}
	// Each row and column more multiplies the count by about 3.
	return uint64(math.Pow(3, float64(h+q)))
}

// quadSizes lists quadEntries(h, q) for q = 0..12, h = q and q+1
// (TestQuadSizes checks the small ones against quadEntries).
var quadSizes = [][3]uint64{
	{0, 0, 1},
	{1, 0, 1},
	{1, 1, 2},
	{2, 1, 3},
	{2, 2, 5},
	{3, 2, 9},
	{3, 3, 18},
	{4, 3, 37},
	{4, 4, 87},
	{5, 4, 185},
	{5, 5, 462},
	{6, 5, 1039},
	{6, 6, 2635},
	{7, 6, 6335},
	{7, 7, 16870},
	{8, 7, 42807},
	{8, 8, 118969},
	{9, 8, 316395},
	{9, 9, 915442},
	{10, 9, 2524999},
	{10, 10, 7535369},
	{11, 10, 21637115},
	{11, 11, 66807234},
	{12, 11, 198770307},
	{12, 12, 633443407},
	{13, 12, 1941720813},
}

// maxList estimates the longest list of half boards of a row set for
// geometry g, from the longest measured: for the even cut 570, 2956,
// 17506 and 105032 half boards at n = 14, 16, 18 and 20 (about 6 times
// more every 2 rows), for the column cut 374 and 1969 at n = 15 and 17
// (about 5.3 times). Frames with more band queens have shorter lists;
// they are counted as the column cut's.
func maxList(g Geometry) uint64 {
	q := float64(g.Q)
	if g.WC == 0 && g.WR == 0 {
		return uint64(17506 * math.Pow(6, q-9) * 1.5)
	}
	return uint64(1969 * math.Pow(5.3, q-8) * 1.5)
}

// Geometries lists the cuts for n in the order a count prefers them: the
// fastest first, then ones with smaller quadrant tables and shorter lists
// (a wider band: more frames, more and smaller tasks).
func Geometries(n int) []Geometry {
	var gs []Geometry
	if n%2 == 0 {
		gs = append(gs, Even(n))
	} else {
		gs = append(gs, Column(n), Cross(n))
	}
	for w := n%2 + 2; w <= n; w += 2 {
		gs = append(gs, Band(n, w))
	}
	return gs
}

// Choose returns the first of Geometries(n) whose Memory with the given
// workers fits in limit bytes (0: no limit), or an error saying how much
// the smallest needs.
func Choose(n int, limit uint64, workers int) (Geometry, error) {
	gs := Geometries(n)
	if n < 1 || n > MaxN {
		return Geometry{}, fmt.Errorf("%w: n = %d", ErrSize, n)
	}
	for _, g := range gs {
		if g.Q > MaxQ || g.HN > MaxQ+1 {
			continue
		}
		if limit == 0 || Memory(g, workers) <= limit {
			return g, nil
		}
	}
	last := gs[len(gs)-1]
	return Geometry{}, fmt.Errorf("%w: counting n = %d by joining needs at least %d MiB with %d workers, more than the %d MiB allowed",
		ErrMemory, n, Memory(last, workers)>>20, workers, limit>>20)
}

// ErrMemory reports a memory limit no geometry fits in.
var ErrMemory = fmt.Errorf("join: not enough memory")
