package join

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/nqcount/nqcount/internal/cputime"
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
		b := newBlock()
		for m := 0; m <= 62; m++ {
			for trial := 0; trial < 3; trial++ {
				size := 1 + r.IntN(blockSize)
				if trial == 1 {
					size = 1 + r.IntN(blockSize/2)
				}
				pats := randomPatterns(r, size, m, 1+r.IntN(3))
				items := randomPatterns(r, r.IntN(70), m, 1+r.IntN(3))
				if trial == 0 {
					items = append(items, 0) // matches every pattern
				}
				want := naivePairs(pats, items)
				for _, lay := range familyLayouts(m) {
					k.build(b, pats, m, lay)
					if got := k.count(b, items); got != want {
						t.Fatalf("m=%d %v %d patterns %d items: %d, want %d", m, lay, len(pats), len(items), got, want)
					}
					// Blocks of at most half the patterns, by the half kernel.
					if len(pats) <= blockSize/2 {
						if got := k.half(b, items); got != want {
							t.Fatalf("half, m=%d %v %d patterns %d items: %d, want %d", m, lay, len(pats), len(items), got, want)
						}
					}
				}
			}
		}
		// Every pair matching, through many folds of the per-byte
		// counts and an odd last item: the counters' widest case.
		for _, size := range []int{blockSize, blockSize / 2} {
			zeros := make([]uint64, size)
			items := make([]uint64, 2001)
			for _, lay := range familyLayouts(40) {
				k.build(b, zeros, 40, lay)
				count := k.count
				if size <= blockSize/2 {
					count = k.half
				}
				for _, n := range []int{len(items), len(items) - 1, 61, 60, 59} {
					if got, want := count(b, items[:n]), uint64(size*n); got != want {
						t.Fatalf("all matching, %d patterns %d items %v: %d, want %d", size, n, lay, got, want)
					}
				}
			}
		}
		// Items with bits above m: the tables ignore them.
		pats := randomPatterns(r, 300, 20, 3)
		items := randomPatterns(r, 50, 20, 3)
		for i := range items {
			items[i] |= ^uint64(0) &^ (1<<20 - 1)
		}
		for _, lay := range familyLayouts(20) {
			k.build(b, pats, 20, lay)
			if got, want := k.count(b, items), naivePairsLow(pats, items, 20); got != want {
				t.Fatalf("high item bits, %v: %d, want %d", lay, got, want)
			}
		}
	})
}

// familyLayouts returns the layouts of m bits of both families.
func familyLayouts(m int) []layout {
	return []layout{layoutOf(m, 0), layoutOf(m, largeItems)}
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
// pairs tested per second, in each family's layout: full blocks, and half
// ones by the half kernel.
func BenchmarkKernels(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, m := range []int{28, 32, 36, 40} {
		pats := randomPatterns(r, blockSize, m, 3)
		items := randomPatterns(r, 4096, m, 3)
		for _, lay := range familyLayouts(m) {
			for _, size := range []int{blockSize, blockSize / 2} {
				blk := newBlock()
				buildGeneric(blk, pats[:size], m, lay)
				for _, k := range Kernels() {
					if !k.Supported() {
						continue
					}
					count, block := k.count, "full"
					if size < blockSize {
						count, block = k.half, "half"
					}
					b.Run(fmt.Sprintf("m=%d/bits=%d/block=%s/kernel=%s", m, lay.bits, block, k.Name), func(b *testing.B) {
						for b.Loop() {
							count(blk, items)
						}
						b.ReportMetric(float64(b.N)*float64(len(items)*size)/b.Elapsed().Seconds(), "pairs/s")
					})
				}
			}
		}
	}
}

// BenchmarkBuild measures building the tables of a full block in each
// family's layout.
func BenchmarkBuild(b *testing.B) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, m := range []int{30, 38} {
		pats := randomPatterns(r, blockSize, m, 3)
		for _, lay := range familyLayouts(m) {
			for _, k := range Kernels() {
				if !k.Supported() {
					continue
				}
				b.Run(fmt.Sprintf("m=%d/bits=%d/kernel=%s", m, lay.bits, k.Name), func(b *testing.B) {
					blk := newBlock()
					for b.Loop() {
						k.build(blk, pats, m, lay)
					}
				})
			}
		}
	}
}

// BenchmarkClassFilter measures keeping half a pass's half boards by
// their classes (8 top bits of a 9-bit key), per pattern.
func BenchmarkClassFilter(b *testing.B) {
	r := rand.New(rand.NewPCG(13, 14))
	const m = 40
	kr, _ := newKeyer([]int{10, 11, 12, 13, 14, 20, 21, 22, 23}, m)
	pats := randomPatterns(r, candFlush, m, 3)
	var in classSet
	for c := range in {
		in[c] = r.IntN(2) == 0
	}
	for _, k := range Kernels() {
		if !k.Supported() {
			continue
		}
		b.Run("kernel="+k.Name, func(b *testing.B) {
			var cf classFilter
			cf.reset(&kr, 1, m)
			cf.set(&in)
			out := make([]uint64, 0, len(pats))
			for b.Loop() {
				out = cf.appendIn(&k, out[:0], pats)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(pats)), "ns/pattern")
		})
	}
}

// TestKernelsFilterCross gives every kernel's filter and cross random
// lists of every length up to 40 (all the vector tails), against plain
// loops.
func TestKernelsFilterCross(t *testing.T) {
	impltest.Run(t, "join", Kernels(), describe, func(t *testing.T, k Kernel) {
		r := rand.New(rand.NewPCG(13, 14))
		pm := newPatMap(5, 5, 6, 3, 4, 11, 1<<11-1, 1<<11-1)
		for trial := 0; trial < 400; trial++ {
			n := r.IntN(41)
			src := make([]uint64, n)
			for i := range src {
				src[i] = r.Uint64() & (1<<22 - 1 | (1<<22-1)<<32)
			}
			att := uint64(1)<<uint(r.IntN(22)) | uint64(1)<<uint(32+r.IntN(22))
			if trial%5 == 0 {
				att = 0
			}
			var got entries
			got.reserve(n)
			kept := k.filter(&got, src, att, &pm)
			var want []uint64
			for _, y := range src {
				if y&att == 0 {
					c, p := pm.entry(y)
					want = append(want, c, p)
				}
			}
			if kept != len(want)/2 {
				t.Fatalf("filter of %d entries kept %d, want %d", n, kept, len(want)/2)
			}
			for i := 0; i < kept; i++ {
				if got.c[i] != want[2*i] || got.p[i] != want[2*i+1] {
					t.Fatalf("filter of %d entries: entry %d is (%#x, %#x), want (%#x, %#x)", n, i, got.c[i], got.p[i], want[2*i], want[2*i+1])
				}
			}
		}
		for trial := 0; trial < 400; trial++ {
			var a, b entries
			na, nb := 1+r.IntN(30), 1+r.IntN(30)
			if trial%3 == 0 {
				na, nb = nb, na
			}
			a.reserve(na)
			b.reserve(nb)
			for i := 0; i < na; i++ {
				a.c[i], a.p[i] = r.Uint64()&r.Uint64()&r.Uint64()>>1, r.Uint64()
			}
			for i := 0; i < nb; i++ {
				b.c[i], b.p[i] = r.Uint64()&r.Uint64()&r.Uint64()>>1, r.Uint64()
			}
			prefix := []uint64{1, 2, 3}[:r.IntN(4)]
			out := make([]uint64, len(prefix), len(prefix)+na*nb+vecPad)
			copy(out, prefix)
			out = k.cross(&a, na, &b, nb, out)
			want := slices.Clone(prefix)
			for i := 0; i < na; i++ {
				for j := 0; j < nb; j++ {
					if a.c[i]&b.c[j] == 0 {
						want = append(want, a.p[i]|b.p[j])
					}
				}
			}
			slices.Sort(out[len(prefix):])
			slices.Sort(want[len(prefix):])
			if !slices.Equal(out, want) {
				t.Fatalf("cross of %d by %d: %d patterns, want %d", na, nb, len(out), len(want))
			}
		}
	})
}

// plainHalves is halves' oracle: every pair of a north and a south
// entry on complementary columns, tested on their whole diagonals.
func plainHalves(f *frame, h *half, rt, rb uint32) []uint64 {
	var out []uint64
	k := bits.OnesCount32(rt)
	if k+bits.OnesCount32(rb) != bits.OnesCount32(h.cols) {
		return nil
	}
	pat := func(v1, v2 uint64) uint64 { return v1>>h.sh1&f.mask1 | (v2>>h.sh2&f.mask2)<<f.l1 }
	subsets(h.cols, k, func(c uint32) {
		for _, x := range f.north.list(rt, c) {
			if x&h.north != 0 {
				continue
			}
			for _, y := range f.south.list(rb, h.cols&^c) {
				if y&h.south != 0 {
					continue
				}
				x1, x2 := x&0xFFFFFFFF, x>>32
				y1, y2 := (y&0xFFFFFFFF)<<f.s, (y>>32)<<f.s
				if x1&y1|x2&y2 == 0 {
					out = append(out, pat(x1, x2)|pat(y1, y2))
				}
			}
		}
	})
	return out
}

// TestKernelsHalves makes the half boards of random frames and row sets
// with every kernel, against plainHalves.
func TestKernelsHalves(t *testing.T) {
	tables := map[[2]int]*quadTable{}
	table := func(h, q int) *quadTable {
		if tables[[2]int{h, q}] == nil {
			tables[[2]int{h, q}] = newQuadTable(h, q)
		}
		return tables[[2]int{h, q}]
	}
	plans := map[Geometry]*Layout{}
	impltest.Run(t, "join", Kernels(), describe, func(t *testing.T, k Kernel) {
		r := rand.New(rand.NewPCG(15, 16))
		s := &scratch{k: k}
		made := 0
		for trial := 0; trial < 1000; trial++ {
			n := 10 + r.IntN(4)
			gs := geometries(n)
			g := gs[r.IntN(len(gs))]
			p := plans[g]
			if p == nil {
				p, _ = NewLayout(g, 0)
				plans[g] = p
			}
			fr := p.Frames[r.IntN(len(p.Frames))]
			f, err := newFrame(fr.Board(n), g, table(g.HN, g.Q), table(g.HS, g.Q))
			if err != nil {
				t.Fatal(err)
			}
			for side := range f.sides {
				h := &f.sides[side]
				rt := uint32(r.Uint64()) & f.ft
				rb := randomSubset(r, f.fb, bits.OnesCount32(h.cols)-bits.OnesCount32(rt))
				got := f.halves(side, rt, rb, nil, s)
				want := plainHalves(f, h, rt, rb)
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("%s frame %+v side %d rows %b/%b: %d half boards, want %d", g, f.b, side, rt, rb, len(got), len(want))
				}
				made += len(got)
			}
		}
		if made < 10000 {
			t.Fatalf("only %d half boards made: the test tests too little", made)
		}
	})
}

// randomSubset returns a random k-element subset of set (0 when it has
// fewer).
func randomSubset(r *rand.Rand, set uint32, k int) uint32 {
	var pos []uint32
	for x := set; x != 0; x &= x - 1 {
		pos = append(pos, x&-x)
	}
	if k < 0 || k > len(pos) {
		return 0
	}
	r.Shuffle(len(pos), func(i, j int) { pos[i], pos[j] = pos[j], pos[i] })
	var sub uint32
	for _, b := range pos[:k] {
		sub |= b
	}
	return sub
}

// randomChosen returns random increasing pattern bits out of m, in at
// most keyRuns runs and at most maxIndexBits bits.
func randomChosen(r *rand.Rand, m int) []int {
	var chosen []int
	for range r.IntN(keyRuns + 1) {
		lo := r.IntN(m)
		for b := lo; b < min(m, lo+1+r.IntN(4)); b++ {
			if !slices.Contains(chosen, b) && len(chosen) < maxIndexBits {
				chosen = append(chosen, b)
			}
		}
	}
	slices.Sort(chosen)
	return chosen
}

// TestKeyer: a keyer's key is the chosen bits in order, its compacted
// pattern the others, bit by bit; more than keyRuns runs are refused.
func TestKeyer(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for trial := 0; trial < 2000; trial++ {
		m := 1 + r.IntN(62)
		chosen := randomChosen(r, m)
		kr, _ := newKeyer(chosen, m)
		p := r.Uint64() & (1<<uint(m) - 1)
		var key, rest uint64
		nk, nr := 0, 0
		for b := 0; b < m; b++ {
			if slices.Contains(chosen, b) {
				key |= p >> uint(b) & 1 << uint(nk)
				nk++
			} else {
				rest |= p >> uint(b) & 1 << uint(nr)
				nr++
			}
		}
		if got := kr.key(p); uint64(got) != key || kr.bits != len(chosen) {
			t.Fatalf("m=%d chosen %v: key of %#x is %#x, want %#x", m, chosen, p, got, key)
		}
		if got := kr.compact(p); got != rest {
			t.Fatalf("m=%d chosen %v: %#x compacted is %#x, want %#x", m, chosen, p, got, rest)
		}
	}
	if _, ok := newKeyer([]int{1, 3, 5, 7, 9}, 12); ok {
		t.Fatal("a key of 5 runs accepted")
	}
	if _, ok := newKeyer([]int{1, 3, 5, 7}, 10); !ok {
		t.Fatal("a key of 4 runs refused")
	}
}

// TestKernelsBucket sorts random patterns by random keys with every
// kernel's passes, against a plain sort by the keyer.
func TestKernelsBucket(t *testing.T) {
	impltest.Run(t, "join", Kernels(), describe, func(t *testing.T, k Kernel) {
		r := rand.New(rand.NewPCG(19, 20))
		var out []uint64
		var keys []uint32
		var start []int32
		for trial := 0; trial < 300; trial++ {
			m := 1 + r.IntN(62)
			chosen := randomChosen(r, m)
			kr, _ := newKeyer(chosen, m)
			pats := randomPatterns(r, r.IntN(2000), m, 1+r.IntN(6))
			nkeys := 1 << uint(len(chosen))
			out, keys, start = bucket(&k, &kr, pats, nkeys, out, keys, start)
			// Each bucket holds the compacted patterns of its key, in
			// the order of pats.
			for key := 0; key < nkeys; key++ {
				var want []uint64
				for _, p := range pats {
					if int(kr.key(p)) == key {
						want = append(want, kr.keyed(p))
					}
				}
				if got := out[start[key]:start[key+1]]; !slices.Equal(got, want) {
					t.Fatalf("m=%d chosen %v: bucket %d holds %d patterns, want %d", m, chosen, key, len(got), len(want))
				}
			}
			if int(start[nkeys]) != len(pats) {
				t.Fatalf("buckets end at %d, want %d", start[nkeys], len(pats))
			}
		}
	})
}

// TestKernelsClassFilter keeps random patterns by the top bits of random
// keys (the passes' classes) with every kernel's key pass, against the
// keyer's key read a pattern at a time.
func TestKernelsClassFilter(t *testing.T) {
	impltest.Run(t, "join", Kernels(), describe, func(t *testing.T, k Kernel) {
		r := rand.New(rand.NewPCG(29, 30))
		var cf classFilter
		for trial := 0; trial < 300; trial++ {
			m := 1 + r.IntN(62)
			chosen := randomChosen(r, m)
			kr, _ := newKeyer(chosen, m)
			shift := uint(max(0, kr.bits-1-r.IntN(passPrefix)))
			var in classSet
			for c := range 1 << uint(kr.bits-int(shift)) {
				in[c] = r.IntN(2) == 0
			}
			pats := randomPatterns(r, r.IntN(2000), m, 1+r.IntN(6))
			cf.reset(&kr, shift, m)
			cf.set(&in)
			prefix := []uint64{7, 8}
			got := cf.appendIn(&k, slices.Clone(prefix), pats)
			want := slices.Clone(prefix)
			for _, p := range pats {
				if in[kr.key(p)>>shift] {
					want = append(want, p)
				}
			}
			if !slices.Equal(got, want) {
				t.Fatalf("m=%d chosen %v shift %d: kept %d patterns, want %d", m, chosen, shift, len(got), len(want))
			}
		}
	})
}

// TestKernelsPairs counts the disjoint pairs of short random lists with
// every kernel, against naivePairs.
func TestKernelsPairs(t *testing.T) {
	impltest.Run(t, "join", Kernels(), describe, func(t *testing.T, k Kernel) {
		r := rand.New(rand.NewPCG(23, 24))
		for trial := 0; trial < 500; trial++ {
			m := 1 + r.IntN(62)
			e := randomPatterns(r, 1+r.IntN(70), m, 1+r.IntN(4))
			// Room beyond e (the kernels may read it), full of patterns
			// that would match.
			e = append(e, make([]uint64, vecPad)...)[:len(e)]
			w := randomPatterns(r, 1+r.IntN(30), m, 1+r.IntN(4))
			if got, want := k.pairs(e, w), naivePairs(e, w); got != want {
				t.Fatalf("%d by %d patterns of %d bits: %d pairs, want %d", len(e), len(w), m, got, want)
			}
		}
	})
}

// TestLayout: every pattern length gets, in each family, chunks covering
// its bits, the fewest whose tables stay within the family's budget (or
// narrow ones only), within the block; the generated kernels have a loop
// for each (count_amd64.s is generated from the same rule: go
// generate).
func TestLayout(t *testing.T) {
	src, err := os.ReadFile("count_amd64.s")
	if err != nil {
		t.Fatal(err)
	}
	for _, fam := range [][2]int{{smallBits, smallBudget}, {largeBits, largeBudget}} {
		bits, budget := fam[0], fam[1]
		bytes := func(nch, wide int) int { return (nch + wide) * 64 << bits }
		for m := 0; m <= 62; m++ {
			l := familyLayout(m, bits, budget)
			if (bits+1)*l.wide+bits*(l.nch-l.wide) < m || l.wide > l.nch || l.nch < 1 || l.nch > maxChunks || l.bits != bits {
				t.Fatalf("m=%d: %v does not cover it", m, l)
			}
			if l.wide > 0 && bytes(l.nch, l.wide) > budget {
				t.Errorf("m=%d: %v: %d bytes of tables", m, l, bytes(l.nch, l.wide))
			}
			for c := 1; c < l.nch; c++ {
				for w := 0; w <= c; w++ {
					if (bits+1)*w+bits*(c-w) >= m && bytes(c, w) <= budget {
						t.Errorf("m=%d: %d chunks (%d wide) would do, layout gives %v", m, c, w, l)
					}
				}
			}
			if l.entries() > tableEntries {
				t.Errorf("m=%d: %v ends at entry %d, beyond %d", m, l, l.entries(), tableEntries)
			}
			for _, loop := range []string{"countAVX512", "countHalfAVX512", "countAVX2", "countHalfAVX2"} {
				if text := fmt.Sprintf("\nTEXT ·%s_%d_%d_%d(SB)", loop, l.nch, l.bits, l.wide); !strings.Contains(string(src), text) {
					t.Errorf("count_amd64.s has no %s loop for %d bits (%v): _gen's families differ from match.go's", loop, m, l)
				}
			}
		}
	}
	if l := layoutOf(31, 0); l != (layout{nch: 5, bits: 6, wide: 1}) {
		t.Errorf("layoutOf(31, 0) = %v; want 5 chunks of 6 bits, 1 wide", l)
	}
	if l := layoutOf(32, largeItems); l != (layout{nch: 4, bits: 8, wide: 0}) {
		t.Errorf("layoutOf(32, %d) = %v; want 4 chunks of 8 bits", largeItems, l)
	}
}

// TestGeneratedKernels: the loops' assembly, stubs and Go table are what
// the generator (_gen, with avo) writes now, but for the command line in
// their first lines.
func TestGeneratedKernels(t *testing.T) {
	dir := t.TempDir()
	files := []string{"count_amd64.s", "count_stubs_amd64.go", "count_loops_amd64.go"}
	cmd := exec.Command("go", "run", ".", "-pkg", "join",
		"-out", filepath.Join(dir, files[0]), "-stubs", filepath.Join(dir, files[1]), "-loops", filepath.Join(dir, files[2]))
	cmd.Dir = "_gen"
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run ./_gen: %v\n%s", err, b)
	}
	body := func(file string) []byte {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if _, rest, ok := bytes.Cut(b, []byte("\n")); ok && bytes.HasPrefix(b, []byte("// Code generated")) {
			return rest
		}
		return b
	}
	for _, f := range files {
		if !bytes.Equal(body(f), body(filepath.Join(dir, f))) {
			t.Errorf("%s differs from what _gen writes: run go generate ./count/queens/join", f)
		}
	}
}

// blockAt returns a block whose tables start off bytes past a 64-byte
// boundary.
func blockAt(off uintptr) *block {
	buf := make([]entry, unsafe.Sizeof(block{})/unsafe.Sizeof(entry{})+2)
	p := unsafe.Pointer(&buf[0])
	return (*block)(unsafe.Add(p, (64-uintptr(p)%64)%64+off))
}

// TestNewBlockAligned: newBlock's tables start on a cache line.
func TestNewBlockAligned(t *testing.T) {
	for range 100 {
		if p := uintptr(unsafe.Pointer(&newBlock().t[0])); p%64 != 0 {
			t.Fatalf("block at %#x, %d past a line", p, p%64)
		}
	}
}

// TestKernelsUnaligned: every kernel counts the same on blocks off a
// cache line as on aligned ones.
func TestKernelsUnaligned(t *testing.T) {
	impltest.Run(t, "join", Kernels(), describe, func(t *testing.T, k Kernel) {
		r := rand.New(rand.NewPCG(21, 22))
		for _, m := range []int{20, 34, 45} {
			pats := randomPatterns(r, blockSize, m, 3)
			items := randomPatterns(r, 300, m, 3)
			for _, n := range []int{100, blockSize} {
				want := pairsGeneric(pats[:n], items)
				for i, off := range []uintptr{0, 8, 16, 24, 32, 48, 56} {
					blk := blockAt(off)
					k.build(blk, pats[:n], m, familyLayouts(m)[i%2])
					got := k.count(blk, items)
					if n <= blockSize/2 {
						if h := k.half(blk, items); h != want {
							t.Errorf("m=%d n=%d offset %d: half %d, want %d", m, n, off, h, want)
						}
					}
					if got != want {
						t.Errorf("m=%d n=%d offset %d: count %d, want %d", m, n, off, got, want)
					}
				}
			}
		}
	})
}

// BenchmarkBlockAlign measures each kernel's count on a full block whose
// tables start off bytes past a cache line, against an aligned one in the
// same loop on one thread: the CPU-time ratio is the price of the
// offset.
//
//	go test -run '^$' -bench BlockAlign -benchtime 100x ./count/queens/join
func BenchmarkBlockAlign(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	const m = 34
	pats := randomPatterns(r, blockSize, m, 3)
	items := randomPatterns(r, 4096, m, 3)
	for _, k := range Kernels() {
		if !k.Supported() {
			continue
		}
		for _, off := range []uintptr{8, 16, 32} {
			b.Run(fmt.Sprintf("kernel=%s/offset=%d", k.Name, off), func(b *testing.B) {
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				blks := []*block{newBlock(), blockAt(off)}
				for _, blk := range blks {
					k.build(blk, pats, m, layoutOf(m, len(items)))
				}
				var cpu [2]time.Duration
				for i := 0; b.Loop(); i++ {
					for j := range 2 {
						blk := blks[j^i&1]
						t0, _ := cputime.Thread()
						for range 20 {
							k.count(blk, items)
						}
						t1, _ := cputime.Thread()
						cpu[j^i&1] += t1 - t0
					}
				}
				b.ReportMetric(cpu[1].Seconds()/cpu[0].Seconds(), "offset/aligned")
			})
		}
	}
}

// TestKernelsDeepKeys joins random lists with keys of every depth from 0
// to maxIndexBits bits (in up to keyRuns runs), on every kernel, against
// the plain pair by pair count: buckets of every size, from many
// patterns a key to none, and the patterns compacted to m-k bits.
func TestKernelsDeepKeys(t *testing.T) {
	impltest.Run(t, "join", Kernels(), describe, func(t *testing.T, k Kernel) {
		r := rand.New(rand.NewPCG(41, 42))
		const m = 40
		gen := func(n int) []uint64 {
			out := make([]uint64, n)
			for i := range out {
				var p uint64
				for b := 0; b < m; b++ {
					if r.IntN(5) == 0 {
						p |= 1 << uint(b)
					}
				}
				out[i] = p
			}
			return out
		}
		s := &scratch{k: k}
		for depth := 0; depth <= maxIndexBits; depth++ {
			e, w := gen(600+r.IntN(2000)), gen(1+r.IntN(1500))
			// depth bits in up to keyRuns runs, from a random start.
			var chosen []int
			lo := r.IntN(4)
			for b := lo; len(chosen) < depth; b++ {
				chosen = append(chosen, b)
				if len(chosen)%7 == 0 {
					b += 2 // a gap: a new run
				}
			}
			kr, ok := newKeyer(chosen, m)
			if !ok || kr.bits != depth {
				t.Fatalf("depth %d: keyer of %v refused", depth, chosen)
			}
			got, err := s.joinKeyed(e, w, &kr, m)
			if err != nil {
				t.Fatal(err)
			}
			if want := pairsGeneric(e, w); got != want {
				t.Fatalf("depth %d (%d × %d patterns): %d pairs, want %d", depth, len(e), len(w), got, want)
			}
		}
	})
}

// TestKernelsTrie joins skewed random lists (some key bits taken by most
// patterns, others by few) through the trie, on every kernel, against
// the plain pair by pair count and the join bucket by bucket: the trie
// must merge sparse buckets into shallow leaves, keep dense ones deep and
// pack two children's last partial blocks together, and the test fails
// if the lists never make it do all three.
func TestKernelsTrie(t *testing.T) {
	impltest.Run(t, "join", Kernels(), describe, func(t *testing.T, k Kernel) {
		r := rand.New(rand.NewPCG(43, 44))
		const m = 44
		var shallow, deep, packed int
		for trial := range 8 {
			// Bit b taken with chance q[b]: key bits from rare to common.
			var q [m]float64
			for b := range q {
				q[b] = 0.02 + 0.4*r.Float64()
			}
			gen := func(n int) []uint64 {
				out := make([]uint64, n)
				for i := range out {
					var p uint64
					for b := 0; b < m; b++ {
						if r.Float64() < q[b] {
							p |= 1 << uint(b)
						}
					}
					out[i] = p
				}
				return out
			}
			e, w := gen(10000+r.IntN(20000)), gen(500+r.IntN(2500))
			depth := 3 + trial%5
			var chosen []int
			for b := 2; len(chosen) < depth; b++ {
				chosen = append(chosen, b)
			}
			kr, _ := newKeyer(chosen, m)
			s := &scratch{k: k}
			got, err := s.joinKeyed(e, w, &kr, m)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range s.tr.leaves {
				if l.part == leafTails {
					packed++
				}
				if l.d < depth {
					shallow++
				} else {
					deep++
				}
			}
			s.keep = make([]bool, 1<<uint(depth))
			for x := range s.keep {
				s.keep[x] = true
			}
			each, err := s.joinKeyed(e, w, &kr, m)
			if err != nil {
				t.Fatal(err)
			}
			want := pairsGeneric(e, w)
			if got != want || each != want {
				t.Fatalf("trial %d (k=%d, %d × %d): trie %d, bucket by bucket %d, want %d", trial, depth, len(e), len(w), got, each, want)
			}
		}
		if shallow == 0 || deep == 0 || packed == 0 {
			t.Fatalf("leaves: %d merged, %d at full depth, %d of packed tails: the lists never exercise all three", shallow, deep, packed)
		}
		t.Logf("leaves: %d merged, %d at full depth, %d of packed tails", shallow, deep, packed)
	})
}
