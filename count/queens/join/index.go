package join

import (
	"math/bits"
	"slices"
	"sort"
	"time"
)

// The join cuts both lists of a row set by a few index bits: pattern bits
// of the diagonals most likely taken on both sides. Only buckets whose
// index bits are disjoint can hold compatible pairs, so the kernels test
// only those; the bits tested stay in the patterns (they are disjoint in
// every pair tested, so they never change an answer).

// maxIndexBits bounds the index bits: 2^20 buckets per side. The bits a
// join takes grow with its lists (indexBits, and deepKeys weighs up to
// three more): each bit more both prunes about a quarter of the pairs
// left and, compacted out, shortens the patterns. Past 20 they no longer
// pay at n = 28 (RESULTS.md). A count's own bound (frame.maxBits,
// CounterOptions.KeyBits) is what its workers' memory allows
// (KeyMemory).
const maxIndexBits = 20

// keyBytes is about what a worker holds per index key of its deepest
// joins: the buckets' starts of both lists (8 bytes), the trie's sizes,
// subset sums, costs and choices over every depth (54), the depth
// weighing's counts and sizes (32), and the passes' key histograms (18).
const keyBytes = 112

// KeyMemory returns about the bytes a counting worker holds for joins of
// at most bits index bits (their arrays by key, kept between joins).
func KeyMemory(bits int) uint64 { return keyBytes << uint(bits) }

// streamMaxBits bounds the index bits of the streaming join, whose
// staging blocks take 4 KiB a key.
const streamMaxBits = 12

// indexMinBucket is the average bucket size below which a list gets no
// more index bits: smaller buckets waste the kernels' 512-pattern blocks
// on padding and cost more table builds. Measured at n = 18 (items run
// through blocks, and blocks built): 256 to 512 per bucket cost 10% less
// than 1024 and 20% less than 2048; 128 costs more again. Choosing the
// index bits by a greedy search on a sample of the lists instead of by
// the geometric estimate in initKeys made 10% more work. A variable so
// that tests can force small buckets.
var indexMinBucket = blockSize

// indexMaxBits is the most index bits a join uses, maxIndexBits (a
// variable for experiments and tests).
var indexMaxBits = maxIndexBits

// keyer extracts a key from chosen bits of a pattern, as up to keyRuns
// runs of consecutive bits, and compacts a pattern: the bits not chosen,
// moved down over the chosen ones. The join needs no chosen bit in the
// patterns it gives the kernels, since they are disjoint in every pair it
// tests: compacted patterns are shorter, and take fewer table lookups.
type keyer struct {
	bits int // bits chosen
	// The chosen bits and the others of the m, as masks (for PEXT).
	chosen, others uint64
	in             [keyRuns]run     // the runs, to their places in the key
	rest           [keyRuns + 1]run // the runs between them, to theirs in the compacted pattern
	// top is where the key goes in a bucketed pattern (keyed): above
	// the compacted bits, m-bits.
	top uint64
}

// keyRuns is the most runs a key takes: the likeliest shared diagonals
// are the middle ones of each kind, so two runs are the rule, and deep
// keys take a third or fourth.
const keyRuns = 4

type run struct {
	shift, to uint64
	mask      uint64
}

// key returns the chosen bits of p.
func (k *keyer) key(p uint64) uint32 {
	r := &k.in
	return uint32((p>>(r[0].shift&63)&r[0].mask)<<(r[0].to&63) |
		(p>>(r[1].shift&63)&r[1].mask)<<(r[1].to&63) |
		(p>>(r[2].shift&63)&r[2].mask)<<(r[2].to&63) |
		(p>>(r[3].shift&63)&r[3].mask)<<(r[3].to&63))
}

// compact returns p without its chosen bits.
func (k *keyer) compact(p uint64) uint64 {
	r := &k.rest
	return (p>>(r[0].shift&63)&r[0].mask)<<(r[0].to&63) |
		(p>>(r[1].shift&63)&r[1].mask)<<(r[1].to&63) |
		(p>>(r[2].shift&63)&r[2].mask)<<(r[2].to&63) |
		(p>>(r[3].shift&63)&r[3].mask)<<(r[3].to&63) |
		(p>>(r[4].shift&63)&r[4].mask)<<(r[4].to&63)
}

// newKeyer returns the keyer of the pattern bits chosen (increasing) out
// of m, or false when they take more than keyRuns runs.
func newKeyer(chosen []int, m int) (keyer, bool) {
	kr := keyer{bits: len(chosen)}
	n, to, from := 0, 0, 0 // runs, next key bit, first bit not yet compacted
	for i := 0; i < len(chosen); {
		j := i + 1
		for j < len(chosen) && chosen[j] == chosen[j-1]+1 {
			j++
		}
		if n == keyRuns {
			return keyer{}, false
		}
		lo, w := chosen[i], j-i
		kr.in[n] = run{shift: uint64(lo), to: uint64(i), mask: uint64(1)<<uint(w) - 1}
		kr.rest[n] = run{shift: uint64(from), to: uint64(from - to), mask: uint64(1)<<uint(lo-from) - 1}
		n++
		to += w
		from = lo + w
		i = j
	}
	kr.rest[n] = run{shift: uint64(from), to: uint64(from - to), mask: uint64(1)<<uint(max(m-from, 0)) - 1}
	for _, b := range chosen {
		kr.chosen |= 1 << uint(b)
	}
	kr.others = (uint64(1)<<uint(m) - 1) &^ kr.chosen
	kr.top = uint64(max(m-len(chosen), 0))
	return kr, true
}

// initKeys chooses the index bits of f: the pattern bits with the largest
// product of the chances that an east and a west half board take the
// diagonal, each column's queen taken on any free square of it alike.
func (f *frame) initKeys(lo1, lo2 int) {
	for i := range f.sides {
		h := &f.sides[i]
		h.id = halfIDs.Add(1)
		h.pn = newPatMap(0, f.s, uint(f.q), h.sh1, h.sh2, f.l1, f.mask1, f.mask2)
		h.ps = newPatMap(f.s, f.s, uint(f.q), h.sh1, h.sh2, f.l1, f.mask1, f.mask2)
	}
	n := f.n
	l1 := int(f.l1)
	var p [2][64]float64 // side (0 west, 1 east), pattern bit
	for c := 0; c < n; c++ {
		if f.b.Cols>>uint(c)&1 == 0 {
			continue
		}
		sd := 0
		if c >= f.q {
			sd = 1
		}
		free := 0
		for r := 0; r < n; r++ {
			if f.b.Free(r, c) {
				free++
			}
		}
		for r := 0; r < n; r++ {
			if !f.b.Free(r, c) {
				continue
			}
			if d := r + c - lo1; d >= 0 && d < l1 {
				p[sd][d] += 1 / float64(free)
			}
			if d := r - c + n - 1 - lo2; d >= 0 && d < f.m-l1 {
				p[sd][l1+d] += 1 / float64(free)
			}
		}
	}
	type cand struct {
		bit   int
		score float64
	}
	var cs []cand
	for b := 0; b < f.m; b++ {
		if sc := p[0][b] * p[1][b]; sc > 0 {
			cs = append(cs, cand{b, sc})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].score > cs[j].score })
	// Each key takes the best bits that keep it to keyRuns runs.
	var chosen []int
	f.keys[0], _ = newKeyer(nil, f.m)
	for k := 1; k <= maxIndexBits; k++ {
		f.keys[k] = f.keys[k-1]
		for len(cs) > 0 {
			c := cs[0]
			cs = cs[1:]
			try := append(slices.Clone(chosen), c.bit)
			slices.Sort(try)
			if kr, ok := newKeyer(try, f.m); ok {
				chosen, f.keys[k] = try, kr
				break
			}
		}
	}
}

// indexBits chooses how many index bits the join of a list of size
// size uses: as many as keep the average bucket to a few blocks.
func (f *frame) indexBits(size int) int {
	k := 0
	for k < min(indexMaxBits, f.maxBits) && f.keys[k+1].bits > k && size>>uint(k+1) >= indexMinBucket {
		k++
	}
	return k
}

// directMax is the longest bucket the join counts pair by pair
// (Kernel.pairs) rather than through a block of 512 patterns, whose
// tables cost a few thousand instructions to build and whose lookups an
// item costs the same for 1 pattern as for 512.
var directMax = 48

// join counts the compatible pairs of e and w: the longer list is cut
// into blocks, the other runs through them as items; both are cut by
// index bits first, as many as keep the blocks' buckets full. A long
// join chooses its own index bits (chooseKeys); a short one takes the
// frame's.
func (f *frame) join(e, w []uint64, s *scratch) (uint64, error) {
	if len(e) < len(w) {
		e, w = w, e
	}
	return s.joinKeyed(e, w, f.joinKeys(e, w, s), f.m)
}

// joinKeys returns the index bits of the join of e (the longer list)
// and w: as many as indexBits gives e, chosen on samples of both lists
// when the join is long (s.kr then holds them), else the frame's.
func (f *frame) joinKeys(e, w []uint64, s *scratch) *keyer {
	k := f.indexBits(len(e))
	if k > 0 && f.keylessCheaper(len(e), len(w), s) {
		k = 0
	}
	kr := &f.keys[k]
	if k > 0 && float64(len(e))*float64(len(w)) >= keyChoiceWork {
		var ok bool
		if s.kr, ok = s.joinBits(e, w, k, f.m, f.maxBits, 1, 1, 1, 1); ok {
			kr = &s.kr
		}
	}
	return kr
}

// keylessCheaper reports whether the join of lists of ne (the longer)
// and nw patterns costs less, at modelPrices, with no index bits than the
// sorting alone of both lists by keys would: a short list against a long
// one (the diagonal symmetry's small classes against the others) is
// cheaper run through the long one's blocks unsorted.
func (f *frame) keylessCheaper(ne, nw int, s *scratch) bool {
	sorting := modelPrices.Sorted * float64(ne+nw)
	if modelPrices.Large*float64(nw)*float64(ne)/blockSize > 4*sorting {
		return false // far dearer unkeyed, whatever the layout
	}
	return s.unkeyedCost(float64(ne), float64(nw), f.m) < time.Duration(sorting)
}

// unkeyedCost is the cost at modelPrices of joining blocks patterns of m
// bits, cut into blocks, with items run through them, with no index bits.
func (s *scratch) unkeyedCost(blocks, items float64, m int) time.Duration {
	s.tr.hb, s.tr.hi = append(s.tr.hb[:0], blocks), append(s.tr.hi[:0], items)
	return modelPrices.Cost(s.tr.plan(s.tr.hb, s.tr.hi, 0, m))
}

// joinKeyed counts the compatible pairs of e and w, patterns of m bits,
// cut by the index bits of kr: the longer list into blocks.
func (s *scratch) joinKeyed(e, w []uint64, kr *keyer, m int) (uint64, error) {
	if len(e) < len(w) {
		e, w = w, e
	}
	k := kr.bits
	if k == 0 {
		s.ce = append(s.ce[:0], 0, int32(len(e)))
		s.cw = append(s.cw[:0], 0, int32(len(w)))
		return s.joinBuckets(e, s.ce, w, s.cw, 0, m)
	}
	nkeys := 1 << uint(k)
	s.ie, s.ke, s.ce = bucket(&s.k, kr, e, nkeys, s.ie, s.ke, s.ce)
	s.iw, s.kw, s.cw = bucket(&s.k, kr, w, nkeys, s.iw, s.kw, s.cw)
	s.stat.sorted += uint64(len(e) + len(w))
	return s.joinBuckets(s.ie, s.ce, s.iw, s.cw, k, m)
}

// joinBuckets counts the compatible pairs of e and w, bucketed by k key
// bits (ce and cw their buckets' starts) and keyed (m bits with the
// key), e's cut into blocks by the trie of least Work (see trie); with
// keep set (the estimator's sample), bucket by bucket.
func (s *scratch) joinBuckets(e []uint64, ce []int32, w []uint64, cw []int32, k, m int) (uint64, error) {
	s.stat.keyBits = max(s.stat.keyBits, k)
	if s.keep != nil || k == 0 {
		return s.joinEach(e, ce, w, cw, k, m)
	}
	var total uint64
	t := &s.tr
	t.hb, t.hi = resize(t.hb, 1<<uint(k)), resize(t.hi, 1<<uint(k))
	for x := range t.hb {
		t.hb[x] = float64(ce[x+1] - ce[x])
		t.hi[x] = float64(cw[x+1] - cw[x])
	}
	t.plan(t.hb, t.hi, k, m)
	for _, l := range t.leaves {
		n, err := s.joinLeaf(e, ce, w, cw, k, m, l)
		total += n
		if err != nil {
			return 0, err
		}
	}
	return total, nil
}

// joinEach is joinBuckets bucket by bucket, those that s.keep keeps
// when it is set.
func (s *scratch) joinEach(e []uint64, ce []int32, w []uint64, cw []int32, k, m int) (uint64, error) {
	var total uint64
	for x := 0; x < 1<<uint(k); x++ {
		if s.keep != nil && !s.keep[x] {
			continue
		}
		n, err := s.joinLeaf(e, ce, w, cw, k, m, leaf{k, x, leafWhole})
		total += n
		if err != nil {
			return 0, err
		}
	}
	return total, nil
}

// joinLeaf counts the compatible pairs of e's patterns in leaf l of the
// trie of joinBuckets with w's whose keys' top l.d bits are disjoint
// from l.x, the leaf's patterns cut into blocks of their m-l.d low bits.
func (s *scratch) joinLeaf(e []uint64, ce []int32, w []uint64, cw []int32, k, m int, l leaf) (uint64, error) {
	sh := uint(k - l.d)
	ex := e[ce[l.x<<sh]:ce[(l.x+1)<<sh]]
	switch l.part {
	case leafFull:
		ex = ex[:len(ex)/blockSize*blockSize]
	case leafTails:
		// The children's last partial blocks, together.
		mid := ce[(2*l.x+1)<<(sh-1)] - ce[l.x<<sh]
		e0, e1 := ex[:mid], ex[mid:]
		t0, t1 := e0[len(e0)/blockSize*blockSize:], e1[len(e1)/blockSize*blockSize:]
		s.tails = resize(s.tails, len(t0)+len(t1)+vecPad) // the kernels may read beyond
		copy(s.tails, t0)
		copy(s.tails[len(t0):], t1)
		ex = s.tails[:len(t0)+len(t1)]
	}
	if len(ex) == 0 {
		return 0, nil
	}
	m -= l.d
	comp := (1<<uint(l.d) - 1) &^ l.x
	sub := uint64(1) << uint(bits.OnesCount(uint(comp)))
	// items returns the items of the keys whose top bits are z.
	items := func(z int) []uint64 { return w[cw[z<<sh]:cw[(z+1)<<sh]] }
	var total uint64
	if len(ex) <= directMax {
		s.stat.steps += sub
		n := 0
		for z := comp; ; z = (z - 1) & comp {
			if wz := items(z); len(wz) > 0 {
				total += s.k.pairs(ex, wz)
				n += len(wz)
				s.stat.direct += uint64(len(ex) * len(wz))
			}
			if z == 0 {
				break
			}
		}
		return total, s.tick(uint64(n))
	}
	// The items each block of ex is run through choose its layout.
	nitems := 0
	for z := comp; ; z = (z - 1) & comp {
		nitems += len(items(z))
		if z == 0 {
			break
		}
	}
	lay := layoutOf(m, nitems)
	blk := s.block()
	s.stat.steps += sub
	for len(ex) > 0 {
		n := min(len(ex), blockSize)
		s.k.build(blk, ex[:n], m, lay)
		s.stat.builds++
		s.stat.buildEntries += uint64(lay.entries())
		s.stat.steps += sub
		ex = ex[n:]
		for z := comp; ; z = (z - 1) & comp {
			if wz := items(z); len(wz) > 0 {
				if n <= blockSize/2 {
					total += s.k.half(blk, wz)
					s.stat.halfLookups += uint64(len(wz) * lay.nch)
				} else {
					total += s.k.count(blk, wz)
					if lay.bits == largeBits {
						s.stat.largeLookups += uint64(len(wz) * lay.nch)
					} else {
						s.stat.smallLookups += uint64(len(wz) * lay.nch)
					}
				}
				s.stat.real += uint64(n * len(wz))
				s.stat.items += uint64(len(wz))
				s.stat.lookups += uint64(len(wz) * lay.nch)
			}
			if z == 0 {
				break
			}
		}
		if err := s.tick(uint64(nitems)); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// pairsGeneric counts the pairs of e and w with no bit in common (the
// patterns below 2^63).
func pairsGeneric(e, w []uint64) uint64 {
	var n int
	for _, y := range w {
		for _, x := range e {
			n += fits(x & y)
		}
	}
	return uint64(n)
}

// bucket sorts pats by key into out (a counting sort), keyed;
// start[k] is where key k's bucket begins, start[nkeys] the end. The
// kernel's two passes (sortKeys, sortOut) do the work.
func bucket(kn *Kernel, kr *keyer, pats []uint64, nkeys int, out []uint64, keys []uint32, start []int32) ([]uint64, []uint32, []int32) {
	start = resize(start, nkeys+1)
	clear(start)
	keys = resize(keys, len(pats))
	out = resize(out, len(pats)+vecPad)[:len(pats)] // the kernels may read beyond a bucket
	if len(pats) == 0 {
		return out, keys, start
	}
	kn.sortKeys(kr, pats, keys, start[1:])
	for k := 1; k <= nkeys; k++ {
		start[k] += start[k-1]
	}
	kn.sortOut(kr, pats, keys, start, out)
	copy(start[1:], start[:nkeys])
	start[0] = 0
	return out, keys, start
}

// sortKeysGeneric sets keys[i] to the key of pats[i] and counts the keys
// in cnt.
func sortKeysGeneric(kr *keyer, pats []uint64, keys []uint32, cnt []int32) {
	// The runs' fields in registers (kr.key by hand).
	in := &kr.in
	s0, s1, s2, s3 := in[0].shift&63, in[1].shift&63, in[2].shift&63, in[3].shift&63
	m0, m1, m2, m3 := in[0].mask, in[1].mask, in[2].mask, in[3].mask
	t0, t1, t2, t3 := in[0].to&63, in[1].to&63, in[2].to&63, in[3].to&63
	keys = keys[:len(pats)]
	for i, p := range pats {
		k := uint32((p>>s0&m0)<<t0 | (p>>s1&m1)<<t1 | (p>>s2&m2)<<t2 | (p>>s3&m3)<<t3)
		keys[i] = k
		cnt[k]++
	}
}

// sortOutGeneric files pats[i] keyed (compacted, its key on top) at
// out[start[keys[i]]], advancing the start.
func sortOutGeneric(kr *keyer, pats []uint64, keys []uint32, start []int32, out []uint64) {
	r := &kr.rest
	s0, s1, s2, s3, s4 := r[0].shift&63, r[1].shift&63, r[2].shift&63, r[3].shift&63, r[4].shift&63
	m0, m1, m2, m3, m4 := r[0].mask, r[1].mask, r[2].mask, r[3].mask, r[4].mask
	t0, t1, t2, t3, t4 := r[0].to&63, r[1].to&63, r[2].to&63, r[3].to&63, r[4].to&63
	top := kr.top & 63
	keys = keys[:len(pats)]
	for i, k := range keys {
		p := pats[i]
		out[start[k]] = (p>>s0&m0)<<t0 | (p>>s1&m1)<<t1 | (p>>s2&m2)<<t2 | (p>>s3&m3)<<t3 | (p>>s4&m4)<<t4 | uint64(k)<<top
		start[k]++
	}
}

// resize returns s with length n, reusing its array when large enough;
// the contents are not kept.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}
