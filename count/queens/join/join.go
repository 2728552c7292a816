// Package join counts n-queens completions by joining partial boards
// (meet in the middle) instead of walking the search tree to every leaf.
package join

import (
	"math/bits"
	"sort"
)

// layout is the join pattern layout of a board: which shared diagonals
// get which bit, and the sides' per-square patterns.
type layout struct {
	b          Board
	m          int // pattern bits
	west, east side
}

func newLayout(b Board) *layout {
	n := b.N
	// p[side][kind][d] estimates the chance that a half board of the side
	// has a queen on diagonal d of kind (0: d1, 1: d2): each column's
	// queen taken on any of its free squares alike.
	var p [2][2][2 * MaxN]float64
	for c := 0; c < n; c++ {
		sd := 0
		if b.East>>uint(c)&1 == 1 {
			sd = 1
		} else if b.West>>uint(c)&1 == 0 {
			continue
		}
		free := 0
		for r := 0; r < n; r++ {
			if b.Free(r, c) {
				free++
			}
		}
		for r := 0; r < n; r++ {
			if b.Free(r, c) {
				p[sd][0][r+c] += 1 / float64(free)
				p[sd][1][r-c+n-1] += 1 / float64(free)
			}
		}
	}
	type diag struct {
		kind, d int
		score   float64
	}
	var shared []diag
	for kind := 0; kind < 2; kind++ {
		for d := 0; d < 2*n-1; d++ {
			if s := p[0][kind][d] * p[1][kind][d]; s > 0 {
				shared = append(shared, diag{kind, d, s})
			}
		}
	}
	// The likeliest diagonals take the top bits, where the join's index
	// bits are cut from.
	sort.SliceStable(shared, func(i, j int) bool { return shared[i].score < shared[j].score })
	var pos [2][2 * MaxN]int
	for k := range pos {
		for d := range pos[k] {
			pos[k][d] = -1
		}
	}
	for i, x := range shared {
		pos[x.kind][x.d] = i
	}
	pos1, pos2 := pos[0], pos[1]
	m := len(shared)
	l := &layout{b: b, m: m}
	var pat [MaxN][MaxN]uint64
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if i := pos1[r+c]; i >= 0 {
				pat[r][c] |= 1 << uint(i)
			}
			if i := pos2[r-c+n-1]; i >= 0 {
				pat[r][c] |= 1 << uint(i)
			}
		}
	}
	l.west = side{n: n, cols: b.West, pat: &pat}
	l.east = side{n: n, cols: b.East, pat: &pat}
	return l
}

// scratch is the memory one counting goroutine reuses.
type scratch struct {
	le, lw   []leaf
	e, w     []uint64
	ce, cw   []int32  // bucket starts per key, counting sort
	ie, iw   []uint64 // e and w by index bits
	ice, icw []int32
	blk      block
}

// group sorts leaves by key into pats; start[k]..start[k+1] is key k's
// bucket.
func group(leaves []leaf, nkeys int, pats []uint64, start []int32) ([]uint64, []int32) {
	start = append(start[:0], make([]int32, nkeys+1)...)
	for _, l := range leaves {
		start[l.key+1]++
	}
	for k := 1; k <= nkeys; k++ {
		start[k] += start[k-1]
	}
	pats = append(pats[:0], make([]uint64, len(leaves))...)
	for _, l := range leaves {
		pats[start[l.key]] = l.pat
		start[l.key]++
	}
	// start[k] now holds the end of bucket k: shift back.
	copy(start[1:], start[:nkeys])
	start[0] = 0
	return pats, start
}

// countPrefix counts the completions of l's board whose east queens use
// exactly the rows p among the rows fixed (a set of free rows): the task
// of the join.
func (l *layout) countPrefix(fixed, p uint64, s *scratch) (count, nodes uint64) {
	rest := l.b.Rows &^ fixed
	var keybit [MaxN]uint32
	nk := 0
	for r := 0; r < l.b.N; r++ {
		if rest>>uint(r)&1 == 1 {
			keybit[r] = 1 << uint(nk)
			nk++
		}
	}
	var n1, n2 uint64
	s.le, n1 = l.east.halves(p, rest, &keybit, l.b.D1, l.b.D2, s.le[:0])
	if len(s.le) == 0 {
		return 0, n1
	}
	s.lw, n2 = l.west.halves(fixed&^p, rest, &keybit, l.b.D1, l.b.D2, s.lw[:0])
	nodes = n1 + n2
	if len(s.lw) == 0 {
		return 0, nodes
	}
	nkeys := 1 << uint(nk)
	s.e, s.ce = group(s.le, nkeys, s.e, s.ce)
	s.w, s.cw = group(s.lw, nkeys, s.w, s.cw)
	for x := 0; x < nkeys; x++ {
		e := s.e[s.ce[x]:s.ce[x+1]]
		if len(e) == 0 {
			continue
		}
		y := nkeys - 1 - x
		w := s.w[s.cw[y]:s.cw[y+1]]
		if len(w) == 0 {
			continue
		}
		count += l.join(e, w, s)
	}
	return count, nodes
}

// join counts the compatible pairs of e and w. Both are cut into buckets
// by their top k pattern bits (the index bits: the likeliest diagonals),
// and only buckets with disjoint index bits are matched, on the other
// bits.
func (l *layout) join(e, w []uint64, s *scratch) uint64 {
	k := indexBits(len(e), l.m)
	if k == 0 {
		statReal += uint64(len(w) * len(e))
		statPairs += uint64(len(w) * (len(e) + blockSize - 1) / blockSize * blockSize)
		return countPairs(&s.blk, e, w, l.m)
	}
	mb := uint(l.m - k)
	nkeys := 1 << uint(k)
	s.ie, s.ice = bucket(e, mb, nkeys, s.ie, s.ice)
	s.iw, s.icw = bucket(w, mb, nkeys, s.iw, s.icw)
	var total uint64
	all := nkeys - 1
	for x := 0; x < nkeys; x++ {
		ex := s.ie[s.ice[x]:s.ice[x+1]]
		if len(ex) > 0 {
			for z := all &^ x; ; z = (z - 1) & (all &^ x) {
				statReal += uint64(len(ex)) * uint64(s.icw[z+1]-s.icw[z])
				if z == 0 {
					break
				}
			}
		}
		comp := all &^ x
		for len(ex) > 0 {
			n := min(len(ex), blockSize)
			nch := s.blk.build(ex[:n], int(mb))
			ex = ex[n:]
			for z := comp; ; z = (z - 1) & comp {
				if wz := s.iw[s.icw[z]:s.icw[z+1]]; len(wz) > 0 {
					total += s.blk.countGeneric(wz, nch)
					statPairs += uint64(len(wz) * blockSize)
				}
				if z == 0 {
					break
				}
			}
		}
	}
	return total
}

// indexBits chooses how many index bits the join of a list of size
// len uses: as many as keep the average bucket to a few blocks.
func indexBits(size, m int) int {
	k := 0
	for k < maxIndexBits && k < m && size>>uint(k+1) >= indexMinBucket {
		k++
	}
	return k
}

var (
	maxIndexBits   = 8
	indexMinBucket = 2 * blockSize
)

// bucket sorts pats by their bits from mb up (the key) into out.
func bucket(pats []uint64, mb uint, nkeys int, out []uint64, start []int32) ([]uint64, []int32) {
	start = append(start[:0], make([]int32, nkeys+1)...)
	for _, p := range pats {
		start[p>>mb+1]++
	}
	for k := 1; k <= nkeys; k++ {
		start[k] += start[k-1]
	}
	out = append(out[:0], make([]uint64, len(pats))...)
	for _, p := range pats {
		out[start[p>>mb]] = p
		start[p>>mb]++
	}
	copy(start[1:], start[:nkeys])
	start[0] = 0
	return out, start
}

// maxRest bounds the free rows a task leaves open (2^maxRest keys).
const maxRest = 16

// Count returns the number of completions of b.
func Count(b Board) (uint64, error) {
	if err := b.check(); err != nil {
		return 0, err
	}
	return countFixed(b, max(0, bits.OnesCount64(b.Rows)-maxRest)), nil
}

// countFixed counts the completions of b with tasks that fix the first t
// free rows.
func countFixed(b Board, t int) uint64 {
	l := newLayout(b)
	fixed := uint64(0)
	for r := b.Rows; t > 0; r, t = r&(r-1), t-1 {
		fixed |= r & -r
	}
	var s scratch
	var total uint64
	forSubsetsAll(fixed, func(p uint64) {
		c, _ := l.countPrefix(fixed, p, &s)
		total += c
	})
	return total
}

// forSubsetsAll calls f with every subset of set.
func forSubsetsAll(set uint64, f func(uint64)) {
	for p := uint64(0); ; p = (p - set) & set {
		f(p)
		if p == set {
			return
		}
	}
}

var statPairs, statReal uint64
