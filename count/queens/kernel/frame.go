// Package kernel holds the inner loops of the n-queens counter: iterative
// bitboard backtrackers that count every completion of one task.
//
// Every counting method of package queens describes its tasks as a Frame,
// so the kernels are independent of how the tasks were made, and all of
// them can be fed the same frames and must return the same counts, nodes
// included. Kernels register themselves in a small registry; Best picks
// the fastest one the CPU supports (from github.com/klauspost/cpuid/v2),
// and a user may force any other by name.
//
// The search they share fills the free rows in a dynamic order: at every
// node it looks at the first few free rows (Look of them) and fills the
// one with the fewest open squares next, the most constrained first. Rows
// are free to be filled in any order because the masks are absolute (a bit
// per column and one per diagonal of the board), not shifted row by row.
// On the constellation tasks this visits about half the nodes of filling
// the rows top down with a one-row lookahead (n = 14: 2.2 M against 4.2 M;
// n = 16: 78 M against 169 M), and a row with no open square cuts the
// branch at once.
package kernel

import "math/bits"

// MaxN is the largest board the kernels handle: a diagonal mask has 2n-1
// bits, which must fit in 64.
const MaxN = 32

// Look is how many of the first free rows a node compares to choose the
// next row. Measured with the bmi2 kernel, one worker, alternating runs:
// 6 against 5 at n = 17, median 5.08 s against 5.20 s (3 runs each), at
// n = 16 0.80 s against 0.85 s (5 each); 8 gave the same as 6 (5.12 s
// both). Fewer misses constrained rows; more costs more per node than the
// nodes it saves.
const Look = 6

// Frame is one task as a kernel sees it: the queens already placed, as
// absolute masks, and the rows still to fill.
type Frame struct {
	// N is the board size.
	N int
	// Full has one bit per column: (1<<N)-1.
	Full uint64
	// Cols has a bit for each column holding a queen.
	Cols uint64
	// D1 has bit r+c for each queen (r, c): the diagonals going down to
	// the left.
	D1 uint64
	// D2 has bit c-r+N-1 for each queen: the diagonals going down to the
	// right.
	D2 uint64
	// Rows has a bit for each row still to fill.
	Rows uint64
}

// Empty sets f to the empty n×n board: every row free, nothing attacked.
func (f *Frame) Empty(n int) {
	*f = Frame{N: n, Full: 1<<uint(n) - 1, Rows: 1<<uint(n) - 1}
}

// Place puts a queen on (r, c) and marks row r filled.
func (f *Frame) Place(r, c int) {
	f.Cols |= 1 << uint(c)
	f.D1 |= 1 << uint(r+c)
	f.D2 |= 1 << uint(c-r+f.N-1)
	f.Rows &^= 1 << uint(r)
}

// Open returns the open squares of row r: columns not attacked by any
// queen placed.
func (f *Frame) Open(r int) uint64 {
	return f.Full &^ (f.Cols | f.D1>>uint(r) | f.D2>>uint(f.N-1-r))
}

// Func counts the completions of a frame and the nodes visited doing so.
// A node is one queen placed; the queens of the last free row are counted
// by a population count and each still counts as a node, so every kernel
// and method reports comparable work.
type Func func(f *Frame) (solutions, nodes uint64)

// start is the root of a search after its first row was chosen: what the
// kernel bodies begin from.
type start struct {
	avail      uint64 // open squares of the chosen row
	cols       uint64
	d1, d2     uint64
	rows       uint64 // free rows, the chosen one removed
	r, nr      uint64 // the chosen row and N-1-r
	full, nmin uint64 // Full and N-1
}

// withRoot wraps a kernel body: the cases without a search (no free row,
// one free row) and the choice of the first row are the same for every
// kernel, so they live here once.
func withRoot(body func(s *start) (solutions, nodes uint64)) Func {
	return func(f *Frame) (uint64, uint64) {
		rows := f.Rows
		if rows == 0 {
			return 1, 0
		}
		if rows&(rows-1) == 0 {
			c := uint64(bits.OnesCount64(f.Open(bits.TrailingZeros64(rows))))
			return c, c
		}
		r, a := choose(f.N, f.Full, f.Cols, f.D1, f.D2, rows)
		if a == 0 {
			return 0, 0
		}
		s := start{
			avail: a, cols: f.Cols, d1: f.D1, d2: f.D2, rows: rows &^ (1 << uint(r)),
			r: uint64(r), nr: uint64(f.N - 1 - r), full: f.Full, nmin: uint64(f.N - 1),
		}
		return body(&s)
	}
}

// choose returns, among the first Look free rows, the one with the fewest
// open squares (the first of them on a tie) and its open squares; a row
// with none ends the search (a = 0).
func choose(n int, full, cols, d1, d2, rows uint64) (r int, a uint64) {
	best := 99
	for i := 0; i < Look && rows != 0; i++ {
		t := bits.TrailingZeros64(rows)
		rows &= rows - 1
		o := full &^ (cols | d1>>uint(t) | d2>>uint(n-1-t))
		if o == 0 {
			return t, 0
		}
		if c := bits.OnesCount64(o); c < best {
			best, r, a = c, t, o
		}
	}
	return r, a
}
