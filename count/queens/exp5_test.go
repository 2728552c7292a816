package queens

import (
	"testing"

	"github.com/nqcount/nqcount/count/queens/kernel"
)

func TestExpStatic(t *testing.T) {
	for _, n := range []int{13, 14, 15} {
		p, _ := NewPlan(n, Constellations, 0, 1)
		type h struct {
			name string
			f    func(n int, y border) int // lower better
		}
		hs := []h{
			{"corner-bottom", func(n int, y border) int { return min(y.b, n-1-y.b) }},
			{"cb,lateskip", func(n int, y border) int { return 4*n*min(y.b, n-1-y.b) - (y.l + y.q) }},
			{"cb,earlyskip", func(n int, y border) int { return 4*n*min(y.b, n-1-y.b) + (y.l + y.q) }},
			{"cb,ct", func(n int, y border) int { return 4*n*min(y.b, n-1-y.b) - min(y.a, n-1-y.a) }},
			{"cb,ctop-corner", func(n int, y border) int { return 4*n*min(y.b, n-1-y.b) + min(y.a, n-1-y.a) }},
			{"cb+lq", func(n int, y border) int { return 2*min(y.b, n-1-y.b) - min(y.l, y.q) }},
			{"cb+maxlq", func(n int, y border) int { return 2*min(y.b, n-1-y.b) - max(y.l, y.q) }},
		}
		res := make([]uint64, len(hs))
		var best uint64
		for _, task := range p.Tasks {
			var x border
			for _, q := range task.Queens() {
				if q[0] == 0 {
					x.a = q[1]
				}
				if q[0] == n-1 {
					x.b = q[1]
				}
				if q[1] == 0 {
					x.l = q[0]
				}
				if q[1] == n-1 {
					x.q = q[0]
				}
			}
			var full [4]uint64
			var ys [4]border
			mn := uint64(1 << 62)
			for g := 0; g < 4; g++ {
				y := x.image(n, g)
				ys[g] = y
				tt := Task{Weight: task.Weight}
				for _, q := range y.queens(n) {
					tt.place(q[0], q[1])
				}
				var f kernel.Frame
				tt.frame(n, &f)
				_, full[g] = kernel.Best().Count(&f)
				mn = min(mn, full[g])
			}
			best += mn
			for i, hh := range hs {
				bg, bv := 0, 1<<30
				for g := 0; g < 4; g++ {
					if v := hh.f(n, ys[g]); v < bv {
						bg, bv = g, v
					}
				}
				res[i] += full[bg]
			}
		}
		t.Logf("n=%d best=%d", n, best)
		for i, hh := range hs {
			t.Logf("   %-14s %d  %.3f", hh.name, res[i], float64(res[i])/float64(best))
		}
	}
}

func popc(x uint64) int {
	c := 0
	for x != 0 {
		x &= x - 1
		c++
	}
	return c
}
