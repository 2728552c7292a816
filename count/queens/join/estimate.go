package join

import (
	"math"
	"math/bits"
)

// Estimates returns a cheap estimate of each task's cost, in about
// nanoseconds of one core: what shards are balanced by and progress is
// weighted by. A task (a frame and the north rows rt of its east queens)
// makes, for every south row set rb, the east half boards from about
// pE = Σ_C |NE(rt, C)|·|SE(rb, ce\C)| candidate pairs of table entries,
// the west ones from pW, and joins lists whose sizes are proportional to
// those. The estimate takes the rb-average of the product as the product
// of the averages, and ignores the squares the frame attacks, so it
// costs one pass over the tables' counts per frame.
func (p *Plan) Estimates() []uint64 {
	g := p.Geometry
	cn := quadCounts(g.HN, g.Q)
	cs := cn
	if g.HS != g.HN {
		cs = quadCounts(g.HS, g.Q)
	}
	est := make([]uint64, len(p.Tasks))
	north, south := &quadTable{h: g.HN, q: g.Q, start: cn}, &quadTable{h: g.HS, q: g.Q, start: cs}
	var cur = -1
	var e frameEst
	for id, t := range p.Tasks {
		if t.Frame != cur {
			cur = t.Frame
			f, err := newFrame(p.Frames[t.Frame].Board(g.N), g, north, south)
			if err != nil {
				continue
			}
			e = newFrameEst(f, cn, cs)
		}
		est[id] = e.task(t.Top)
	}
	return est
}

// frameEst holds a frame's sums of table counts.
type frameEst struct {
	f  *frame
	cn []uint32
	// sums[side][k]: Σ over south row sets rb of size k and column sets C
	// of size k of the side's free columns, of count(rb, C).
	sums [2][MaxN]float64
	// sets[k]: the number of south row sets of size k.
	sets [MaxN]float64
}

func newFrameEst(f *frame, cn, cs []uint32) frameEst {
	e := frameEst{f: f, cn: cn}
	hs, q := uint(f.g.HS), uint(f.q)
	for k := uint32(0); k < 1<<(hs+q); k++ {
		rows, cols := k&(1<<hs-1), k>>hs
		if rows&^f.fb != 0 || cs[k] == 0 {
			continue
		}
		c := float64(cs[k])
		if cols&^f.cw == 0 {
			e.sums[0][bits.OnesCount32(rows)] += c
		}
		if cols&^f.ce == 0 {
			e.sums[1][bits.OnesCount32(rows)] += c
		}
	}
	for rb := uint32(0); ; rb = (rb - f.fb) & f.fb {
		e.sets[bits.OnesCount32(rb)]++
		if rb == f.fb {
			break
		}
	}
	return e
}

// north returns Σ_C count(rt, C) over the column sets C of the side's
// free columns cols with |C| = |rt|.
func (e *frameEst) north(rt, cols uint32) float64 {
	var s float64
	h := uint(e.f.g.HN)
	subsets(cols, bits.OnesCount32(rt), func(c uint32) { s += float64(e.cn[rt|c<<h]) })
	return s
}

// Unit costs, in nanoseconds of one core: a candidate pair of table
// entries when making half boards, and a pair of candidate products
// when joining (the join tests about one pair in 2.5² of those products,
// a few hundred per nanosecond, after the index bits dropped most).
const (
	estMake = 4.0
	estJoin = 4.0 / 5000
)

func (e *frameEst) task(rt uint32) uint64 {
	f := e.f
	ke := bits.OnesCount32(f.ce) - bits.OnesCount32(rt)
	kw := bits.OnesCount32(f.fb) - ke
	rw := f.ft &^ rt
	if ke < 0 || kw < 0 || e.sets[ke] == 0 {
		return 1
	}
	// A north entry on columns C pairs with south entries on ce\C only:
	// one column set of the C(|ce|, ke) the sums run over.
	pe := e.north(rt, f.ce) * e.sums[1][ke] / binom(bits.OnesCount32(f.ce), ke)
	pw := e.north(rw, f.cw) * e.sums[0][kw] / binom(bits.OnesCount32(f.cw), kw)
	x := estMake*(pe+pw) + estJoin*pe*pw/e.sets[ke]
	if f.lr || f.ud {
		x /= 2 // mirror classes: about every other row set counted
	}
	return uint64(math.Min(x, 1<<62)) + 1
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
