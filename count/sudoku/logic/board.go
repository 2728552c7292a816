package logic

import (
	"math/bits"

	"github.com/nqcount/nqcount/count/sudoku"
)

// Houses are numbered 0-26: rows 0-8, columns 9-17, boxes 18-26 (boxes
// row by row). Cells are 0-80, row by row. Digits inside masks are bits
// 0-8 for the digits 1-9.

// houseCells lists the cells of each house in order.
var houseCells [27][9]int

// houseOf lists the row, column and box of each cell.
var houseOf [81][3]int

// peerSet holds, for each cell, the 20 other cells sharing a house with it.
var peerSet [81]cellset

// houseSet holds each house's cells as a set.
var houseSet [27]cellset

func init() {
	for i := 0; i < 9; i++ {
		for j := 0; j < 9; j++ {
			houseCells[i][j] = i*9 + j
			houseCells[9+i][j] = j*9 + i
			houseCells[18+i][j] = (i/3*3+j/3)*9 + i%3*3 + j%3
		}
	}
	for c := 0; c < 81; c++ {
		houseOf[c] = [3]int{c / 9, 9 + c%9, 18 + c/27*3 + c%9/3}
	}
	for h := range houseCells {
		for _, c := range houseCells[h] {
			houseSet[h].add(c)
		}
	}
	for c := 0; c < 81; c++ {
		for _, h := range houseOf[c] {
			peerSet[c] = peerSet[c].or(houseSet[h])
		}
		peerSet[c].remove(c)
		// Not peerSet[c].cells(): 81 allocations at every start-up.
		i := 0
		for m := peerSet[c].lo; m != 0; m &= m - 1 {
			peerList[c][i] = bits.TrailingZeros64(m)
			i++
		}
		for m := peerSet[c].hi; m != 0; m &= m - 1 {
			peerList[c][i] = 64 + bits.TrailingZeros64(m)
			i++
		}
	}
	for h := range inCover {
		for o := range inCover[h] {
			for i, c := range houseCells[h] {
				if houseSet[o].has(c) {
					inCover[h][o] |= 1 << i
				}
			}
		}
	}
	for h := range cellIndex {
		for c := range cellIndex[h] {
			cellIndex[h][c] = -1
		}
		for i, c := range houseCells[h] {
			cellIndex[h][c] = int8(i)
		}
	}
}

// sees reports whether cells a and b differ and share a house.
func sees(a, b int) bool { return peerSet[a].has(b) }

// cellset is a set of cells: bit c of the 128-bit pair.
type cellset struct{ lo, hi uint64 }

func (s *cellset) add(c int) {
	if c < 64 {
		s.lo |= 1 << c
	} else {
		s.hi |= 1 << (c - 64)
	}
}

func (s *cellset) remove(c int) {
	if c < 64 {
		s.lo &^= 1 << c
	} else {
		s.hi &^= 1 << (c - 64)
	}
}

func (s cellset) has(c int) bool {
	if c < 64 {
		return s.lo>>c&1 != 0
	}
	return s.hi>>(c-64)&1 != 0
}

func (s cellset) and(t cellset) cellset    { return cellset{s.lo & t.lo, s.hi & t.hi} }
func (s cellset) or(t cellset) cellset     { return cellset{s.lo | t.lo, s.hi | t.hi} }
func (s cellset) andNot(t cellset) cellset { return cellset{s.lo &^ t.lo, s.hi &^ t.hi} }
func (s cellset) empty() bool              { return s.lo == 0 && s.hi == 0 }
func (s cellset) count() int               { return bits.OnesCount64(s.lo) + bits.OnesCount64(s.hi) }

// cells returns the members in increasing order.
func (s cellset) cells() []int {
	out := make([]int, 0, s.count())
	for m := s.lo; m != 0; m &= m - 1 {
		out = append(out, bits.TrailingZeros64(m))
	}
	for m := s.hi; m != 0; m &= m - 1 {
		out = append(out, 64+bits.TrailingZeros64(m))
	}
	return out
}

// board is the state of a logical solve: the digits placed and, for each
// empty cell, its candidates (bit d-1 for digit d; 0 for a filled cell).
type board struct {
	val   [81]uint8
	cand  [81]uint16
	empty [27]uint8 // empty cells per house
	nleft int       // empty cells in all
}

// newBoard places the givens of g, which must not clash, and gives every
// empty cell the digits none of its peers holds.
func newBoard(g *sudoku.Grid) board {
	var b board
	for i := range b.cand {
		b.cand[i] = 0x1FF
	}
	for h := range b.empty {
		b.empty[h] = 9
	}
	b.nleft = 81
	for c, v := range g {
		if v != 0 {
			b.place(c, int(v))
		}
	}
	return b
}

// place puts digit d (1-9) in cell c and removes it from the peers.
func (b *board) place(c, d int) {
	b.val[c] = uint8(d)
	b.cand[c] = 0
	b.nleft--
	for _, h := range houseOf[c] {
		b.empty[h]--
	}
	m := ^uint16(1 << (d - 1))
	for _, p := range peerList[c] {
		b.cand[p] &= m
	}
}

// peerList is peerSet as lists, for the loops that walk peers.
var peerList [81][20]int

// has reports whether digit d (1-9) is a candidate of cell c.
func (b *board) has(c, d int) bool { return b.cand[c]>>(d-1)&1 != 0 }

// digitCells returns the cells where digit d (1-9) is a candidate.
func (b *board) digitCells(d int) cellset {
	var s cellset
	bit := uint16(1) << (d - 1)
	for c := 0; c < 81; c++ {
		if b.cand[c]&bit != 0 {
			s.add(c)
		}
	}
	return s
}

// where returns the positions (bit i for houseCells[h][i]) of digit d's
// candidates in house h.
func (b *board) where(h, d int) uint16 { return where(&b.cand, h, d) }

// where returns the positions of digit d's candidates in house h of the
// candidates cand.
func where(cand *[81]uint16, h, d int) uint16 {
	var m uint16
	bit := uint16(1) << (d - 1)
	for i, c := range houseCells[h] {
		if cand[c]&bit != 0 {
			m |= 1 << i
		}
	}
	return m
}

// left returns the number of empty cells.
func (b *board) left() int { return b.nleft }

// apply makes the step's placements and eliminations.
func (b *board) apply(s *Step) {
	for _, m := range s.Placements {
		if b.val[m.Cell] == 0 {
			b.place(m.Cell, m.Digit)
		}
	}
	for _, m := range s.Eliminations {
		b.cand[m.Cell] &^= 1 << (m.Digit - 1)
	}
}

// grid returns the digits placed.
func (b *board) grid() sudoku.Grid { return sudoku.Grid(b.val) }

// digits returns the digits (1-9) of a mask, increasing.
func digits(m uint16) []int {
	out := make([]int, 0, bits.OnesCount16(m))
	for ; m != 0; m &= m - 1 {
		out = append(out, bits.TrailingZeros16(m)+1)
	}
	return out
}

// onlyDigit returns the digit (1-9) of a one-bit mask.
func onlyDigit(m uint16) int { return bits.TrailingZeros16(m) + 1 }

func popcount(m uint16) int { return bits.OnesCount16(m) }
