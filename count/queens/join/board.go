package join

import (
	"errors"
	"math/bits"
)

// MaxN is the largest board the join handles: a join pattern keeps the
// shared diagonals of both directions, at most 2(n-1) bits, in 64.
const MaxN = 32

// Board is a partial n×n board whose completions are counted by joining:
// some queens are placed, and every free row and free column must get one
// more queen. The free columns are split in two sides, west and east; a
// completion puts |east| queens in the east columns, on some set R of the
// free rows, and the others in the west columns, on the rest.
//
// Diagonals are numbered d1 = r+c and d2 = r-c+n-1, both 0..2n-2.
type Board struct {
	N          int
	Rows       uint64 // free rows
	West, East uint64 // free columns on each side
	D1, D2     uint64 // diagonals taken by the placed queens
}

// ErrBoard reports a board the join cannot count.
var ErrBoard = errors.New("join: invalid board")

// Empty returns the empty n×n board split between columns split-1 and
// split.
func Empty(n, split int) Board {
	full := uint64(1)<<uint(n) - 1
	west := uint64(1)<<uint(split) - 1
	return Board{N: n, Rows: full, West: west, East: full &^ west}
}

// Place puts a queen on (r, c): row r and column c are no longer free.
func (b *Board) Place(r, c int) {
	b.Rows &^= 1 << uint(r)
	b.West &^= 1 << uint(c)
	b.East &^= 1 << uint(c)
	b.D1 |= 1 << uint(r+c)
	b.D2 |= 1 << uint(r-c+b.N-1)
}

// Free reports whether (r, c) is a free square not attacked by a placed
// queen.
func (b *Board) Free(r, c int) bool {
	return b.Rows>>uint(r)&1 == 1 && (b.West|b.East)>>uint(c)&1 == 1 &&
		b.D1>>uint(r+c)&1 == 0 && b.D2>>uint(r-c+b.N-1)&1 == 0
}

func (b *Board) check() error {
	if b.N < 1 || b.N > MaxN {
		return ErrBoard
	}
	full := uint64(1)<<uint(b.N) - 1
	if b.Rows&^full != 0 || (b.West|b.East)&^full != 0 || b.West&b.East != 0 {
		return ErrBoard
	}
	if bits.OnesCount64(b.Rows) != bits.OnesCount64(b.West|b.East) {
		return ErrBoard
	}
	return nil
}
