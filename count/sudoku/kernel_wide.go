package sudoku

import (
	"encoding/binary"
	"math/bits"
)

// wideState propagates with the triad kernel's rules but the triads (the
// band, stack and naked-single rules, to the same fixpoint) in rounds over
// every word at once instead of word by word:
// each round applies the band rule to the 27 words, removes the cells
// placed in a band from the band's other digits and their columns from
// the other bands, places naked singles, and applies the stack rule to
// the nine digits, until a round changes nothing. Its state is just the
// 27 candidate words (108 bytes, copied on a guess); everything else
// (placed rows, open cells, the configurations counted for the branch
// choice) is derived from them when needed.
//
// A round is the same few operations on every word, with no tables and
// no branches: the shape of a SIMD kernel. The lane kernel
// (kernel_lanes.go) runs it on sixteen puzzles at once, one a lane of a
// vector register, in AVX-512 (kernel_lanes_amd64.s), which the tests
// hold to propagate here step for step; the triads, the branch choice and
// the search are the triad kernel's.

// wideState is the wide kernel's search state: f[band][digit] as in
// triadState.
type wideState struct {
	f [3][9]uint32
}

// init sets up s for the givens of g. It returns false if two givens
// clash in a row (the rounds find the other clashes). The givens are
// found all at once (givenMask: a puzzle's 17 to 30 givens at random
// places make a branch per cell, or per eight cells, mispredict often),
// band by band; then each word is the digit's givens, and the band's
// cells free of givens outside the rows where the digit has one.
func (s *wideState) init(g *Grid) bool {
	lo, hi := givenMask(g)
	bands := [3]uint32{uint32(lo) & bandMask, uint32(lo>>27) & bandMask, uint32(lo>>54|hi<<10) & bandMask}
	s.f = [3][9]uint32{}
	for b, all := range bands {
		w := &s.f[b]
		cells := g[27*b : 27*b+27]
		for m := all; m != 0; m &= m - 1 {
			p := bits.TrailingZeros32(m)
			v := cells[p]
			if v > 9 {
				return false
			}
			bit := uint32(1) << p
			if w[v-1]&rowOf[p] != 0 {
				return false // the digit twice in a row
			}
			w[v-1] |= bit
		}
		free := bandMask &^ all
		for d, x := range w {
			w[d] = free&^rowsOf(x) | x
		}
	}
	return true
}

// givenMask returns the cells of g that hold a value: bit i of lo for
// cell i < 64, bit i-64 of hi for the others.
func givenMask(g *Grid) (lo, hi uint64) {
	for k := 0; k < 64; k += 8 {
		lo |= nonzeroBytes(binary.LittleEndian.Uint64(g[k:])) << k
	}
	hi = nonzeroBytes(binary.LittleEndian.Uint64(g[64:])) | nonzeroBytes(binary.LittleEndian.Uint64(g[72:]))<<8
	if g[80] != 0 {
		hi |= 1 << 16
	}
	return lo, hi
}

// nonzeroBytes returns a bit for each non-zero byte of x (bit i for byte
// i).
func nonzeroBytes(x uint64) uint64 {
	return (nonzeroHi(x) >> 7) * 0x0102040810204080 >> 56
}

// bandKeep returns the mini-rows of a band word (a digit's cells in a
// band) that lie on a permutation of its 3x3 row/box presence matrix: the
// band rule without tables. Bit 9r+3c of g says that row r has cells in
// box c; entry (r, c) is on a permutation if rows r+1 and r+2 can take
// boxes c+1 and c+2 in one order or the other (indices mod 3).
func bandKeep(a uint32) uint32 {
	g := (a | a>>1 | a>>2) & oct1
	g1, g2 := grpRot1(g), grpRot2(g)
	sp := g & (rowRot1(g1)&rowRot2(g2) | rowRot1(g2)&rowRot2(g1))
	return sp * 7 // each kept mini-row's three cells
}

// singleRows returns the cells of a that are alone in their row.
func singleRows(a uint32) uint32 {
	var m uint32
	for r := uint(0); r < 27; r += 9 {
		if x := a >> r & 511; x != 0 && x&(x-1) == 0 {
			m |= x << r
		}
	}
	return m
}

// lowPerRow keeps the lowest cell of each row of q.
func lowPerRow(q uint32) uint32 {
	var m uint32
	for r := uint(0); r < 27; r += 9 {
		x := q >> r & 511
		m |= (x & -x) << r
	}
	return m
}

// rowsOf returns the rows (27-bit masks) in which q has a cell.
func rowsOf(q uint32) uint32 {
	var m uint32
	for r := uint(0); r < 27; r += 9 {
		if q>>r&511 != 0 {
			m |= 511 << r
		}
	}
	return m
}

// onesTwos returns the cells present in at least one and at least two
// of the words of w.
func onesTwos(w *[9]uint32) (ones, twos uint32) {
	for _, x := range w {
		twos |= ones & x
		ones |= x
	}
	return ones, twos
}

// round is one round of propagate. It returns false on a contradiction.
func (s *wideState) round() bool {
	var cm [3][9]uint32 // per band and digit: columns placed, in every row
	for b := range s.f {
		w := &s.f[b]
		var p [9]uint32
		for d, a := range w {
			a &= bandKeep(a)
			if a == 0 {
				return false
			}
			w[d] = a
			p[d] = singleRows(a)
		}
		// A cell placed by one digit leaves the others; placed by two,
		// it leaves both (and the next round fails).
		ones, twos := onesTwos(&p)
		for d := range w {
			w[d] &^= ones&^p[d] | twos
		}
		// Naked singles: a cell left to one digit takes it, which leaves
		// the rest of the row; two in one row for one digit keep the
		// lowest (and the next round fails).
		ones, twos = onesTwos(w)
		if ones != bandMask {
			return false
		}
		one := ones &^ twos
		for d, a := range w {
			q := lowPerRow(a & one)
			w[d] = a &^ (rowsOf(q) &^ q)
			cm[b][d] = colsOf(p[d]) * rowRep
		}
	}
	for d := 0; d < 9; d++ {
		a0 := s.f[0][d] &^ (cm[1][d] | cm[2][d])
		a1 := s.f[1][d] &^ (cm[0][d] | cm[2][d])
		a2 := s.f[2][d] &^ (cm[0][d] | cm[1][d])
		// The stack rule.
		sp := stackSupport(colsOf(a0) | colsOf(a1)<<9 | colsOf(a2)<<18)
		s.f[0][d] = a0 & ((sp & 511) * rowRep)
		s.f[1][d] = a1 & ((sp >> 9 & 511) * rowRep)
		s.f[2][d] = a2 & ((sp >> 18) * rowRep)
	}
	return true
}

// open returns the number of cells with two or more candidates.
func (s *wideState) open() int {
	n := 0
	for b := range s.f {
		_, twos := onesTwos(&s.f[b])
		n += bits.OnesCount32(twos)
	}
	return n
}

// matrices returns, for every digit, its mini-row presence (bit
// 9*band+3*row+box, triadState.hp) and its band/column matrix (bit
// 9*band+column, triadState.sup). At a fixpoint of propagate both are
// their own supports.
func (s *wideState) matrices() (hp, sup [9]uint32) {
	for d := 0; d < 9; d++ {
		// Bands 0 and 1 side by side in one word, band 2 alone: the
		// shifts below never carry band 1's bits into band 0's kept
		// ones.
		x := uint64(s.f[0][d]) | uint64(s.f[1][d])<<32
		y := uint64(s.f[2][d])
		hx, hy := shrinkRows(x), shrinkRows(y)
		cx, cy := colsOf2(x), colsOf2(y)
		hp[d] = uint32(hx) | uint32(hx>>32)<<9 | uint32(hy)<<18
		sup[d] = uint32(cx) | uint32(cx>>32)<<9 | uint32(cy)<<18
	}
	return hp, sup
}

// shrinkRows is shrinkTab on each row of one or two band words (at bits
// 0 and 32): bit 3r+c of the result says row r has candidates in box c.
func shrinkRows(x uint64) uint64 {
	const oct = oct1 | oct1<<32
	const rowLow3 = 0o007007007 | 0o007007007<<32
	g := (x | x>>1 | x>>2) & oct                // bit 9r+3c
	v := (g | g>>2 | g>>4) & rowLow3            // bit 9r+c
	return (v | v>>6 | v>>12) & (511 | 511<<32) // bit 3r+c
}

// colsOf2 is colsOf on one or two band words (at bits 0 and 32).
func colsOf2(x uint64) uint64 { return (x | x>>9 | x>>18) & (511 | 511<<32) }

// applyTriads applies the triad rules (see triadState.triads) at a
// fixpoint of propagate, given its keys (laneState.keys: for each digit
// its band/column matrix in bits 0-26, matrices' sup, and its mini-row
// presence in bits 32-58, matrices' hp) and what their first pass,
// triadCheck, found (only3, full; it must not have failed). It returns
// true if it removed candidates.
func (s *wideState) applyTriads(xs *[9]uint64, only3, full uint64) (changed bool) {
	if only3|full == 0 {
		return false
	}
	for d, x := range xs {
		open := x & (colRot1w(x) | colRot2w(x))
		must, gone := open&only3, open&full
		if must|gone == 0 {
			continue
		}
		mv, mh := uint32(must), uint32(must>>32)
		ev := (rowRot1(mv) | rowRot2(mv) | colRot1(mv) | colRot2(mv) | uint32(gone)) & uint32(x)
		eh := (grpRot1(mh) | grpRot2(mh) | colRot1(mh) | colRot2(mh) | uint32(gone>>32)) & uint32(x>>32)
		for b := 0; b < 3; b++ {
			cells := (ev>>(9*b)&511)*rowRep | miniRowCells[eh>>(9*b)&511]
			if s.f[b][d]&cells != 0 {
				s.f[b][d] &^= cells
				changed = true
			}
		}
	}
	return changed
}

// triadCheck is the triads' first pass (before applyTriads; the triad
// kernel's own copy, in triadState.triads, measured faster inline), on a
// state's keys: for each digit, its band/column
// matrix in bits 0-26 and its mini-row presence in bits 32-58. It counts,
// for each member of a group of three (a mini-column or mini-row), the
// digits that can go there (one, two, three, four or more) and those
// known to (the only member of the group left to the digit), and returns
// the members the triads act on (only3: three digits can go there, not
// all three known yet; full: three known digits are there, and others
// still could) or ok=false on a contradiction (a member that fewer than
// three digits can take, or four known). The AVX-512 round
// (roundLanesAVX512) does it for sixteen lanes at once.
func triadCheck(xs *[9]uint64) (only3, full uint64, ok bool) {
	var c1, c2, c3, c4 uint64
	var f1, f2, f3, f4 uint64
	for _, x := range xs {
		c4 |= c3 & x
		c3 |= c2 & x
		c2 |= c1 & x
		c1 |= x
		y := x &^ (colRot1w(x) | colRot2w(x))
		f4 |= f3 & y
		f3 |= f2 & y
		f2 |= f1 & y
		f1 |= y
	}
	if c3 != bandMask|bandMask<<32 || f4 != 0 {
		return 0, 0, false
	}
	return c3 &^ c4 &^ f3, f3 & c4, true
}

// applyConfig restricts digit d in unit u (0-2 a band, 3-5 a stack) to
// permutation i of permList.
func (s *wideState) applyConfig(u, d, i int) {
	if u < 3 {
		s.f[u][d] &= miniRowCells[permList[i]]
		return
	}
	keep := &stackKeep[u-3][i]
	s.f[0][d] &= keep[0]
	s.f[1][d] &= keep[1]
	s.f[2][d] &= keep[2]
}
