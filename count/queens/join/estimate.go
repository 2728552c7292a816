package join

import (
	"math/bits"
	"runtime"
	"sync"
)

// Estimates returns a cheap estimate of each task's cost, in about
// nanoseconds of one core: what shards are balanced by, progress is
// weighted by and the estimator samples by. A row set (rt, rb) makes its
// east half boards from about pE = a(rt)·a(rb)/C(|ce|, |rt|) candidate
// pairs of quadrant entries, where a(r) is the number of placements on
// the rows r of a quadrant (see rowModel), its west ones from pW likewise,
// and joins lists whose sizes are proportional to those: its cost is
// taken as estMake·(pE+pW) + estJoin·pE·pW. A task adds up its row sets.
// The estimate ignores the squares the frame's queens attack.
//
// The estimates are the same on every machine: shards depend on them.
// They are computed without any table (seconds at n = 28, on all cores).
func (l *Layout) Estimates() []uint64 {
	est := make([]uint64, l.Len())
	m := newModel(l.Geometry)
	// Tops are independent: compute them on all cores, each a pure
	// function of its top.
	var wg sync.WaitGroup
	next := make(chan int)
	g := l.Geometry
	north, south := &quadTable{h: g.HN, q: g.Q}, &quadTable{h: g.HS, q: g.Q}
	frames := make([]*frame, len(l.Frames))
	for i, fr := range l.Frames {
		frames[i], _ = newFrame(fr.Board(g.N), g, north, south)
	}
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var rbs []uint32
			var costs []float64
			for i := range next {
				fi := sort32(l.start, i)
				f := frames[fi]
				rt := l.tops[i]
				rbs = f.southSets(rt, rbs[:0])
				costs = costs[:0]
				for _, rb := range rbs {
					c := 0.0
					if f.canonical(rt, rb) > 0 {
						c = m.cost(f, rt, rb)
					}
					costs = append(costs, c)
				}
				parts := l.first[i+1] - l.first[i]
				for p := range parts {
					lo, hi := 0, len(costs)
					if l.Split > 0 {
						lo, hi = min(p*l.Split, len(costs)), min((p+1)*l.Split, len(costs))
					}
					sum := 0.0
					for _, c := range costs[lo:hi] {
						sum += c
					}
					est[l.first[i]+p] = uint64(min(sum, 1<<62)) + 1
				}
			}
		})
	}
	for i := range l.tops {
		next <- i
	}
	close(next)
	wg.Wait()
	return est
}

// sort32 returns the frame whose tops hold top i: the last f with
// start[f] <= i.
func sort32(start []int, i int) int {
	lo, hi := 0, len(start)-2
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if start[mid] <= i {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// The cost model of a row set, in nanoseconds of one core of the machine
// it was fitted on (RESULTS.md, "Choices measured once"), to row sets of
// n = 18 to 28 measured on the bounded path: making the half boards costs
// estMake per candidate pair of quadrant entries and estRow for the row
// set's lists; a share ρ(q) of the candidates are half boards; joining
// costs estJoin per pair of half boards tested, a share (3/4)^k of all
// pairs with k index bits (as many as keep 512 half boards a bucket, at
// most 12).
const (
	// modelIndexBits is the model's cap on the index bits: the join's of
	// the release that fitted it. It stays, so that shards and the
	// estimator's strata, which the estimates decide, stay those of
	// earlier releases.
	modelIndexBits = 12

	estMake = 10.0
	estRow  = 5e4
	estJoin = 0.015
)

// compat is ρ(q): the share of candidate pairs (a north entry with a
// south one on the complementary columns) whose diagonals agree, measured
// for q = 9 to 14 (0.40, 0.30, 0.27, 0.23, -, 0.17) and extended as
// 0.4·(9/q)^1.9.
var compat = [MaxQ + 1]float64{1, 1, 1, 1, 1.0, 1.0, 0.86, 0.67, 0.51, 0.40, 0.33, 0.27, 0.23, 0.20, 0.17, 0.15, 0.13}

// model holds the placement counts a(r) of a geometry's north and south
// quadrants (see rowModel).
type model struct {
	north, south []float64
}

func newModel(g Geometry) *model {
	m := &model{north: rowModel(g.HN, g.Q)}
	m.south = m.north
	if g.HS != g.HN {
		m.south = rowModel(g.HS, g.Q)
	}
	return m
}

// cost is the estimated cost of row set (rt, rb) of frame f.
func (m *model) cost(f *frame, rt, rb uint32) float64 {
	mk, jn := m.parts(f, rt, rb)
	return mk + jn
}

// parts is the estimated cost of row set (rt, rb) of frame f: making its
// half boards, and joining them.
func (m *model) parts(f *frame, rt, rb uint32) (make, join float64) {
	ke := bits.OnesCount32(rt)
	rw, bw := f.ft&^rt, f.fb&^rb
	kw := bits.OnesCount32(rw)
	pe := float64(m.north[rt]*m.south[rb]) / binom(bits.OnesCount32(f.ce), ke)
	pw := float64(m.north[rw]*m.south[bw]) / binom(bits.OnesCount32(f.cw), kw)
	rho := compat[min(f.q, MaxQ)]
	e, w := float64(rho*pe), float64(rho*pw)
	// Index bits: as the join chooses them for the longer list.
	share := 1.0
	for k := 0; k < modelIndexBits && uint64(max(e, w))>>uint(k+1) >= blockSize; k++ {
		share *= 0.75
	}
	return float64(estMake*(pe+pw)) + estRow, float64(estJoin * float64(float64(e*w)*share))
}

// rowModel returns, for every row set r of an h×q rectangle, an estimate
// of a(r): the number of placements of non-attacking queens with one on
// each row of r (any columns). Counting them exactly walks every
// placement of the rectangle (minutes for 14×14); the model takes the
// |r| queens' columns as a random arrangement of distinct columns, q!/(q-k)!
// of them, and two queens d rows apart as off each other's diagonals
// with probability 1 - 2(q-d)/(q(q-1)), pair by pair, as if independent;
// then, for each size k, it scales by the ratio of exact to modelled
// counts over a few row sets of that size (the pairs are not independent:
// without it the model is 2% high for 4 rows of 12, 2.7 times for 10).
// The row sets measured are the same on every machine; every step is a
// product or a quotient of float64s, so the values are too.
func rowModel(h, q int) []float64 {
	key := [2]int{h, q}
	modelMu.Lock()
	defer modelMu.Unlock()
	if a, ok := models[key]; ok {
		return a
	}
	a := newRowModel(h, q)
	models[key] = a
	return a
}

// models keeps rowModel's results: one per rectangle a process uses.
var (
	modelMu sync.Mutex
	models  = map[[2]int][]float64{}
)

func newRowModel(h, q int) []float64 {
	a := make([]float64, 1<<uint(h))
	pair := make([]float64, h+1)
	for d := 1; d <= h; d++ {
		pair[d] = 1
		if d < q {
			pair[d] = 1 - float64(2*(q-d))/float64(q*(q-1))
		}
	}
	for r := range a {
		k := bits.OnesCount32(uint32(r))
		if k > q {
			continue
		}
		x := 1.0
		for i := 0; i < k; i++ {
			x *= float64(q - i)
		}
		for s := uint32(r); s != 0; s &= s - 1 {
			i := bits.TrailingZeros32(s)
			for t := s & (s - 1); t != 0; t &= t - 1 {
				x *= pair[bits.TrailingZeros32(t)-i]
			}
		}
		a[r] = x
	}
	// Scale each size by the exact counts of a few of its row sets, for
	// the sizes whose row sets are cheap to count (at most calibrateMax
	// placements by the model); larger sizes (n >= 30's quadrants of 15
	// and 16 rows) continue the trend of the last two measured, log-linearly.
	var wg sync.WaitGroup
	scale := make([]float64, h+1)
	measured := make([]bool, h+1)
	for k := 2; k <= min(h, q); k++ {
		rs := samples(h, k)
		var modelled float64
		for _, r := range rs {
			modelled += a[r]
		}
		if modelled > calibrateMax {
			continue
		}
		measured[k] = true
		wg.Go(func() {
			var exact float64
			for _, r := range rs {
				exact += float64(countRows(h, q, r))
			}
			scale[k] = 1
			if modelled > 0 {
				scale[k] = exact / modelled
			}
		})
	}
	wg.Wait()
	for k := 2; k <= min(h, q); k++ {
		if measured[k] {
			continue
		}
		scale[k] = 1
		if k >= 4 && scale[k-1] > 0 && scale[k-2] > 0 {
			scale[k] = scale[k-1] * min(max(scale[k-1]/scale[k-2], 0.5), 2)
		}
	}
	for r := range a {
		if k := bits.OnesCount32(uint32(r)); k >= 2 && k <= q {
			a[r] *= scale[k]
		}
	}
	return a
}

// calibrateMax bounds the placements rowModel counts exactly for one size
// of row set (seconds at most: every size up to n = 29 is counted).
const calibrateMax = 2e8

// samples returns the row sets of size k of h rows that rowModel measures:
// three, at a sixth, a half and five sixths of the way through them in
// the order subsets lists them (all of them when there are at most 3).
func samples(h, k int) []uint32 {
	n := binomInt(h, k)
	want := []int{n / 6, n / 2, 5 * n / 6}
	if n <= 3 {
		want = want[:0]
		for i := range n {
			want = append(want, i)
		}
	}
	var out []uint32
	i := 0
	subsets(uint32(1)<<uint(h)-1, k, func(r uint32) {
		if len(out) < len(want) && i == want[len(out)] {
			out = append(out, r)
			for len(out) < len(want) && want[len(out)] == i {
				out = append(out, r)
			}
		}
		i++
	})
	return out
}

// countRows counts the placements on exactly the rows r of an h×q
// rectangle (a queen on each, any columns), the last row's queens at once.
func countRows(h, q int, r uint32) uint64 {
	var rs [32]int
	k := 0
	for x := r; x != 0; x &= x - 1 {
		rs[k] = bits.TrailingZeros32(x)
		k++
	}
	if k == 0 {
		return 1
	}
	all := uint32(1)<<uint(q) - 1
	var walk func(i int, used uint32, d1, d2 uint64) uint64
	walk = func(i int, used uint32, d1, d2 uint64) uint64 {
		free := open(rs[i], q, all&^used, d1, d2)
		if i == k-1 {
			return uint64(bits.OnesCount32(free))
		}
		var n uint64
		for ; free != 0; free &= free - 1 {
			c := bits.TrailingZeros32(free)
			n += walk(i+1, used|1<<uint(c), d1|1<<uint(rs[i]+c), d2|1<<uint(rs[i]-c+q-1))
		}
		return n
	}
	return walk(0, 0, 0, 0)
}

func binom(n, k int) float64 {
	if k < 0 || k > n {
		return 1
	}
	r := 1.0
	for i := 0; i < k; i++ {
		r = r * float64(n-i) / float64(i+1)
	}
	return r
}
