// Package join counts n-queens completions by joining partial boards
// (meet in the middle) instead of walking the search tree to every leaf.
//
// The board is cut into a middle band (the w middle rows and w middle
// columns, w ≡ n mod 2) and four q×q quadrants, q = (n-w)/2. A frame is a
// partial board whose band rows and columns each hold a queen; its
// completions fill the quadrants. Every completion puts the queens of the
// east columns on some set R of the free rows (R = Rt ∪ Rb, its top and
// bottom parts) and the west queens on the rest. For each R, the east
// half boards are the compatible pairs of a north-east placement on rows
// Rt and a south-east one on rows Rb with the complementary columns, both
// taken from one precomputed table of q×q placements; the west half
// boards likewise. A completion is then a pair of an east and a west half
// board with no diagonal in common: the join counts those pairs with
// bit-sliced AND tests, 512 pairs per few vector instructions (see
// block), after cutting both lists by the likeliest diagonals so that
// only pairs that agree on those are tested.
package join

import (
	"errors"
	"math/bits"
	"slices"
)

// Quadrants, in the order of frame.att.
const (
	nw = iota
	ne
	sw
	se
)

// frame is a board prepared for joining.
type frame struct {
	b    Board
	n, q int
	s    uint   // n-q: the shift from a north quadrant to the south one
	m    int    // pattern bits: 2(2q-1)
	mask uint64 // 2q-1 low bits
	// Free rows of the north and south quadrants and free columns of the
	// west and east ones, as q-bit masks in quadrant coordinates.
	ft, fb, cw, ce uint32
	// att[quadrant] holds the diagonals the placed queens take, in the
	// quadrant's coordinates, packed as the table's entries are.
	att [4]uint64
	tab *quadTable
	// lr and ud say whether the board is its own mirror image left to
	// right and top to bottom; first is the first free north row.
	lr, ud bool
	first  uint32
	// keys[k] extracts the k index bits from a pattern.
	keys [maxIndexBits + 1]keyer
}

// errBand reports a board whose band is not filled.
var errBand = errors.New("join: a band row or column has no queen")

// newFrame prepares b, whose w middle rows and columns hold queens, with
// the quadrant table tab for q = (n-w)/2.
func newFrame(b Board, w int, tab *quadTable) (*frame, error) {
	n := b.N
	if n < 1 || n > MaxN || w < 0 || w > n || (n-w)%2 != 0 {
		return nil, errors.New("join: bad board size or band width")
	}
	q := (n - w) / 2
	if tab.q != q {
		return nil, errors.New("join: quadrant table of the wrong size")
	}
	band := (uint64(1)<<uint(w) - 1) << uint(q)
	if b.Rows&band != 0 || b.Cols&band != 0 {
		return nil, errBand
	}
	s := n - q
	f := &frame{b: b, n: n, q: q, s: uint(s), m: 2 * (2*q - 1), tab: tab}
	f.mask = uint64(1)<<uint(2*q-1) - 1
	lo := uint64(1)<<uint(q) - 1
	f.ft, f.fb = uint32(b.Rows&lo), uint32(b.Rows>>uint(s)&lo)
	f.cw, f.ce = uint32(b.Cols&lo), uint32(b.Cols>>uint(s)&lo)
	// A queen on local (r, c) of the quadrant at (r0, c0) has d1 = r+c +
	// r0+c0 and d2 = r-c+q-1 + r0-c0+n-q.
	for i, o := range [4][2]int{{0, 0}, {0, s}, {s, 0}, {s, s}} {
		a1 := shiftDown(b.D1, o[0]+o[1]) & f.mask
		a2 := shiftDown(b.D2, o[0]-o[1]+n-q) & f.mask
		f.att[i] = a1 | a2<<32
	}
	f.initKeys()
	f.symmetries()
	return f, nil
}

func shiftDown(x uint64, k int) uint64 {
	if k >= 64 {
		return 0
	}
	return x >> uint(k)
}

// scratch is the memory one counting goroutine reuses.
type scratch struct {
	e, w   []uint64
	ie, iw []uint64 // e and w sorted by index key
	ke, kw []uint32 // their keys
	ce, cw []int32  // bucket starts
	blk    block
	k      Kernel
	// Work since the last look up (half boards made, plus items run
	// through a block), and what to do then.
	work  uint64
	yield func(work uint64) error
}

// sliceWork is the work between two look ups: a few milliseconds.
const sliceWork = 1 << 20

// tick adds work done and, every sliceWork, calls s.yield with it.
func (s *scratch) tick(work uint64) error {
	s.work += work
	if s.work < sliceWork || s.yield == nil {
		return nil
	}
	w := s.work
	s.work = 0
	return s.yield(w)
}

// east appends to out the join patterns of the east half boards on rows
// rt of the north quadrant and rb of the south one.
func (f *frame) east(rt, rb uint32, out []uint64) []uint64 {
	k := bits.OnesCount32(rt)
	if k+bits.OnesCount32(rb) != bits.OnesCount32(f.ce) {
		return out
	}
	s, mask, hi := f.s, f.mask, uint(2*f.q-1)
	an, as := f.att[ne], f.att[se]
	as1, as2 := (as&0xFFFFFFFF)<<s, (as>>32)<<s
	subsets(f.ce, k, func(c uint32) {
		south := f.tab.list(rb, f.ce&^c)
		if len(south) == 0 {
			return
		}
		for _, x := range f.tab.list(rt, c) {
			if x&an != 0 {
				continue
			}
			x1, x2 := x&0xFFFFFFFF, x>>32
			b1, b2 := x1|as1, x2|as2
			// Branch-free: every candidate is written, and kept
			// (the length advanced) only when compatible; about half
			// are, so a branch would mispredict often.
			out = slices.Grow(out, len(south))
			o := out[len(out):cap(out)]
			o = o[:len(south)]
			i := 0
			for _, y := range south {
				y1, y2 := (y&0xFFFFFFFF)<<s, (y>>32)<<s
				o[i] = (x1|y1)&mask | ((x2|y2)>>s&mask)<<hi
				i += fits(y1&b1 | y2&b2)
			}
			out = out[:len(out)+i]
		}
	})
	return out
}

// west appends to out the join patterns of the west half boards on rows
// rt of the north quadrant and rb of the south one.
func (f *frame) west(rt, rb uint32, out []uint64) []uint64 {
	k := bits.OnesCount32(rt)
	if k+bits.OnesCount32(rb) != bits.OnesCount32(f.cw) {
		return out
	}
	s, mask, hi := f.s, f.mask, uint(2*f.q-1)
	an, as := f.att[nw], f.att[sw]
	as1, as2 := (as&0xFFFFFFFF)<<s, (as>>32)<<s
	subsets(f.cw, k, func(c uint32) {
		south := f.tab.list(rb, f.cw&^c)
		if len(south) == 0 {
			return
		}
		for _, x := range f.tab.list(rt, c) {
			if x&an != 0 {
				continue
			}
			x1, x2 := x&0xFFFFFFFF, x>>32
			b1, b2 := x1|as1, x2|as2
			// Branch-free: every candidate is written, and kept
			// (the length advanced) only when compatible; about half
			// are, so a branch would mispredict often.
			out = slices.Grow(out, len(south))
			o := out[len(out):cap(out)]
			o = o[:len(south)]
			i := 0
			for _, y := range south {
				y1, y2 := (y&0xFFFFFFFF)<<s, (y>>32)<<s
				o[i] = (x1|y1)>>s&mask | ((x2|y2)&mask)<<hi
				i += fits(y1&b1 | y2&b2)
			}
			out = out[:len(out)+i]
		}
	})
	return out
}

// fits is 1 when conflicts is 0, else 0.
func fits(conflicts uint64) int {
	return int((conflicts - 1) >> 63 & ^(conflicts >> 63))
}

// countRows counts the completions of f whose east queens take the rows
// rt of the north quadrants and rb of the south ones.
func (f *frame) countRows(rt, rb uint32, s *scratch) (uint64, error) {
	s.e = f.east(rt, rb, s.e[:0])
	if len(s.e) == 0 {
		return 0, nil
	}
	s.w = f.west(f.ft&^rt, f.fb&^rb, s.w[:0])
	if err := s.tick(uint64(len(s.e) + len(s.w))); err != nil {
		return 0, err
	}
	if len(s.w) == 0 {
		return 0, nil
	}
	return f.join(s.e, s.w, s)
}

// countTop counts the completions of f whose east queens take exactly
// the rows rt of the north quadrants: the unit of work of a plan. When f
// is its own mirror image (left to right, top to bottom or both), a row
// set and its images count the same, so only the least of each class is
// counted, times the size of the class (see canonical); a top set rt
// with no canonical row set gives 0.
func (f *frame) countTop(rt uint32, s *scratch) (uint64, error) {
	var total uint64
	var err error
	subsets(f.fb, bits.OnesCount32(f.ce)-bits.OnesCount32(rt), func(rb uint32) {
		if err != nil {
			return
		}
		if w := f.canonical(rt, rb); w > 0 {
			var c uint64
			c, err = f.countRows(rt, rb, s)
			total += w * c
		}
	})
	return total, err
}

// countAll counts every completion of f.
func (f *frame) countAll(s *scratch) (uint64, error) {
	if bits.OnesCount64(f.b.Rows) != bits.OnesCount64(f.b.Cols) {
		return 0, nil
	}
	var total uint64
	for _, rt := range f.tops() {
		c, err := f.countTop(rt, s)
		if err != nil {
			return 0, err
		}
		total += c
	}
	return total, nil
}

// The mirror images of a frame's completions. mirrorLR (c -> n-1-c) swaps
// the west and east halves: the east queens of the image are on the rows
// of the west queens, ft^rt and fb^rb. mirrorUD (r -> n-1-r) swaps north
// and south: rows rt and rb become rb and rt, reversed.

// symmetries finds which mirrors map f's board to itself.
func (f *frame) symmetries() {
	b := f.b
	n := b.N
	lr := Board{N: n, Rows: b.Rows, Cols: reverse(b.Cols, n), D1: b.D2, D2: b.D1}
	ud := Board{N: n, Rows: reverse(b.Rows, n), Cols: b.Cols, D1: reverse(b.D2, 2*n-1), D2: reverse(b.D1, 2*n-1)}
	f.lr = lr == b
	f.ud = ud == b
	f.first = f.ft & -f.ft
}

func reverse(x uint64, n int) uint64 {
	if n == 0 {
		return 0
	}
	return bits.Reverse64(x) >> uint(64-n)
}

// canonical returns how many row sets the class of (rt, rb) under f's
// mirrors holds when (rt, rb) is its least member, 0 when it is not. The
// order puts row sets whose top part holds f's first free north row
// first, so that under mirrorLR every class has its least member in the
// tasks that hold that row (and a plan can drop the others).
func (f *frame) canonical(rt, rb uint32) uint64 {
	if !f.lr && !f.ud {
		return 1
	}
	key := func(t, b uint32) uint64 {
		k := uint64(t)<<32 | uint64(b)
		if t&f.first == 0 {
			k |= 1 << 63
		}
		return k
	}
	me := key(rt, rb)
	seen := [4]uint64{me}
	size := 1
	add := func(t, b uint32) bool {
		k := key(t, b)
		if k < me {
			return false
		}
		for _, x := range seen[:size] {
			if x == k {
				return true
			}
		}
		seen[size] = k
		size++
		return true
	}
	q := f.q
	if f.lr && !add(f.ft^rt, f.fb^rb) {
		return 0
	}
	if f.ud {
		urt, urb := uint32(reverse(uint64(rb), q)), uint32(reverse(uint64(rt), q))
		if !add(urt, urb) {
			return 0
		}
		if f.lr && !add(f.ft^urt, f.fb^urb) {
			return 0
		}
	}
	return uint64(size)
}

// tops lists the top row sets of f's tasks: every subset of the free
// north rows, less those that hold no canonical row set.
func (f *frame) tops() []uint32 {
	var out []uint32
	for rt := uint32(0); ; rt = (rt - f.ft) & f.ft {
		if !f.lr || f.first == 0 || rt&f.first != 0 {
			out = append(out, rt)
		}
		if rt == f.ft {
			return out
		}
	}
}
