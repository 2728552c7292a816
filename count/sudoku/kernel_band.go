package sudoku

import "math/bits"

// The band kernel is the solver as it was before the triad kernel: it
// applies the band rule (kernel.go) to rows only, finds naked singles and
// hidden singles in columns bit-parallel across digits and bands, and when
// nothing more follows guesses on a cell with two candidates, else on a
// digit with two places in a row, else on a cell with the fewest
// candidates, copying the small state for one branch (onto a per-kernel
// stack) and reusing it for the other: no allocations. It guesses about
// three times as often as the triad kernel on hard puzzles; it stays as
// the variant "band", a second opinion for tests and the baseline of the
// benchmarks.

// bandState is the whole search state; it is copied on branching (240 bytes).
type bandState struct {
	f     [27]uint32 // candidates, digit*3+band
	free  [3]uint32  // unsolved cells per band
	rows  [3]uint32  // unsolved (digit,row) pairs per band: bit digit*3+row%3
	dirty uint32     // words of f changed since last propagated: bit digit*3+band
}

// bandKernel is a reusable band solver: it counts solutions up to a limit
// and keeps the first one found.
type bandKernel struct {
	ctl
	sol   [27]uint32    // f of the first solution
	stack [82]bandState // search states by depth
}

func (k *bandKernel) control() *ctl     { return &k.ctl }
func (k *bandKernel) load(g *Grid) bool { return k.stack[0].init(g) }
func (k *bandKernel) run()              { k.search(0) }
func (k *bandKernel) solution() Grid    { return solGrid(&k.sol) }

// init sets up s for the givens of g. It returns false if two givens
// clash (the parser rejects those first, with a message).
func (s *bandState) init(g *Grid) bool {
	for i := range s.f {
		s.f[i] = bandMask
	}
	s.dirty = bandMask
	for b := 0; b < 3; b++ {
		s.free[b] = bandMask
		s.rows[b] = bandMask
	}
	for i, v := range g {
		if v == 0 {
			continue
		}
		if v > 9 {
			return false
		}
		d := int(v - 1)
		b, p := i/27, uint(i%27)
		bit := uint32(1) << p
		if s.f[d*3+b]&bit == 0 {
			return false
		}
		s.f[d*3+b] &^= rowOf[p] &^ bit
		for d2 := 0; d2 < 9; d2++ {
			if d2 != d {
				s.f[d2*3+b] &^= bit
			}
		}
	}
	return true
}

// propagate applies the band rules until nothing changes. It returns false
// on a contradiction.
func (s *bandState) propagate() bool {
	for s.dirty != 0 {
		k := bits.TrailingZeros32(s.dirty)
		s.dirty &= s.dirty - 1
		a := s.f[k]
		sh := uint32(shrinkTab[a&511]) | uint32(shrinkTab[a>>9&511])<<3 | uint32(shrinkTab[a>>18&511])<<6
		a &= complexTab[sh&511]
		if a == 0 {
			return false
		}
		s.f[k] = a
		single := uint32(singleTab[a&511]) | uint32(singleTab[a>>9&511])<<1 | uint32(singleTab[a>>18&511])<<2
		d, b := k/3, k%3
		sh3 := uint(d * 3)
		newly := single & (s.rows[b] >> sh3) & 7
		if newly == 0 {
			continue
		}
		s.rows[b] &^= newly << sh3
		cells := a & rowsTab[newly]
		s.free[b] &^= cells
		// Branch-free: a word is marked dirty iff it lost a bit;
		// (v + 2^32-1) >> 32 is 1 iff the 27-bit v is not 0.
		var dirty uint64
		for x := b; x < 27; x += 3 {
			v := s.f[x] & cells
			s.f[x] &^= v
			dirty |= (uint64(v) + 0xFFFFFFFF) >> 32 << x
		}
		s.f[k] = a // keep the digit's own cells
		dirty &^= 1 << k
		cols := (cells | cells>>9 | cells>>18) & 511
		cm := cols * 0x40201
		k0 := d * 3
		for x := k0; x < k0+3; x++ {
			if x != k {
				v := s.f[x] & cm
				s.f[x] &^= v
				dirty |= (uint64(v) + 0xFFFFFFFF) >> 32 << x
			}
		}
		s.dirty |= uint32(dirty)
	}
	return true
}

// singles finds naked singles (cells with one candidate) and hidden singles
// in columns, and places them. It returns found=true if it placed any and
// ok=false on a contradiction (a cell with no candidate, a column with no
// place for a digit).
func (s *bandState) singles() (found, ok bool) {
	for b := 0; b < 3; b++ {
		u := s.free[b]
		if u == 0 {
			continue
		}
		var r1, r2 uint32
		for d := 0; d < 9; d++ {
			x := s.f[d*3+b]
			r2 |= r1 & x
			r1 |= x
		}
		if u&^r1 != 0 {
			return false, false
		}
		one := u &^ r2
		for one != 0 {
			p := uint(bits.TrailingZeros32(one))
			bit := uint32(1) << p
			one &^= bit
			for d := 0; d < 9; d++ {
				if s.f[d*3+b]&bit != 0 {
					s.f[d*3+b] &^= rowOf[p] &^ bit
					s.dirty |= 1 << (d*3 + b)
					found = true
					break
				}
			}
		}
	}
	if found {
		return true, true
	}
	// Hidden singles in columns: a digit whose column has one place left.
	for d := 0; d < 9; d++ {
		k := d * 3
		a0, a1, a2 := s.f[k], s.f[k+1], s.f[k+2]
		c0 := (a0 | a0>>9 | a0>>18) & 511
		c1 := (a1 | a1>>9 | a1>>18) & 511
		c2 := (a2 | a2>>9 | a2>>18) & 511
		if c0|c1|c2 != 511 {
			return false, false
		}
		// Columns present in exactly one band, each in exactly one row.
		// Columns where the digit is already placed are left out.
		sc := s.solvedCols(d)
		only0 := c0 &^ (c1 | c2 | sc)
		only1 := c1 &^ (c0 | c2 | sc)
		only2 := c2 &^ (c0 | c1 | sc)
		if only0 != 0 && !s.hiddenCol(k, a0, only0, &found) {
			return false, false
		}
		if only1 != 0 && !s.hiddenCol(k+1, a1, only1, &found) {
			return false, false
		}
		if only2 != 0 && !s.hiddenCol(k+2, a2, only2, &found) {
			return false, false
		}
	}
	return found, true
}

// solvedCols returns the 9-bit set of columns where digit d is placed.
func (s *bandState) solvedCols(d int) uint32 {
	sh := uint(d * 3)
	var m uint32
	for b := 0; b < 3; b++ {
		m |= s.f[d*3+b] & rowsTab[^(s.rows[b]>>sh)&7]
	}
	return (m | m>>9 | m>>18) & 511
}

// hiddenCol places digit k/3 in band k%3 where a column among cols has a
// single candidate cell in that band and the row is not solved yet, and
// sets *found. It returns false if two such columns need the same row.
func (s *bandState) hiddenCol(k int, a, cols uint32, found *bool) bool {
	for cols != 0 {
		c := uint(bits.TrailingZeros32(cols))
		cols &= cols - 1
		m := a & (0x40201 << c)
		if m == 0 {
			return false
		}
		if m&(m-1) != 0 {
			continue
		}
		p := uint(bits.TrailingZeros32(m))
		r := rowOf[p]
		if a&r == m {
			continue // row already down to this cell
		}
		s.f[k] &^= r &^ m
		s.dirty |= 1 << k
		a = s.f[k]
		*found = true
	}
	return true
}

// solved reports whether every digit is placed in every row.
func (s *bandState) solved() bool { return s.rows[0]|s.rows[1]|s.rows[2] == 0 }

// search counts the solutions below s, stopping at k.limit.
//
// The state to search is k.stack[depth]; a branch copies it to
// k.stack[depth+1]. Each level places a digit in an empty cell, so the
// depth stays below 81. (A recursive function taking a *bandState to a local
// copy would move every copy to the heap.)
func (k *bandKernel) search(depth int) {
	s := &k.stack[depth]
	for {
		if k.tick() || !s.propagate() {
			return
		}
		if s.solved() {
			if k.count == 0 {
				k.sol = s.f
			}
			k.found()
			return
		}
		found, ok := s.singles()
		if !ok {
			return
		}
		if found {
			continue
		}
		// Guess on a cell with the fewest candidates; without a
		// two-candidate cell, on a digit with two places left in a row.
		b, p, two, ok := s.pickCell()
		if !ok {
			return
		}
		if !two {
			if k2, x, found := s.pickRowPair(); found {
				bx := uint32(1) << x
				c := &k.stack[depth+1]
				*c = *s
				k.guesses++
				c.f[k2] &^= rowOf[x] &^ bx
				c.dirty |= 1 << k2
				k.search(depth + 1)
				if k.halt {
					return
				}
				s.f[k2] &^= bx
				s.dirty |= 1 << k2
				continue
			}
		}
		bit := uint32(1) << p
		last := -1
		for d := 0; d < 9; d++ {
			if s.f[d*3+b]&bit == 0 {
				continue
			}
			if last >= 0 {
				c := &k.stack[depth+1]
				*c = *s
				k.guesses++
				c.f[last*3+b] &^= rowOf[p] &^ bit
				c.dirty |= 1 << (last*3 + b)
				k.search(depth + 1)
				if k.halt {
					return
				}
				s.f[last*3+b] &^= bit
				s.dirty |= 1 << (last*3 + b)
			}
			last = d
		}
		if last < 0 {
			return
		}
		s.f[last*3+b] &^= rowOf[p] &^ bit
		s.dirty |= 1 << (last*3 + b)
	}
}

// pickCell returns an unsolved cell with the fewest candidates: the first
// with two, else with three, else the first unsolved cell.
func (s *bandState) pickCell() (b int, p uint, two, ok bool) {
	var best3b = -1
	var best3 uint32
	for b := 0; b < 3; b++ {
		u := s.free[b]
		if u == 0 {
			continue
		}
		var r1, r2, r3, r4 uint32
		for d := 0; d < 9; d++ {
			x := s.f[d*3+b]
			r4 |= r3 & x
			r3 |= r2 & x
			r2 |= r1 & x
			r1 |= x
		}
		if two := u & r2 &^ r3; two != 0 {
			return b, uint(bits.TrailingZeros32(two)), true, true
		}
		if best3b < 0 {
			if three := u & r3 &^ r4; three != 0 {
				best3b, best3 = b, three
			}
		}
	}
	if best3b >= 0 {
		return best3b, uint(bits.TrailingZeros32(best3)), false, true
	}
	for b := 0; b < 3; b++ {
		if u := s.free[b]; u != 0 {
			return b, uint(bits.TrailingZeros32(u)), false, true
		}
	}
	return 0, 0, false, false
}

// pickRowPair finds an unsolved row where a digit has exactly two places
// and returns its word and the first place.
func (s *bandState) pickRowPair() (k int, p uint, ok bool) {
	for d := 0; d < 9; d++ {
		for b := 0; b < 3; b++ {
			open := s.rows[b] >> uint(d*3) & 7
			if open == 0 {
				continue
			}
			a := s.f[d*3+b]
			for r := uint(0); r < 3; r++ {
				if open>>r&1 == 0 {
					continue
				}
				m := a >> (9 * r) & 511
				if bits.OnesCount32(m) == 2 {
					return d*3 + b, 9*r + uint(bits.TrailingZeros32(m)), true
				}
			}
		}
	}
	return 0, 0, false
}

// solGrid converts the candidate masks of a solved state to a grid.
func solGrid(f *[27]uint32) Grid {
	var g Grid
	for d := 0; d < 9; d++ {
		for b := 0; b < 3; b++ {
			m := f[d*3+b]
			for m != 0 {
				p := bits.TrailingZeros32(m)
				m &= m - 1
				g[b*27+p] = uint8(d + 1)
			}
		}
	}
	return g
}
