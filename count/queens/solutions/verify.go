package solutions

import "fmt"

// Verify checks in O(n) time that cols places n non-attacking queens on an
// n×n board, n = len(cols): every value is a column in range, and no two
// queens share a column or a diagonal (rows differ by construction). It
// returns nil or an error naming the first conflict found.
func Verify(cols []int) error {
	n := len(cols)
	if n == 0 {
		return fmt.Errorf("empty board")
	}
	// One bit set per column, per diagonal r+c and per anti-diagonal
	// r-c+n-1: 5n bits.
	words := func(k int) []uint64 { return make([]uint64, (k+63)/64) }
	col, diag, anti := words(n), words(2*n-1), words(2*n-1)
	test := func(set []uint64, i int) bool {
		w, b := i>>6, uint64(1)<<(i&63)
		if set[w]&b != 0 {
			return true
		}
		set[w] |= b
		return false
	}
	for r, c := range cols {
		if c < 0 || c >= n {
			return fmt.Errorf("row %d: column %d is off the %d×%d board", r, c, n, n)
		}
		if test(col, c) {
			return fmt.Errorf("row %d: column %d already holds a queen", r, c)
		}
		if test(diag, r+c) {
			return fmt.Errorf("row %d column %d: diagonal already holds a queen", r, c)
		}
		if test(anti, r-c+n-1) {
			return fmt.Errorf("row %d column %d: anti-diagonal already holds a queen", r, c)
		}
	}
	return nil
}
