package solutions

import (
	"fmt"
	"math/bits"
	"sync/atomic"
)

// MaxN is the largest board Enumerator and Search handle: every row's
// state fits in 64-bit masks.
const MaxN = 64

// Enumerator streams the solutions for one n in lexicographic order of
// their cols. It is an iterative bitboard backtracking search with an
// explicit stack: Next resumes where the previous call stopped, so the
// memory in use is O(n) however many solutions there are, and no call
// allocates.
//
//	e, _ := solutions.NewEnumerator(8)
//	for e.Next() {
//		use(e.Cols()) // valid until the next call to Next
//	}
type Enumerator struct {
	n     int
	row   int // the row of the last placement
	full  uint64
	done  bool
	nodes uint64 // placements made so far
	limit uint64 // 0: none
	why   error
	stop  atomic.Bool

	cols            []int
	avail           []uint64 // columns of row r still to try
	cl, left, right []uint64 // attacked columns entering row r

	unique  bool  // only canonical solutions
	scratch []int // for IsCanonical
}

// NewEnumerator returns an Enumerator positioned before the first solution
// for n queens, 1 <= n <= MaxN.
func NewEnumerator(n int) (*Enumerator, error) {
	if n < 1 || n > MaxN {
		return nil, fmt.Errorf("n = %d is out of range: enumeration handles 1 to %d", n, MaxN)
	}
	e := &Enumerator{
		n:     n,
		full:  ^uint64(0) >> (64 - n),
		cols:  make([]int, n),
		avail: make([]uint64, n),
		cl:    make([]uint64, n),
		left:  make([]uint64, n),
		right: make([]uint64, n),
	}
	e.avail[0] = e.full
	return e, nil
}

// SetNodeLimit makes Next give up, returning false with Err set to
// ErrNodeLimit, once the search has placed k queens in all (0: no limit).
func (e *Enumerator) SetNodeLimit(k uint64) { e.limit = k }

// Nodes returns the number of queens placed so far, a measure of work.
func (e *Enumerator) Nodes() uint64 { return e.nodes }

// Stop makes Next return false, with Err set to ErrStopped, at its next
// backtrack. It is safe to call from another goroutine (a signal handler's,
// say); everything else is for one goroutine.
func (e *Enumerator) Stop() { e.stop.Store(true) }

// Err returns why Next returned false: nil when every solution was
// listed, ErrNodeLimit or ErrStopped otherwise.
func (e *Enumerator) Err() error { return e.why }

// Cols returns the current solution: cols[r] is the column of the queen of
// row r. The slice is reused by Next; copy it to keep it.
func (e *Enumerator) Cols() []int { return e.cols }

// NewUniqueEnumerator is like NewEnumerator but lists only the canonical
// solution of each symmetry class (see Canonical), in lexicographic order:
// A002562(n) solutions.
func NewUniqueEnumerator(n int) (*Enumerator, error) {
	e, err := NewEnumerator(n)
	if err != nil {
		return nil, err
	}
	e.unique = true
	e.scratch = make([]int, n)
	// A canonical solution is no greater than its mirror image, whose
	// first column is n-1-cols[0]: only the left half of row 0 can start
	// one.
	e.avail[0] = e.full >> (n / 2)
	return e, nil
}

// Next advances to the next solution and reports whether there is one.
func (e *Enumerator) Next() bool {
	for e.next() {
		if !e.unique || IsCanonical(e.cols, e.scratch) {
			return true
		}
	}
	return false
}

func (e *Enumerator) next() bool {
	if e.done {
		return false
	}
	n, full := e.n, e.full
	r := e.row
	avail, cols := e.avail, e.cols
	cl, left, right := e.cl, e.left, e.right
	nodes, limit := e.nodes, e.limit
	for {
		a := avail[r]
		if a == 0 {
			// Every column of row r has been tried: backtrack.
			if r == 0 || e.stop.Load() {
				if r != 0 {
					e.why = ErrStopped
				}
				e.done, e.nodes = true, nodes
				return false
			}
			r--
			continue
		}
		bit := a & -a
		avail[r] = a ^ bit
		cols[r] = bits.TrailingZeros64(bit)
		nodes++
		if r == n-1 {
			e.row, e.nodes = r, nodes
			return true
		}
		if nodes == limit {
			e.done, e.nodes, e.why = true, nodes, ErrNodeLimit
			return false
		}
		c, l, d := cl[r]|bit, (left[r]|bit)<<1, (right[r]|bit)>>1
		r++
		cl[r], left[r], right[r] = c, l, d
		avail[r] = full &^ (c | l | d)
	}
}
