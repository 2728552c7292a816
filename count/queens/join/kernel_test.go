package join

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/nqcount/nqcount/internal/impltest"
)

func describe(k Kernel) impltest.Impl {
	return impltest.Impl{Name: k.Name, Supported: k.Supported(), Why: "needs " + k.Doc}
}

// naivePairs is the matcher's oracle: every pair tested on its own.
func naivePairs(pats, items []uint64) uint64 {
	var n uint64
	for _, w := range items {
		for _, e := range pats {
			if w&e == 0 {
				n++
			}
		}
	}
	return n
}

// randomPatterns makes k patterns of m bits, each bit set with
// probability about p/8.
func randomPatterns(r *rand.Rand, k, m, p int) []uint64 {
	out := make([]uint64, k)
	for i := range out {
		var x uint64
		for b := 0; b < m; b++ {
			if r.IntN(8) < p {
				x |= 1 << uint(b)
			}
		}
		out[i] = x
	}
	return out
}

// TestKernelsCountBlocks gives every kernel random blocks of every chunk
// count and random items, against the pair-by-pair count.
func TestKernelsCountBlocks(t *testing.T) {
	impltest.Run(t, "join", Kernels(), describe, func(t *testing.T, k Kernel) {
		r := rand.New(rand.NewPCG(5, 6))
		var b block
		for m := 0; m <= 62; m++ {
			for trial := 0; trial < 3; trial++ {
				pats := randomPatterns(r, 1+r.IntN(blockSize), m, 1+r.IntN(3))
				items := randomPatterns(r, r.IntN(40), m, 1+r.IntN(3))
				if trial == 0 {
					items = append(items, 0) // matches every pattern
				}
				k.build(&b, pats, m)
				if got, want := k.count(&b, items), naivePairs(pats, items); got != want {
					t.Fatalf("m=%d %d patterns %d items: %d, want %d", m, len(pats), len(items), got, want)
				}
			}
		}
		// Items with bits above m: the tables ignore them.
		pats := randomPatterns(r, 300, 20, 3)
		k.build(&b, pats, 20)
		items := randomPatterns(r, 50, 20, 3)
		for i := range items {
			items[i] |= ^uint64(0) &^ (1<<20 - 1)
		}
		if got, want := k.count(&b, items), naivePairsLow(pats, items, 20); got != want {
			t.Fatalf("high item bits: %d, want %d", got, want)
		}
	})
}

func naivePairsLow(pats, items []uint64, m int) uint64 {
	mask := uint64(1)<<uint(m) - 1
	var n uint64
	for _, w := range items {
		for _, e := range pats {
			if w&e&mask == 0 {
				n++
			}
		}
	}
	return n
}

func TestTranspose64(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var a, b [64]uint64
	for i := range a {
		a[i] = r.Uint64()
	}
	b = a
	transpose64(&b)
	for i := 0; i < 64; i++ {
		for j := 0; j < 64; j++ {
			if a[i]>>uint(j)&1 != b[j]>>uint(i)&1 {
				t.Fatalf("bit %d of row %d", j, i)
			}
		}
	}
}

// BenchmarkKernels measures each kernel on one block and 4096 items, in
// pairs tested per second.
func BenchmarkKernels(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, m := range []int{30, 36} {
		var blk block
		buildGeneric(&blk, randomPatterns(r, blockSize, m, 3), m)
		items := randomPatterns(r, 4096, m, 3)
		for _, k := range Kernels() {
			if !k.Supported() {
				continue
			}
			b.Run(fmt.Sprintf("m=%d/kernel=%s", m, k.Name), func(b *testing.B) {
				for b.Loop() {
					k.count(&blk, items)
				}
				b.ReportMetric(float64(b.N)*float64(len(items)*blockSize)/b.Elapsed().Seconds(), "pairs/s")
			})
		}
	}
}

// BenchmarkBuild measures building the tables of a full block.
func BenchmarkBuild(b *testing.B) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, m := range []int{30, 38} {
		pats := randomPatterns(r, blockSize, m, 3)
		for _, k := range Kernels() {
			if !k.Supported() {
				continue
			}
			b.Run(fmt.Sprintf("m=%d/kernel=%s", m, k.Name), func(b *testing.B) {
				var blk block
				for b.Loop() {
					k.build(&blk, pats, m)
				}
			})
		}
	}
}
