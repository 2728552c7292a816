package join

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/nqcount/nqcount/internal/cputime"
	"github.com/nqcount/nqcount/internal/impltest"
)

// TestProjectJoin: the Work projected from the buckets' sizes alone is
// the Work the join counts as it runs, for keys of every depth and lists
// of every shape (direct buckets, half blocks, both layout families).
func TestProjectJoin(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const m = 36
	gen := func(n int, p int) []uint64 {
		out := make([]uint64, n)
		for i := range out {
			var x uint64
			for b := 0; b < m; b++ {
				if r.IntN(p) == 0 {
					x |= 1 << uint(b)
				}
			}
			out[i] = x
		}
		return out
	}
	for trial := range 40 {
		k := trial % 11
		e, w := gen(100+r.IntN(40000), 2+r.IntN(6)), gen(1+r.IntN(9000), 2+r.IntN(6))
		if len(e) < len(w) {
			e, w = w, e
		}
		chosen := make([]int, k)
		for i := range chosen {
			chosen[i] = 3 + i
		}
		kr, _ := newKeyer(chosen, m)
		s := &scratch{k: Best()}
		if _, err := s.joinKeyed(e, w, &kr, m); err != nil {
			t.Fatal(err)
		}
		got := s.stat.work()
		he, hw := make([]float64, 1<<uint(k)), make([]float64, 1<<uint(k))
		for _, p := range e {
			he[kr.key(p)]++
		}
		for _, p := range w {
			hw[kr.key(p)]++
		}
		want := (&scratch{}).projectJoin(he, hw, k, m)
		want.Sorted = got.Sorted
		if k > 0 && got.Sorted != float64(len(e)+len(w)) {
			t.Fatalf("trial %d: sorted %g, want %d", trial, got.Sorted, len(e)+len(w))
		}
		if got != want {
			t.Fatalf("trial %d (k=%d, %d × %d): counted %+v, projected %+v", trial, k, len(e), len(w), got, want)
		}
	}
}

// TestCalibrate: every price is positive and finite, on every kernel.
func TestCalibrate(t *testing.T) {
	impltest.Run(t, "join", Kernels(), describe, func(t *testing.T, k Kernel) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		p := Calibrate(k, func() time.Duration { d, _ := cputime.Thread(); return d })
		for name, v := range map[string]float64{"rows": p.Rows, "halves": p.Halves, "sorted": p.Sorted, "small": p.Small,
			"large": p.Large, "half": p.Half, "builds": p.Builds, "direct": p.Direct, "steps": p.Steps, "key choice": p.Weighed} {
			if !(v > 0) || math.IsInf(v, 0) {
				t.Errorf("price of %s: %g ns", name, v)
			}
		}
		t.Logf("%s: %+v", k.Name, p)
	})
}
