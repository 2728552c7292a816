package queens

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

// uniqueFrom returns the number of solution classes given the total.
func uniqueFrom(n int, total uint64) uint64 {
	if n == 1 {
		return 1
	}
	r90, r180 := symmetricCounts(n)
	return (total + 2*r90 + r180) / 8
}

// symmetricCounts returns R90 and R180 for an n×n board.
func symmetricCounts(n int) (r90, r180 uint64) {
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
	for c := 0; c < n; c++ {
		orbit := s.orbit(r, c)
		saved := [4]uint64{s.rows, s.cols, s.diag, s.anti}
		ok := true
		for _, p := range orbit {
			if !s.put(p[0], p[1]) {
				ok = false
				break
			}
		}
		if ok {
			total += s.search(r + 1)
		}
		s.rows, s.cols, s.diag, s.anti = saved[0], saved[1], saved[2], saved[3]
	}
	return total
}

// orbit lists the distinct squares (r,c) is mapped to by the turns
// searched for. An orbit whose squares attack each other is rejected by
// put when it is placed.
func (s *symSearch) orbit(r, c int) [][2]int {
	n := s.n
	pts := [][2]int{{r, c}, {n - 1 - r, n - 1 - c}}
	if s.quarter {
		pts = append(pts, [2]int{c, n - 1 - r}, [2]int{n - 1 - c, r})
	}
	var out [][2]int
	for _, p := range pts {
		dup := false
		for _, q := range out {
			if q == p {
				dup = true
			}
		}
		if !dup {
			out = append(out, p)
		}
	}
	return out
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
