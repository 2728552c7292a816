package join

import "sort"

// The join cuts both lists of a row set by a few index bits: pattern bits
// of the diagonals most likely taken on both sides. Only buckets whose
// index bits are disjoint can hold compatible pairs, so the kernels test
// only those; the bits tested stay in the patterns (they are disjoint in
// every pair tested, so they never change an answer).

// maxIndexBits bounds the index bits: 2^8 buckets per side.
const maxIndexBits = 12

// indexMinBucket is the average bucket size below which a list gets no
// more index bits: smaller buckets waste the kernels' 512-pattern blocks
// on padding and cost more table builds. Measured at n = 18 (items run
// through blocks, and blocks built): 256 to 512 per bucket cost 10% less
// than 1024 and 20% less than 2048; 128 costs more again. Choosing the
// index bits by a greedy search on a sample of the lists instead of by
// the geometric estimate in initKeys made 10% more work. A variable so
// that tests can force small buckets.
var indexMinBucket = blockSize

// indexMaxBits is maxIndexBits, a variable for experiments.
var indexMaxBits = maxIndexBits

// keyer extracts a key from chosen bits of a pattern, as runs of
// consecutive bits.
type keyer struct {
	runs []run
}

type run struct {
	shift, to uint8
	mask      uint64
}

func (k *keyer) key(p uint64) uint32 {
	var x uint64
	for _, r := range k.runs {
		x |= (p >> r.shift & r.mask) << r.to
	}
	return uint32(x)
}

// initKeys chooses the index bits of f: the pattern bits with the largest
// product of the chances that an east and a west half board take the
// diagonal, each column's queen taken on any free square of it alike.
func (f *frame) initKeys(lo1, lo2 int) {
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
	for k := 0; k <= maxIndexBits; k++ {
		var chosen []int
		for _, c := range cs[:min(k, len(cs))] {
			chosen = append(chosen, c.bit)
		}
		sort.Ints(chosen)
		var kr keyer
		for i := 0; i < len(chosen); {
			j := i + 1
			for j < len(chosen) && chosen[j] == chosen[j-1]+1 {
				j++
			}
			kr.runs = append(kr.runs, run{shift: uint8(chosen[i]), to: uint8(i), mask: uint64(1)<<uint(j-i) - 1})
			i = j
		}
		f.keys[k] = kr
	}
}

// indexBits chooses how many index bits the join of a list of size
// size uses: as many as keep the average bucket to a few blocks.
func (f *frame) indexBits(size int) int {
	k := 0
	for k < indexMaxBits && len(f.keys[k+1].runs) > 0 && size>>uint(k+1) >= indexMinBucket {
		k++
	}
	return k
}

// join counts the compatible pairs of e and w.
func (f *frame) join(e, w []uint64, s *scratch) (uint64, error) {
	k := f.indexBits(len(e))
	if k == 0 {
		var total uint64
		for len(e) > 0 {
			n := min(len(e), blockSize)
			s.k.build(&s.blk, e[:n], f.m)
			s.stat.builds++
			e = e[n:]
			total += s.k.count(&s.blk, w)
			s.stat.items += uint64(len(w))
			if err := s.tick(uint64(len(w))); err != nil {
				return 0, err
			}
		}
		return total, nil
	}
	kr := &f.keys[k]
	nkeys := 1 << uint(k)
	s.ie, s.ke, s.ce = bucket(kr, e, nkeys, s.ie, s.ke, s.ce)
	s.iw, s.kw, s.cw = bucket(kr, w, nkeys, s.iw, s.kw, s.cw)
	var total uint64
	all := nkeys - 1
	for x := 0; x < nkeys; x++ {
		ex := s.ie[s.ce[x]:s.ce[x+1]]
		comp := all &^ x
		for len(ex) > 0 {
			n := min(len(ex), blockSize)
			s.k.build(&s.blk, ex[:n], f.m)
			s.stat.builds++
			ex = ex[n:]
			items := 0
			for z := comp; ; z = (z - 1) & comp {
				if wz := s.iw[s.cw[z]:s.cw[z+1]]; len(wz) > 0 {
					total += s.k.count(&s.blk, wz)
					items += len(wz)
					s.stat.real += uint64(n * len(wz))
					s.stat.items += uint64(len(wz))
				}
				if z == 0 {
					break
				}
			}
			if err := s.tick(uint64(items)); err != nil {
				return 0, err
			}
		}
	}
	return total, nil
}

// bucket sorts pats by key into out (a counting sort); start[k] is where
// key k's bucket begins, start[nkeys] the end.
func bucket(kr *keyer, pats []uint64, nkeys int, out []uint64, keys []uint32, start []int32) ([]uint64, []uint32, []int32) {
	start = resize(start, nkeys+1)
	clear(start)
	keys = resize(keys, len(pats))
	for i, p := range pats {
		k := kr.key(p)
		keys[i] = k
		start[k+1]++
	}
	for k := 1; k <= nkeys; k++ {
		start[k] += start[k-1]
	}
	out = resize(out, len(pats))
	for i, p := range pats {
		k := keys[i]
		out[start[k]] = p
		start[k]++
	}
	copy(start[1:], start[:nkeys])
	start[0] = 0
	return out, keys, start
}

// resize returns s with length n, reusing its array when large enough;
// the contents are not kept.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4)
	}
	return s[:n]
}
