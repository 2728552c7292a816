package queens

import (
	"math/bits"
	"sync"

	"github.com/nqcount/nqcount/count"
)

// Unique solutions by Burnside's lemma. The number of classes under the
// group of the square's 8 symmetries is the average number of solutions
// each symmetry fixes. No solution with n > 1 is fixed by a reflection (two
// of its queens would share a line), the identity fixes all of them, and
// the quarter turns fix the same set, so
//
//	unique = (total + 2·R90 + R180) / 8
//
// where R90 counts the solutions unchanged by a quarter turn and R180 those
// unchanged by a half turn (R90 ⊆ R180). Both are tiny searches next to the
// total: a symmetric solution is fixed by a quarter or half of its queens.

// UniqueFrom returns the number of solutions up to symmetry (A002562)
// from the total number of solutions of the n×n board (A000170).
func UniqueFrom(n int, total count.Uint128) count.Uint128 {
	if total.IsUint64() {
		return count.U128(uniqueFrom(n, total.Lo))
	}
	r90, r180 := symmetricCounts(n)
	s := total.Add64(r90).Add64(r90).Add64(r180).Big()
	s.Rsh(s, 3)
	u, _ := count.ParseUint128(s.String())
	return u
}

// uniqueFrom returns the number of solution classes given the total.
func uniqueFrom(n int, total uint64) uint64 {
	if n == 1 {
		return 1
	}
	r90, r180 := symmetricCounts(n)
	return (total + 2*r90 + r180) / 8
}

// symmetric holds R90 and R180 per n once searched: a front end that
// gives unique counts again and again (a queue's status, each time a job
// completes) searches once per process.
var symmetric sync.Map // int -> *symmetricOnce

type symmetricOnce struct {
	once      sync.Once
	r90, r180 uint64
}

// symmetricCounts returns R90 and R180 for an n×n board.
func symmetricCounts(n int) (r90, r180 uint64) {
	v, _ := symmetric.LoadOrStore(n, new(symmetricOnce))
	o := v.(*symmetricOnce)
	o.once.Do(func() { o.r90, o.r180 = searchSymmetric(n) })
	return o.r90, o.r180
}

// searchSymmetric searches R90 and R180 for an n×n board.
func searchSymmetric(n int) (r90, r180 uint64) {
	s := symSearch{n: n}
	r180 = s.search(0)
	s = symSearch{n: n, quarter: true}
	r90 = s.search(0)
	return r90, r180
}

// symSearch places whole orbits of queens under a half turn (or a quarter
// turn) row by row, skipping rows an earlier orbit already filled.
type symSearch struct {
	n          int
	quarter    bool
	rows, cols uint64
	diag, anti uint64 // r+c and r-c+n-1
}

func (s *symSearch) search(r int) uint64 {
	n := s.n
	for r < n && s.rows>>uint(r)&1 == 1 {
		r++
	}
	if r == n {
		return 1
	}
	var total uint64
	for free := ^s.cols & (1<<uint(n) - 1); free != 0; free &= free - 1 {
		c := bits.TrailingZeros64(free)
		saved := *s
		if s.placeOrbit(r, c) {
			total += s.search(r + 1)
		}
		*s = saved
	}
	return total
}

// placeOrbit puts a queen on (r,c) and on every square the turns searched
// for map it to, and reports whether none of them attacks another. The
// orbit of the centre square (odd n) is the square alone; any other
// square has 2 images under the half turn, 4 under the quarter turns,
// all distinct.
func (s *symSearch) placeOrbit(r, c int) bool {
	n := s.n
	if 2*r == n-1 && 2*c == n-1 {
		return s.put(r, c)
	}
	if !s.put(r, c) || !s.put(n-1-r, n-1-c) {
		return false
	}
	return !s.quarter || s.put(c, n-1-r) && s.put(n-1-c, r)
}

func (s *symSearch) put(r, c int) bool {
	n := s.n
	rb, cb := uint64(1)<<uint(r), uint64(1)<<uint(c)
	db, ab := uint64(1)<<uint(r+c), uint64(1)<<uint(r-c+n-1)
	if s.rows&rb != 0 || s.cols&cb != 0 || s.diag&db != 0 || s.anti&ab != 0 {
		return false
	}
	s.rows |= rb
	s.cols |= cb
	s.diag |= db
	s.anti |= ab
	return true
}
