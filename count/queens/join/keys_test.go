package join

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// skewed returns n patterns of m bits, bit b set with a chance that
// falls away from the middle bits (as the shared diagonals' do).
func skewed(r *rand.Rand, n, m int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		var p uint64
		for b := range m {
			d := math.Abs(float64(b) - float64(m)/2)
			if r.Float64() < 0.45*math.Exp(-d/6) {
				p |= 1 << uint(b)
			}
		}
		out[i] = p
	}
	return out
}

// The depths' counts deepKeys folds from one count by the chosen order
// are, depth by depth, the counts by each depth's own keyer.
func TestDepthCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const m = 40
	pats := skewed(r, 30000, m)
	for _, top := range []int{1, 5, 12, 20} {
		order := r.Perm(m)[:top]
		oc := orderCounts(pats, order, nil)
		for j := top; j >= 1; j-- {
			if j < top {
				fold(oc, j)
			}
			list := slices.Clone(order[:j])
			slices.Sort(list)
			kr, ok := newKeyer(list, m)
			if !ok {
				continue
			}
			want := make([]uint32, 1<<uint(j))
			for _, p := range pats {
				want[kr.key(p)]++
			}
			if got := sortedCounts(oc[:1<<uint(j)], order[:j], nil); !slices.Equal(got, want) {
				t.Fatalf("top %d depth %d (order %v): counts differ from the keyer's", top, j, order[:j])
			}
		}
	}
}

// smoothedPlain is smoothed as it was written first: bucket by bucket
// from the patterns.
func smoothedPlain(pats []uint64, kr *keyer, g float64) []float64 {
	k := kr.bits
	j := k
	for j > 0 && float64(len(pats))/float64(uint(1)<<uint(j)) < smoothMin {
		j--
	}
	h := make([]float64, 1<<uint(k))
	if j == k {
		for _, p := range pats {
			h[kr.key(p)] += 1 / g
		}
		return h
	}
	fine := k - j
	coarse := make([]float64, 1<<uint(j))
	var ones [32]float64
	for _, p := range pats {
		x := kr.key(p)
		coarse[x>>uint(fine)] += 1 / g
		for b := range fine {
			ones[b] += float64(x >> uint(b) & 1)
		}
	}
	for c, v := range coarse {
		for y := range 1 << uint(fine) {
			sh := 1.0
			for b := range fine {
				q := ones[b] / float64(len(pats))
				if y>>uint(b)&1 != 0 {
					sh *= q
				} else {
					sh *= 1 - q
				}
			}
			h[c<<uint(fine)|y] = v * sh
		}
	}
	return h
}

// smoothed from counts agrees with the plain reading of the patterns,
// for samples rich and poor beside the buckets.
func TestSmoothed(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const m = 36
	kr, _ := newKeyer([]int{10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23}, m)
	for _, n := range []int{100, 5000, 1 << 20} {
		pats := skewed(r, n, m)
		got, want := smoothed(pats, &kr, 0.125), smoothedPlain(pats, &kr, 0.125)
		for x := range want {
			if math.Abs(got[x]-want[x]) > 1e-9*math.Max(1, want[x]) {
				t.Fatalf("n=%d bucket %d: %g, want %g", n, x, got[x], want[x])
			}
		}
	}
}

// deepKeysPlain is deepKeys as it was written first: each depth's
// buckets read from the samples by its own keyer.
func (s *scratch) deepKeysPlain(e, w []uint64, k, m int, fe, fw, de, dw float64) (keyer, float64) {
	top := min(k+3, maxIndexBits)
	order := s.chooseOrder(e, w, top, m, fe/de, fw/dw)
	ks := &s.ks
	ks.de = sampleN(e, ks.de[:0], depthSample(top))
	ks.dw = sampleN(w, ks.dw[:0], depthSample(top))
	ge := float64(len(ks.de)) / (float64(max(len(e), 1)) * fe) * de
	gw := float64(len(ks.dw)) / (float64(max(len(w), 1)) * fw) * dw
	var best keyer
	bestCost := math.Inf(1)
	for j := max(1, min(k, len(order))-depthTries); j <= len(order); j++ {
		list := slices.Clone(order[:j])
		slices.Sort(list)
		kr, ok := newKeyer(list, m)
		if !ok {
			continue
		}
		pw := s.projectJoin(smoothedPlain(ks.de, &kr, ge), smoothedPlain(ks.dw, &kr, gw), j, m)
		c := modelPrices.Cost(pw) * time.Duration(de*dw)
		if float64(c) < bestCost {
			best, bestCost = kr, float64(c)
		}
	}
	return best, bestCost
}

// deepKeys, which counts the samples once for every depth, chooses the
// key the plain weighing chooses, whole and in passes.
func TestDeepKeysPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	const m = 40
	for _, c := range []struct {
		ne, nw int
		k      int
		de, dw float64
	}{{1 << 17, 1 << 16, 12, 1, 1}, {1 << 18, 1 << 18, 14, 1, 4}, {3 << 16, 1 << 19, 16, 2, 1}} {
		e, w := skewed(r, c.ne, m), skewed(r, c.nw, m)
		var s, p scratch
		got, ok := s.deepKeys(e, w, c.k, m, maxIndexBits, 1, 1, c.de, c.dw)
		want, wantCost := p.deepKeysPlain(e, w, c.k, m, 1, 1, c.de, c.dw)
		if !ok {
			t.Fatalf("%+v: no key", c)
		}
		if got.chosen != want.chosen {
			t.Errorf("%+v: chose %d bits %x, the plain weighing %d bits %x (cost %g)", c, got.bits, got.chosen, want.bits, want.chosen, wantCost)
		}
	}
}

// costPlain is the key choice's cost as first written, a candidate at a
// time from the samples: it returns the kernels' work, in blocks times items, when bit b is
// key bit j beside the samples' keys so far; fe and fw are the patterns
// each sampled pattern stands for.
func (ks *keySample) costPlain(b, j int, fe, fw float64) float64 {
	n := 2 << uint(j)
	ks.he = resize(ks.he, n)
	ks.hw = resize(ks.hw, n)
	he, hw := ks.he, ks.hw
	clear(he)
	clear(hw)
	for i, p := range ks.e {
		he[ks.ke[i]|uint32(p>>uint(b)&1)<<uint(j)]++
	}
	for i, p := range ks.w {
		hw[ks.kw[i]|uint32(p>>uint(b)&1)<<uint(j)]++
	}
	// hw[x] becomes the items of every key within x.
	for i := 1; i < n; i <<= 1 {
		for x := range hw {
			if x&i != 0 {
				hw[x] += hw[x^i]
			}
		}
	}
	all := n - 1
	var total float64
	for x, c := range he {
		if c > 0 {
			total += blockCost(c*fe) * hw[all&^x]
		}
	}
	return total * fw
}

// keyBy sets the samples' keys to the bits of order, as chooseOrder keys
// them once it has chosen those bits.
func (ks *keySample) keyBy(order []int) {
	ks.ke, ks.kw = make([]uint32, len(ks.e)), make([]uint32, len(ks.w))
	for i, b := range order {
		for x, p := range ks.e {
			ks.ke[x] |= uint32(p>>uint(b)&1) << uint(i)
		}
		for x, p := range ks.w {
			ks.kw[x] |= uint32(p>>uint(b)&1) << uint(i)
		}
	}
}

// The costs of every candidate from one reading equal, to the last bit,
// those of the plain reading a candidate at a time.
func TestKeyCosts(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const m = 36
	for trial := range 30 {
		var ks keySample
		ks.e, ks.w = skewed(r, 1+r.IntN(2000), m), skewed(r, 1+r.IntN(2000), m)
		j := r.IntN(11)
		order := r.Perm(m)
		ks.keyBy(order[:j])
		cands := order[j : j+1+r.IntN(12)]
		fe, fw := 1+r.Float64()*100, 1+r.Float64()*100
		got := slices.Clone(ks.costs(cands, j, fe, fw, nil))
		for c, b := range cands {
			if want := ks.costPlain(b, j, fe, fw); got[c] != want {
				t.Fatalf("trial %d, j=%d, bit %d: %g, want %g", trial, j, b, got[c], want)
			}
		}
	}
}

// BenchmarkKeyCosts weighs ten candidate bits at depth j on samples of
// keySampleLen patterns a side, as chooseOrder does at each step: a
// candidate at a time (plain) or all from one reading.
func BenchmarkKeyCosts(b *testing.B) {
	r := rand.New(rand.NewPCG(13, 14))
	const m = 36
	for _, j := range []int{4, 8, 11} {
		var ks keySample
		ks.e, ks.w = skewed(r, keySampleLen, m), skewed(r, keySampleLen, m)
		order := r.Perm(m)
		ks.keyBy(order[:j])
		cands := order[j : j+10]
		b.Run(fmt.Sprintf("j=%d/impl=plain", j), func(b *testing.B) {
			for b.Loop() {
				for _, c := range cands {
					ks.costPlain(c, j, 3, 3)
				}
			}
		})
		var out []float64
		b.Run(fmt.Sprintf("j=%d/impl=one-reading", j), func(b *testing.B) {
			for b.Loop() {
				out = ks.costs(cands, j, 3, 3, out)
			}
		})
	}
}

// TestKeyBits joins long random lists (deep keys: buckets of four
// patterns, every join choosing its own) under caps of the index bits
// (frame.maxBits, what a worker's memory allows): every count is the
// uncapped one's, and no join takes more bits than its cap.
func TestKeyBits(t *testing.T) {
	defer func(b int, w float64) { indexMinBucket, keyChoiceWork = b, w }(indexMinBucket, keyChoiceWork)
	indexMinBucket, keyChoiceWork = 4, 0
	l, err := NewLayout(Cut(18), 0)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := NewCounter(l, Best(), CounterOptions{Bounded: true})
	f := c.frames[0]
	r := rand.New(rand.NewPCG(5, 6))
	e := randomPatterns(r, 200_000, f.m, 2)
	w := randomPatterns(r, 150_000, f.m, 2)
	join := func(cap int) (uint64, int) {
		defer func(v int) { f.maxBits = v }(f.maxBits)
		f.maxBits = cap
		s := &scratch{k: Best()}
		n, err := f.join(e, w, s)
		if err != nil {
			t.Fatal(err)
		}
		return n, s.stat.keyBits
	}
	want, deepest := join(MaxKeyBits)
	if deepest <= deepMin+1 {
		t.Fatalf("the uncapped join took %d index bits: too few for the caps to bind", deepest)
	}
	if direct := pairsGeneric(e[:20_000], w); direct == 0 {
		t.Fatal("no compatible pairs in the sample: the patterns are too dense for a test")
	}
	t.Logf("uncapped: %d index bits", deepest)
	for _, cap := range []int{1, 4, deepMin, deepMin + 1, deepest - 1} {
		got, bits := join(cap)
		if got != want {
			t.Errorf("cap %d: %d pairs, want %d", cap, got, want)
		}
		if bits > cap {
			t.Errorf("cap %d: the join took %d index bits", cap, bits)
		}
	}
}

// TestKeyBitsCount counts n = 16 on both paths (the bounded one in a
// small arena: passes) under caps of the index bits that bind there
// (uncapped, the passes take several bits; the table path's joins are
// keyless at n = 16): exact, and no join deeper than its cap.
func TestKeyBitsCount(t *testing.T) {
	defer func(b int, w float64) { indexMinBucket, keyChoiceWork = b, w }(indexMinBucket, keyChoiceWork)
	indexMinBucket, keyChoiceWork = 4, 0
	l, err := NewLayout(Cut(16), 0)
	if err != nil {
		t.Fatal(err)
	}
	k := Best()
	uncapped := 0
	for _, cap := range []int{MaxKeyBits, 1, 3} {
		for _, bounded := range []bool{false, true} {
			c, _ := NewCounter(l, k, CounterOptions{Bounded: bounded, Arena: 3 * arenaChunk, KeyBits: cap})
			if err := c.Prepare(t.Context(), nil); err != nil {
				t.Fatal(err)
			}
			var total uint64
			most := 0
			for _, tk := range l.Tasks() {
				f := c.frames[tk.Frame]
				var n uint64
				if bounded {
					b := &bscratch{k: k, capacity: 3 * arenaChunk, noLists: true, noSmall: true}
					n, err = f.countBounded(tk.Top, f.southSets(tk.Top, nil), b)
					most = max(most, b.ls.stat.keyBits)
				} else {
					s := &scratch{k: k}
					n, err = f.countTop(tk.Top, s)
					most = max(most, s.stat.keyBits)
				}
				if err != nil {
					t.Fatal(err)
				}
				total += n * l.Frames[tk.Frame].Weight
			}
			if total != known[16] {
				t.Errorf("cap %d bounded %v: %d, want %d", cap, bounded, total, known[16])
			}
			if most > cap {
				t.Errorf("cap %d bounded %v: a join took %d index bits", cap, bounded, most)
			}
			t.Logf("cap %d bounded %v: the deepest join %d bits", cap, bounded, most)
			if bounded && cap == MaxKeyBits {
				uncapped = most
				if uncapped <= 3 {
					t.Fatalf("uncapped, the passes' deepest join took %d index bits: too few for the caps to bind", uncapped)
				}
			}
		}
	}
}

// TestOtherClasses counts n = 14 in passes with deep keys forced
// on their short lists (depth weighed from 4 bits on, buckets of four
// patterns) in arenas so small that the other side's needed classes do
// not fit in one piece: it is made again for each group of whole classes
// (otherGroups), and the counts stay exact.
func TestOtherClasses(t *testing.T) {
	defer func(b, d int, w float64) { indexMinBucket, deepMin, keyChoiceWork = b, d, w }(indexMinBucket, deepMin, keyChoiceWork)
	indexMinBucket, deepMin, keyChoiceWork = 4, 4, 0
	k := Best()
	for _, n := range []int{14} {
		l, err := NewLayout(Cut(n), 0)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := NewCounter(l, k, CounterOptions{Bounded: true})
		for _, capacity := range []int{4 * arenaChunk} {
			b := &bscratch{k: k, capacity: capacity, noLists: true, noSmall: true}
			var total uint64
			for _, tk := range l.Tasks() {
				f := c.frames[tk.Frame]
				got, err := f.countBounded(tk.Top, f.southSets(tk.Top, nil), b)
				if err != nil {
					t.Fatal(err)
				}
				total += got * l.Frames[tk.Frame].Weight
			}
			if total != known[n] {
				t.Errorf("n=%d capacity %d: %d, want %d", n, capacity, total, known[n])
			}
			t.Logf("n=%d capacity %d: %d row sets in passes, %d groups of the other side's classes", n, capacity, b.passed, b.classed)
			if b.classed == 0 {
				t.Errorf("n=%d capacity %d: no other side cut by classes", n, capacity)
			}
		}
	}
}

// chooseKeys weighs the join at the lists' scale: on a list and on the
// sample of it that the choice itself would take, each sampled pattern
// standing for the patterns it stands for in the list, it chooses the
// same bits (a sample unweighted looks like a short list, whose buckets
// leave blocks half empty, and takes other keys).
func TestChooseKeysWeighted(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	const m = 40
	differ := 0
	for _, c := range []struct{ ne, nw, k int }{{1 << 16, 1 << 15, 6}, {1 << 17, 1 << 17, 7}, {1 << 15, 1 << 17, 5}, {1 << 18, 1 << 20, 8}} {
		e, w := skewed(r, c.ne, m), skewed(r, c.nw, m)
		var s scratch
		whole, ok := s.chooseKeys(e, w, c.k, m, 1, 1)
		if !ok {
			t.Fatalf("%+v: no key", c)
		}
		se, fe := sample(e, nil)
		sw, fw := sample(w, nil)
		got, _ := s.chooseKeys(se, sw, c.k, m, fe, fw)
		if got.chosen != whole.chosen {
			t.Errorf("%+v: on the samples weighted %x, on the lists %x", c, got.chosen, whole.chosen)
		}
		if bare, _ := s.chooseKeys(se, sw, c.k, m, 1, 1); bare.chosen != whole.chosen {
			differ++
		}
	}
	if differ == 0 {
		t.Errorf("the samples unweighted chose the lists' bits every time: the test cannot tell weights from none")
	}
}
