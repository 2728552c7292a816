package join

// MaxN is the largest board the join handles: a join pattern holds the
// shared diagonals of both directions, 2(n-w)-2 bits, in 64, and the
// quadrant tables stay addressable.
const MaxN = 32

// Board is a partial n×n board: some queens placed, and the rows and
// columns still free. Its completions put one more queen in every free
// row and every free column.
//
// Diagonals are numbered d1 = r+c and d2 = r-c+n-1, both 0..2n-2.
type Board struct {
	N          int
	Rows, Cols uint64 // free rows and columns
	D1, D2     uint64 // diagonals taken by the placed queens
}

// Empty returns the empty n×n board.
func Empty(n int) Board {
	full := uint64(1)<<uint(n) - 1
	return Board{N: n, Rows: full, Cols: full}
}

// Place puts a queen on (r, c): row r and column c are no longer free.
// It does not check that the square was free.
func (b *Board) Place(r, c int) {
	b.Rows &^= 1 << uint(r)
	b.Cols &^= 1 << uint(c)
	b.D1 |= 1 << uint(r+c)
	b.D2 |= 1 << uint(r-c+b.N-1)
}

// Free reports whether (r, c) is in a free row and a free column and on
// no diagonal a placed queen takes.
func (b *Board) Free(r, c int) bool {
	return b.Rows>>uint(r)&1 == 1 && b.Cols>>uint(c)&1 == 1 &&
		b.D1>>uint(r+c)&1 == 0 && b.D2>>uint(r-c+b.N-1)&1 == 0
}
