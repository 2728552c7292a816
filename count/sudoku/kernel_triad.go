package sudoku

import "math/bits"

// The triad kernel keeps the band kernel's candidate layout, band by band
// (f[band][digit] is a 27-bit mask, bit (row%3)*9+column), and adds the
// reasoning that lets it guess about three times less:
//
//   - the band rule (as in the band kernel): within a band a digit takes one
//     mini-row (three cells of a row inside a box) in each row and each box,
//     so its 3x3 row/box presence matrix must hold a permutation; entries on
//     no permutation go. This is hidden singles in rows and boxes and
//     pointing/claiming along rows.
//   - the stack rule, the same across a stack: a digit takes one column of
//     the stack in each band, a different one in each; band/column entries
//     on no permutation go. This is hidden singles in columns and
//     pointing/claiming along columns. It is computed for all three stacks
//     of a digit at once, bit-parallel, without tables.
//   - the triad rules: a mini-row (or mini-column) holds exactly three
//     digits. If only three digits can go in it, each of them must, and
//     leaves the rest of its row and box (column and box); if three digits
//     are already known to be in it, no other digit can be.
//   - naked singles.
//
// When nothing more follows, it branches on a "configuration": a digit's
// permutation in one band or stack. It takes the band or stack whose
// digits have the fewest configurations in all (totals kept up to date as
// the matrices change), and in it the digit with the fewest (two if there
// is one), and tries each of its configurations. Each guess copies the
// state (under 300 bytes) onto a per-kernel stack. Near the leaves (fewer
// than triadMinOpen open cells) the triad rules are skipped: there they
// cost more than they save.
//
// This is the design of the fastest published solver (tdoku's band
// configurations and triads), done here with scalar bit operations on the
// band layout.

const (
	oct1   = 0o111111111 // bit 0 of each 3-bit group of a 27-bit word
	oct3   = 0o333333333 // bits 0-1 of each group
	oct4   = 0o444444444 // bit 2 of each group
	oct6   = 0o666666666 // bits 1-2 of each group
	rowRep = 0x40201     // 1 + 1<<9 + 1<<18: copies a 9-bit column mask to the 3 rows of a band
)

// otherBands lists, for each band, the other two.
var otherBands = [3][2]int{{1, 2}, {2, 0}, {0, 1}}

// colRot1 and colRot2 rotate every 3-bit group of a 27-bit word by one and
// two places (bit j takes bit j+1, j+2 mod 3); rowRot1 and rowRot2 rotate
// its three 9-bit rows.
func colRot1(x uint32) uint32 { return (x>>1)&oct3 | (x<<2)&oct4 }
func colRot2(x uint32) uint32 { return (x>>2)&oct1 | (x<<1)&oct6 }
func rowRot1(x uint32) uint32 { return (x>>9 | x<<18) & bandMask }
func rowRot2(x uint32) uint32 { return (x>>18 | x<<9) & bandMask }

// colRot1w and colRot2w are colRot1 and colRot2 on two 27-bit words, at
// bits 0 and 32.
func colRot1w(x uint64) uint64 { return (x>>1)&(oct3|oct3<<32) | (x<<2)&(oct4|oct4<<32) }
func colRot2w(x uint64) uint64 { return (x>>2)&(oct1|oct1<<32) | (x<<1)&(oct6|oct6<<32) }

// grpRot1 and grpRot2 rotate the three 3-bit groups inside each 9-bit row.
func grpRot1(x uint32) uint32 { return (x>>3)&0o077077077 | (x<<6)&0o700700700 }
func grpRot2(x uint32) uint32 { return (x>>6)&0o007007007 | (x<<3)&0o770770770 }

// stackSupport keeps the entries of a band/column matrix (bit 9*band +
// column) that lie on a permutation of the three bands over the three
// columns of their stack, for the three stacks at once: entry (b, j)
// survives if the other two bands can take the other two columns.
func stackSupport(m uint32) uint32 {
	c1, c2 := colRot1(m), colRot2(m)
	return m & (rowRot1(c1)&rowRot2(c2) | rowRot1(c2)&rowRot2(c1))
}

// colsOf returns the columns (9 bits) in which a band word has a cell.
func colsOf(a uint32) uint32 { return (a | a>>9 | a>>18) & 511 }

// nz is 1 if the 32-bit v is not 0, else 0, without a branch.
func nz(v uint32) uint32 { return uint32((uint64(v) + 0xFFFFFFFF) >> 32) }

// triadState is the triad kernel's search state; it is copied on branching.
type triadState struct {
	f      [3][9]uint32 // candidate cells: f[band][digit]
	hp     [9]uint32    // per digit, its mini-row presence after the band rule: bit 9*band+3*row+box
	sup    [9]uint32    // per digit, its band/column matrix after the stack rule (valid when not in vdirty): bit 9*band+column
	supT   [9]uint32    // sup stack by stack (stackMajor): bit 9*stack+3*band+column%3
	rows   [3]uint32    // per band, unsolved (digit,row) pairs: bit digit*3+row%3
	free   [3]uint32    // per band, unsolved cells
	dirty  [3]uint32    // per band, digits whose word changed since the band rule last ran on it
	vdirty uint32       // digits changed since the stack rule last ran on them
	tdirty uint32       // bands (bits 0-2) and stacks (bit 3) changed since the triad rules last ran
	// tot is, for each band (0-2) and stack (3-5), the digits'
	// configurations there in all (permutations of hp and supT), kept up
	// to date with them for the branch choice.
	tot [6]uint32
}

// init sets up s for the givens of g. It returns false if two givens
// clash in a row (the propagation finds the other clashes) or a value is
// out of range.
func (s *triadState) init(g *Grid) bool {
	// The givens leave every word of their band; then each one takes
	// its digit's row.
	var given [3]uint32
	var top uint8
	for k := range g.givens() {
		top = max(top, g[k])
		given[cellBand[k]] |= 1 << cellBit[k]
	}
	if top > 9 {
		return false
	}
	for b := 0; b < 3; b++ {
		w := &s.f[b]
		base := bandMask &^ given[b]
		for d := range w {
			w[d] = base
		}
		s.rows[b] = bandMask
		s.free[b] = bandMask
		s.dirty[b] = 511
	}
	for k := range g.givens() {
		p := cellBit[k]
		bit := uint32(1) << p
		a := &s.f[cellBand[k]][g[k]-1]
		if *a&rowOf[p]&given[cellBand[k]] != 0 {
			return false // the digit's row already has a given
		}
		*a = *a&^rowOf[p] | bit
	}
	s.vdirty = 511
	s.tdirty = 15
	s.hp, s.sup, s.supT, s.tot = [9]uint32{}, [9]uint32{}, [9]uint32{}, [6]uint32{}
	return true
}

// from sets up s for candidate words f, propagated or not (the lane
// kernel hands its last states over): everything else is derived again
// when s is settled.
func (s *triadState) from(f *[3][9]uint32) {
	s.f = *f
	for b := 0; b < 3; b++ {
		s.rows[b] = bandMask
		s.free[b] = bandMask
		s.dirty[b] = 511
	}
	s.vdirty = 511
	s.tdirty = 15
	s.hp, s.sup, s.supT, s.tot = [9]uint32{}, [9]uint32{}, [9]uint32{}, [6]uint32{}
}

// cellBand and cellBit are each cell's band and bit in its band's words.
var cellBand, cellBit [81]uint8

func init() {
	for i := range cellBand {
		cellBand[i], cellBit[i] = uint8(i/27), uint8(i%27)
	}
}

// propagate applies the band rule to every dirty word, and removes placed
// digits from their cells, rows and columns, until nothing changes. It
// returns false on a contradiction.
func (s *triadState) propagate() bool {
	for {
		b := 0
		switch {
		case s.dirty[0] != 0:
		case s.dirty[1] != 0:
			b = 1
		case s.dirty[2] != 0:
			b = 2
		default:
			return true
		}
		s.tdirty |= 1<<b | 8
		w := &s.f[b]
		dm := s.dirty[b]
		s.dirty[b] = 0
		for dm != 0 {
			d := bits.TrailingZeros32(dm)
			dm &= dm - 1
			s.vdirty |= 1 << d
			a := w[d]
			info := uint32(rowInfo[a&511]) | uint32(rowInfo[a>>9&511])<<3 | uint32(rowInfo[a>>18])<<6
			keep := complexTab[info&511]
			h, sup9 := s.hp[d], uint32(permSupTab[info&511])
			s.tot[b] += uint32(permCountTab[sup9]) - uint32(permCountTab[h>>(9*b)&511])
			s.hp[d] = h&^(511<<(9*b)) | sup9<<(9*b)
			open := s.rows[b] >> uint(3*d) & 7
			if a&keep != a {
				a &= keep
				if a == 0 {
					return false
				}
				w[d] = a
				if open == 0 {
					continue
				}
				info = uint32(rowInfo[a&511]) | uint32(rowInfo[a>>9&511])<<3 | uint32(rowInfo[a>>18])<<6
			}
			// Rows of this digit down to one cell: the digit is placed
			// there; no other digit may take those cells, and the digit
			// leaves their columns in the other two bands.
			newly := (info>>9 | info>>11 | info>>13) & 7 & open
			if newly == 0 {
				continue
			}
			s.rows[b] &^= newly << uint(3*d)
			cells := a & rowsTab[newly]
			s.free[b] &^= cells
			v0, v1, v2 := w[0]&cells, w[1]&cells, w[2]&cells
			v3, v4, v5 := w[3]&cells, w[4]&cells, w[5]&cells
			v6, v7, v8 := w[6]&cells, w[7]&cells, w[8]&cells
			w[0] ^= v0
			w[1] ^= v1
			w[2] ^= v2
			w[3] ^= v3
			w[4] ^= v4
			w[5] ^= v5
			w[6] ^= v6
			w[7] ^= v7
			w[8] ^= v8
			dirty := nz(v0) | nz(v1)<<1 | nz(v2)<<2 | nz(v3)<<3 | nz(v4)<<4 | nz(v5)<<5 | nz(v6)<<6 | nz(v7)<<7 | nz(v8)<<8
			w[d] = a
			dirty &^= 1 << d
			dm |= dirty
			s.vdirty |= dirty
			cm := colsOf(cells) * rowRep
			o := &otherBands[b]
			u1 := s.f[o[0]][d] & cm
			s.f[o[0]][d] ^= u1
			s.dirty[o[0]] |= nz(u1) << d
			u2 := s.f[o[1]][d] & cm
			s.f[o[1]][d] ^= u2
			s.dirty[o[1]] |= nz(u2) << d
		}
	}
}

type settleState int

const (
	settleOpen settleState = iota
	settleFail
	settleSolved
)

// settle applies every rule of the triad kernel until nothing more
// follows; asm says to propagate with propagateBMI2.
func (s *triadState) settle(asm bool) settleState {
	for {
		var ok bool
		if asm {
			ok = propagateBMI2(s)
		} else {
			ok = s.propagate()
		}
		if !ok {
			return settleFail
		}
		if s.solved() {
			return settleSolved
		}
		found, ok := s.nakedSingles()
		if !ok {
			return settleFail
		}
		if found {
			continue
		}
		changed, ok := s.stackRule()
		if !ok {
			return settleFail
		}
		if changed {
			continue
		}
		if s.tdirty == 0 || s.open() < triadMinOpen {
			return settleOpen
		}
		changed, ok = s.triads()
		if !ok {
			return settleFail
		}
		if !changed {
			return settleOpen
		}
	}
}

// nakedSingles places the digit of every unsolved cell that has one
// candidate left. It returns found=true if it placed any and ok=false if
// a cell has none.
func (s *triadState) nakedSingles() (found, ok bool) {
	for b := 0; b < 3; b++ {
		u := s.free[b]
		if u == 0 {
			continue
		}
		w := &s.f[b]
		r1, r2 := w[0], uint32(0)
		r2 |= r1 & w[1]
		r1 |= w[1]
		r2 |= r1 & w[2]
		r1 |= w[2]
		r2 |= r1 & w[3]
		r1 |= w[3]
		r2 |= r1 & w[4]
		r1 |= w[4]
		r2 |= r1 & w[5]
		r1 |= w[5]
		r2 |= r1 & w[6]
		r1 |= w[6]
		r2 |= r1 & w[7]
		r1 |= w[7]
		r2 |= r1 & w[8]
		r1 |= w[8]
		if u&^r1 != 0 {
			return false, false
		}
		one := u &^ r2
		if one == 0 {
			continue
		}
		found = true
		for d := range w {
			x := w[d] & one
			if x == 0 {
				continue
			}
			a := w[d]
			for x != 0 {
				p := bits.TrailingZeros32(x)
				x &= x - 1
				a &^= rowOf[p] &^ (1 << p)
			}
			w[d] = a
			s.dirty[b] |= 1 << d
		}
	}
	return found, true
}

// stackRule applies the stack rule to the digits in vdirty and records
// their band/column matrices in sup. It returns changed=true if it removed
// candidates and ok=false on a contradiction.
func (s *triadState) stackRule() (changed, ok bool) {
	for v := s.vdirty; v != 0; v &= v - 1 {
		d := bits.TrailingZeros32(v)
		a0, a1, a2 := s.f[0][d], s.f[1][d], s.f[2][d]
		m := colsOf(a0) | colsOf(a1)<<9 | colsOf(a2)<<18
		if m == s.sup[d] {
			continue // the support of a support is itself
		}
		c1, c2 := colRot1(m), colRot2(m)
		// stackSupport(m), written out: the compiler would not inline it.
		sp := m & (rowRot1(c1)&rowRot2(c2) | rowRot1(c2)&rowRot2(c1))
		s.sup[d] = sp
		t, n := s.supT[d], stackMajor(sp)
		s.supT[d] = n
		s.tot[3] += uint32(permCountTab[n&511]) - uint32(permCountTab[t&511])
		s.tot[4] += uint32(permCountTab[n>>9&511]) - uint32(permCountTab[t>>9&511])
		s.tot[5] += uint32(permCountTab[n>>18]) - uint32(permCountTab[t>>18])
		if sp == m {
			continue
		}
		if colsOf(sp) != 511 {
			return false, false
		}
		n0 := a0 & ((sp & 511) * rowRep)
		n1 := a1 & ((sp >> 9 & 511) * rowRep)
		n2 := a2 & ((sp >> 18) * rowRep)
		s.f[0][d], s.f[1][d], s.f[2][d] = n0, n1, n2
		s.dirty[0] |= nz(n0^a0) << d
		s.dirty[1] |= nz(n1^a1) << d
		s.dirty[2] |= nz(n2^a2) << d
		changed = true
	}
	s.vdirty = 0
	return changed, true
}

// triads applies the triad rules to mini-columns and mini-rows. It needs s
// at a fixed point of the other rules (hp and sup up to date). It returns
// changed=true if it removed candidates and ok=false on a contradiction.
//
// Mini-rows (in hp) and mini-columns (in sup) are both seen as 27-bit
// words of nine 3-bit groups: a group is a row of a band for mini-rows, a
// stack of a band for mini-columns, and a digit goes in exactly one
// member of each group.
func (s *triadState) triads() (changed, ok bool) {
	// Both families at once: mini-columns in the low 32 bits, mini-rows in
	// the high ones.
	var c1, c2, c3, c4 uint64 // members with >= 1, 2, 3, 4 digits
	var f1, f2, f3, f4 uint64 // with >= 1.. 4 digits known to be there
	for d := 0; d < 9; d++ {
		x := uint64(s.sup[d]) | uint64(s.hp[d])<<32
		c4 |= c3 & x
		c3 |= c2 & x
		c2 |= c1 & x
		c1 |= x
		// Known: the only member of its group left to the digit.
		y := x &^ (colRot1w(x) | colRot2w(x))
		f4 |= f3 & y
		f3 |= f2 & y
		f2 |= f1 & y
		f1 |= y
	}
	if c3 != bandMask|bandMask<<32 || f4 != 0 {
		return false, false
	}
	s.tdirty = 0
	// only3: three digits can go there, not all known yet; full: three
	// known digits are there, and others still could.
	only3 := c3 &^ c4 &^ f3
	full := f3 & c4
	if only3|full == 0 {
		return false, true
	}
	for d := 0; d < 9; d++ {
		x := uint64(s.sup[d]) | uint64(s.hp[d])<<32
		// Members not yet known for this digit.
		open := x & (colRot1w(x) | colRot2w(x))
		must, gone := open&only3, open&full
		if must|gone == 0 {
			continue
		}
		changed = true
		// A digit that must go in a mini-column leaves the column in
		// the other bands and the other columns of the stack in this
		// band; in a mini-row, the other mini-rows of the row and the
		// box. A mini-column or mini-row that holds three known digits
		// holds no other.
		mv, mh := uint32(must), uint32(must>>32)
		ev := (rowRot1(mv) | rowRot2(mv) | colRot1(mv) | colRot2(mv) | uint32(gone)) & uint32(x)
		eh := (grpRot1(mh) | grpRot2(mh) | colRot1(mh) | colRot2(mh) | uint32(gone>>32)) & uint32(x>>32)
		for b := 0; b < 3; b++ {
			cells := (ev>>(9*b)&511)*rowRep | miniRowCells[eh>>(9*b)&511]
			if s.f[b][d]&cells != 0 {
				s.f[b][d] &^= cells
				s.dirty[b] |= 1 << d
			}
		}
	}
	return changed, true
}

// triadMinOpen is the number of open cells below which the triad rules
// are not tried: near the leaves of the search they rarely remove
// anything (counting the 201,122 solutions of a Norvig sub-puzzle takes
// 11% fewer instructions without them there, with 1.5% more guesses;
// top1465 and forum-hardest-1106 guess as often).
const triadMinOpen = 25

// open returns the number of unsolved cells.
func (s *triadState) open() int {
	return bits.OnesCount32(s.free[0]) + bits.OnesCount32(s.free[1]) + bits.OnesCount32(s.free[2])
}

// solved reports whether every digit is placed in every row.
func (s *triadState) solved() bool { return s.rows[0]|s.rows[1]|s.rows[2] == 0 }

// pickConfig chooses what to branch on, as tdoku does: the unit (band or
// stack) whose digits have the fewest configurations in all, among those
// not settled, and in it the digit with the fewest configurations above
// one. It returns the unit u (0-2 a band, 3-5 a stack), the digit d, and
// the 3x3 matrix whose permutations are the choices (bit row*3+box for a
// band, band*3+column for a stack). ok is false when every digit is down
// to one configuration everywhere.
func (s *triadState) pickConfig() (u, d int, mat uint32, ok bool) {
	tot := &s.tot
	best, bestTot := -1, uint32(1<<31)
	for u, t := range tot {
		if t > 9 && t < bestTot {
			best, bestTot = u, t
		}
	}
	if best < 0 {
		return 0, 0, 0, false
	}
	bd, bc := -1, uint8(255)
	sh := uint(9 * (best % 3))
	for d := 0; d < 9; d++ {
		m := s.hp[d]
		if best >= 3 {
			m = s.supT[d]
		}
		if c := permCountTab[m>>sh&511]; c >= 2 && c < bc {
			bd, bc, mat = d, c, m>>sh&511
			if c == 2 {
				break
			}
		}
	}
	return best, bd, mat, true
}

// stackMajor reorders a band/column word (bit 9*band+3*stack+j) stack
// by stack (bit 9*stack+3*band+j), a transpose of its 3-bit groups.
func stackMajor(x uint32) uint32 {
	return x&0o700070007 |
		(x&0o000700070)<<6 | (x&0o000000700)<<12 |
		(x&0o070007000)>>6 | (x&0o007000000)>>12
}

// applyConfig restricts digit d in unit u (0-2 a band, 3-5 a stack) to
// permutation i of permList.
func (s *triadState) applyConfig(u, d, i int) {
	if u < 3 {
		s.f[u][d] &= miniRowCells[permList[i]]
		s.dirty[u] |= 1 << d
		return
	}
	keep := &stackKeep[u-3][i]
	s.f[0][d] &= keep[0]
	s.f[1][d] &= keep[1]
	s.f[2][d] &= keep[2]
	s.dirty[0] |= 1 << d
	s.dirty[1] |= 1 << d
	s.dirty[2] |= 1 << d
}

var (
	// stackKeep[st][i][b] is the mask that keeps, of band b's cells in
	// stack st, only the column that permutation i of permList gives band
	// b (a permutation of bands over the stack's columns).
	stackKeep [3][6][3]uint32
)

func init() {
	for st := 0; st < 3; st++ {
		for i, p := range permList {
			for b := 0; b < 3; b++ {
				j := bits.TrailingZeros32(p >> (3 * b) & 7)
				cols := uint32(511)&^(7<<(3*st)) | 1<<(3*st+j)
				stackKeep[st][i][b] = cols * rowRep
			}
		}
	}
}

// triadKernel is a reusable triad solver: it counts solutions up to a limit and
// keeps the first one found.
type triadKernel struct {
	ctl
	asm   bool           // propagate with propagateBMI2
	sol   [3][9]uint32   // f of the first solution
	stack [56]triadState // search states by depth
}

// search counts the solutions below k.stack[depth]. A guess restricts a
// digit that has two or more configurations in a band or stack to one of
// them, and that digit keeps one there below: there are 54 such pairs, so
// the depth stays below 55.
func (k *triadKernel) search(depth int) {
	s := &k.stack[depth]
	for {
		if k.tick() {
			return
		}
		switch s.settle(k.asm) {
		case settleFail:
			return
		case settleSolved:
			if k.count == 0 {
				k.sol = s.f
			}
			k.found()
			return
		}
		u, d, mat, ok := s.pickConfig()
		if !ok {
			// Every digit down to one configuration in every band and
			// stack places it, so propagation would have solved s.
			return
		}
		last := -1
		for i, p := range permList {
			if mat&p != p {
				continue
			}
			if last >= 0 {
				c := &k.stack[depth+1]
				*c = *s
				k.guesses++
				c.applyConfig(u, d, last)
				k.search(depth + 1)
				if k.halt {
					return
				}
			}
			last = i
		}
		s.applyConfig(u, d, last)
	}
}

func (k *triadKernel) control() *ctl     { return &k.ctl }
func (k *triadKernel) load(g *Grid) bool { return k.stack[0].init(g) }
func (k *triadKernel) run()              { k.search(0) }

func (k *triadKernel) solution() Grid {
	var g Grid
	for b := 0; b < 3; b++ {
		for d := 0; d < 9; d++ {
			m := k.sol[b][d]
			for m != 0 {
				p := bits.TrailingZeros32(m)
				m &= m - 1
				g[b*27+p] = uint8(d + 1)
			}
		}
	}
	return g
}
