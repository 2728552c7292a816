package join

import (
	"errors"
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
	// Wider bands than 6 or 7 fill in too many ways to be of use (at n
	// = 20 a band of width 4 already has millions of fillings).
	for w := n%2 + 2; w <= min(n, n%2+6); w += 2 {
		gs = append(gs, Band(n, w))
	}
	return gs
}

// MaxTasks bounds the tasks of a plan a count may choose: a wider band
// multiplies the frames (a band of width 2 has thousands of fillings at n
// = 20, one of width 4 millions), each with up to 2^HN tasks.
const MaxTasks = 4 << 20

// Feasible reports whether a plan with cut g stays within MaxTasks tasks
// and MaxQ, without building it: the band fillings are counted up to a
// bound, and each frame may have 2^HN tasks.
func Feasible(g Geometry) bool {
	if !g.valid() || g.Q > MaxQ || g.HN > MaxQ+1 || g.HS > MaxQ+1 {
		return false
	}
	limit := uint64(MaxTasks) >> uint(max(g.HN-4, 0)) // fillings, before classing by symmetry (÷ up to 8)
	var fillings uint64
	stop := errors.New("stop")
	err := fillBandBounded(Empty(g.N), g, func() error {
		if fillings++; fillings > limit {
			return stop
		}
		return nil
	})
	return err == nil
}

// Choose returns the first of Geometries(n) that is Feasible and whose
// Memory with the given workers fits in limit bytes (0: no limit), or an
// error saying why none does.
func Choose(n int, limit uint64, workers int) (Geometry, error) {
	if n < 1 || n > MaxN {
		return Geometry{}, fmt.Errorf("%w: n = %d", ErrSize, n)
	}
	var least uint64
	for _, g := range Geometries(n) {
		if !Feasible(g) {
			continue
		}
		need := Memory(g, workers)
		if limit == 0 || need <= limit {
			return g, nil
		}
		if least == 0 || need < least {
			least = need
		}
	}
	if least == 0 {
		return Geometry{}, fmt.Errorf("%w: no cut of an n = %d board gives quadrant tables of at most %d×%d and at most %d tasks", ErrSize, n, MaxQ, MaxQ, MaxTasks)
	}
	return Geometry{}, fmt.Errorf("%w: counting n = %d by joining needs at least %d MiB with %d workers, more than the %d MiB allowed",
		ErrMemory, n, least>>20, workers, limit>>20)
}

// ErrMemory reports a memory limit no geometry fits in.
var ErrMemory = errors.New("join: not enough memory")
