// Package join counts n-queens solutions by joining partial boards (meet
// in the middle) instead of walking the search tree to every leaf.
//
// A Geometry cuts the board into a band (middle rows and columns: none
// for even n, the middle column for odd n) and four quadrants. A frame
// is a partial board whose band rows and columns each hold a queen; its
// completions fill the quadrants. Every completion puts the queens of the
// east columns on some set R of the free rows, R = Rt ∪ Rb (its north and
// south parts), and the west queens on the rest. For each R, the east
// half boards are the compatible pairs of a north-east placement on rows
// Rt and a south-east one on rows Rb with the complementary columns, both
// taken from a precomputed table of every placement on a quadrant; the
// west half boards likewise. A completion is then a pair of an east and a
// west half board with no diagonal in common: the join counts those pairs
// with bit-sliced AND tests, 512 pairs per few vector instructions (see
// block), after cutting both lists by the likeliest shared diagonals so
// that only pairs that can agree on those are tested.
//
// A Plan classes the frames under the symmetries of the square and cuts
// each into tasks, one per Rt; a Counter counts a task in bounded slices.
// Kernels (portable Go, AVX2, AVX-512) run the inner loop.
package join

import (
	"errors"
	"math/bits"
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
	b Board
	g Geometry
	n int
	q int
	s uint // the shift from a north quadrant to the south one: HN+WR rows
	// The join pattern: L1 bits of shared d1 diagonals, then L2 of d2.
	m            int
	mask1, mask2 uint64
	l1           uint
	// Free rows of the north and south quadrants and free columns of the
	// west and east ones, as masks in quadrant coordinates.
	ft, fb, cw, ce uint32
	// att[quadrant] holds the diagonals the placed queens take, in the
	// quadrant's coordinates, packed as the tables' entries are.
	att          [4]uint64
	north, south *quadTable
	// The west and east halves.
	sides [2]half
	// lr and ud say whether the board is its own mirror image left to
	// right and top to bottom; first is the first free north row.
	lr, ud bool
	first  uint32
	// diag says that the count uses the diagonal symmetry (diag.go).
	diag bool
	// keys[k] extracts the k index bits from a pattern; maxBits is the
	// most a join of this count takes (CounterOptions.KeyBits).
	keys    [maxIndexBits + 1]keyer
	maxBits int
}

// errBand reports a board whose band is not filled.
var errBand = errors.New("join: a band row or column has no queen")

// newFrame prepares b, cut by g, whose band rows and columns hold queens,
// with the tables of its north and south quadrants.
func newFrame(b Board, g Geometry, north, south *quadTable) (*frame, error) {
	n := b.N
	if !g.valid() || g.N != n {
		return nil, errors.New("join: bad board size or geometry")
	}
	if north.h != g.HN || north.q != g.Q || south.h != g.HS || south.q != g.Q {
		return nil, errors.New("join: quadrant tables of the wrong size")
	}
	if b.Rows&g.bandRows() != 0 || b.Cols&g.bandCols() != 0 {
		return nil, errBand
	}
	q := g.Q
	s := g.HN + g.WR
	c0 := q + g.WC // the east quadrants' first column
	f := &frame{b: b, g: g, n: n, q: q, s: uint(s), north: north, south: south, maxBits: maxIndexBits}
	f.ft = uint32(b.Rows & (uint64(1)<<uint(g.HN) - 1))
	f.fb = uint32(b.Rows >> uint(s) & (uint64(1)<<uint(g.HS) - 1))
	f.cw = uint32(b.Cols & (uint64(1)<<uint(q) - 1))
	f.ce = uint32(b.Cols >> uint(c0) & (uint64(1)<<uint(q) - 1))
	// A queen on local (r, c) of the h×q quadrant at (r0, c0) has d1 =
	// r+c + r0+c0 and d2 = r-c+q-1 + r0+n-q-c0.
	quads := [4][3]int{{0, 0, g.HN}, {0, c0, g.HN}, {s, 0, g.HS}, {s, c0, g.HS}}
	for i, o := range quads {
		lm := uint64(1)<<uint(o[2]+q-1) - 1
		a1 := shiftDown(b.D1, o[0]+o[1]) & lm
		a2 := shiftDown(b.D2, o[0]+n-q-o[1]) & lm
		f.att[i] = a1 | a2<<32
	}
	// The shared diagonals: those both halves reach from their
	// quadrants' squares. Each kind is a run: [lo1, lo1+l1) and [lo2,
	// lo2+l2).
	var d [2][2]uint64 // side, kind
	for _, o := range quads {
		sd := 0
		if o[1] > 0 || q == 0 {
			sd = 1
		}
		for r := o[0]; r < o[0]+o[2]; r++ {
			for c := o[1]; c < o[1]+q; c++ {
				d[sd][0] |= 1 << uint(r+c)
				d[sd][1] |= 1 << uint(r-c+n-1)
			}
		}
	}
	lo1, l1 := span(d[0][0] & d[1][0])
	lo2, l2 := span(d[0][1] & d[1][1])
	f.m = l1 + l2
	f.l1 = uint(l1)
	f.mask1, f.mask2 = uint64(1)<<uint(l1)-1, uint64(1)<<uint(l2)-1
	// A half board's v1 and v2 (its diagonals in its north quadrant's
	// coordinates) are the absolute ones less o1 = c0 and o2 = n-q-c0
	// of that quadrant (west: c0 = 0).
	sh := func(lo, o int) uint { return uint(max(lo-o, 0)) }
	f.sides[0] = half{cols: f.cw, north: f.att[nw], south: f.att[sw], sh1: sh(lo1, 0), sh2: sh(lo2, n-q)}
	f.sides[1] = half{cols: f.ce, north: f.att[ne], south: f.att[se], sh1: sh(lo1, c0), sh2: sh(lo2, n-q-c0)}
	f.initKeys(lo1, lo2)
	f.symmetries()
	return f, nil
}

// span returns the first set bit of x and the length of the span from it
// to the last set bit.
func span(x uint64) (lo, n int) {
	if x == 0 {
		return 0, 0
	}
	lo = bits.TrailingZeros64(x)
	return lo, 64 - bits.LeadingZeros64(x) - lo
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
	nc     [2]norths // each side's north entries ready to pair (halves)
	sa     entries   // south entries ready to pair
	view   entries   // a part of nc's, for the kernels
	ie, iw []uint64  // e and w sorted by index key
	ke, kw []uint32  // their keys
	ce, cw []int32   // bucket starts
	blk    *block    // see block
	kr     keyer     // a join's own index bits (chooseKeys)
	ks     keySample // chooseKeys' samples
	tr     trie      // the join's trie (joinBuckets, projectJoin)
	tails  []uint64  // a packed leaf's patterns (joinLeaf)
	// keep, when not nil, says which keys of the blocks' side the join
	// joins (the estimator's sample, on the bounded path's list join).
	keep []bool
	// sel, when not 0, says which classes of column sets (diag.go) each
	// side's half boards (west, east) are made of, against key (p1, p2).
	sel    [2]uint8
	p1, p2 uint32
	k      Kernel
	// Work since the last look up (half boards made, plus items run
	// through a block), and what to do then.
	ticker
	stat stats
}

// block returns s's block, made (aligned, see newBlock) on first use.
func (s *scratch) block() *block {
	if s.blk == nil {
		s.blk = newBlock()
	}
	return s.blk
}

// stats count what a join did: its Work, and more for tuning.
type stats struct {
	halves, builds, items, real uint64
	lookups                     uint64 // table entries the kernels read
	halfLookups                 uint64 // of which by the half kernel
	smallLookups, largeLookups  uint64 // the others, by the layouts' families
	buildEntries                uint64 // table entries built
	direct                      uint64 // pairs counted one by one
	steps                       uint64 // bucket pairs visited
	sorted                      uint64 // patterns bucketed by key
	made                        uint64 // half boards made (every pass's)
	weighed                     uint64 // the key choice's sample patterns read and buckets weighed
	maxList                     int    // longest list of half boards
	keyBits                     int    // most index bits of a join
}

// work returns the Work st counts.
func (st *stats) work() Work {
	return Work{
		Halves: float64(st.made), Sorted: float64(st.sorted),
		Small: float64(st.smallLookups), Large: float64(st.largeLookups), Half: float64(st.halfLookups),
		Builds: float64(st.buildEntries), Direct: float64(st.direct), Steps: float64(st.steps),
		Weighed: float64(st.weighed),
	}
}

// sliceWork is the work between two look ups: a few milliseconds (a
// variable for tests).
var sliceWork uint64 = 1 << 20

// ticker is a counting goroutine's work since it last looked up, and
// what to do then (its caller's progress and cancellation).
type ticker struct {
	work  uint64
	yield func(work uint64) error
}

// tick adds work done and, every sliceWork, calls s.yield with it.
func (s *ticker) tick(work uint64) error {
	s.work += work
	if s.work < sliceWork || s.yield == nil {
		return nil
	}
	w := s.work
	s.work = 0
	return s.yield(w)
}

// half is one side of a frame, west or east, for making its half boards.
type half struct {
	cols         uint32 // free columns of its quadrants
	north, south uint64 // diagonals attacked in each quadrant (table packing)
	// A half board's queens take diagonals v1 (d1) and v2 (d2), in the
	// coordinates of its north quadrant; its join pattern is bits sh1..
	// of v1 then bits sh2.. of v2, 2q-1 of each.
	sh1, sh2 uint
	// How its north and south entries become entries ready to pair, and
	// a number no other side has (set by initKeys).
	pn, ps patMap
	id     uint64
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
	f.diag = f.diagOK()
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
	key := func(r uint64) uint64 {
		if uint32(r)&f.first == 0 {
			r |= 1 << 63
		}
		return r
	}
	r := uint64(rt) | uint64(rb)<<f.s
	me := key(r)
	seen := [4]uint64{me}
	size := 1
	add := func(r uint64) bool {
		k := key(r)
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
	if f.lr && !add(f.b.Rows&^r) {
		return 0
	}
	if f.ud {
		u := reverse(r, f.n)
		if !add(u) {
			return 0
		}
		if f.lr && !add(f.b.Rows&^u) {
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
