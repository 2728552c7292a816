// Package kernel holds the inner loops of the n-queens counter: iterative
// bitboard backtrackers that count every completion of one task.
//
// Every counting method of package queens describes its tasks as a Frame,
// so the kernels are independent of how the tasks were made, and all of
// them can be fed the same frames and must return the same counts, nodes
// included. Kernels register themselves in a small registry; Best picks
// the fastest one the CPU supports (from internal/x86),
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
//
// A task can take hours, and a kernel in assembly cannot be preempted by
// the Go runtime, so a search runs in slices: Search.Reset starts it on a
// Frame, Kernel.Run advances it by a node budget and returns with the
// explicit stack saved in the Search, and the next Run resumes exactly
// there. Between slices the caller checks for cancellation and reports
// progress (docs/architecture.md, contract 1). Kernel.Count runs a search
// to its end in one go.
package kernel

import (
	"errors"
	"fmt"
	"math/bits"
)

// MaxN is the largest board the kernels handle: a diagonal mask has 2n-1
// bits, which must fit in 64.
const MaxN = 32

// Look is how many of the first free rows a node compares to choose the
// next row, chosen by measuring 5, 6 and 8 (RESULTS.md, "Choices measured
// once"). Fewer misses constrained rows; more costs more per node than
// the nodes it saves.
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

// ErrFrame marks a Frame that does not describe a board the kernels can
// search: a size outside 1..MaxN, or bits outside the board.
var ErrFrame = errors.New("invalid frame")

// Check reports whether f is a frame the kernels can search: N in
// 1..MaxN, Full = (1<<N)-1, and no bit of Cols, Rows, D1 or D2 outside the
// board (a diagonal mask has 2N-1 bits). It does not check that the queens
// placed leave each other alone: a kernel counts the completions of any
// masks. The zero Frame is not valid (it has no board).
func (f *Frame) Check() error {
	if f.N < 1 || f.N > MaxN {
		return fmt.Errorf("%w: N = %d is outside 1..%d", ErrFrame, f.N, MaxN)
	}
	full := uint64(1)<<uint(f.N) - 1
	diag := uint64(1)<<uint(2*f.N-1) - 1
	switch {
	case f.Full != full:
		return fmt.Errorf("%w: Full = %#x, want %#x for N = %d", ErrFrame, f.Full, full, f.N)
	case f.Cols&^full != 0:
		return fmt.Errorf("%w: Cols %#x has bits outside the %d columns", ErrFrame, f.Cols, f.N)
	case f.Rows&^full != 0:
		return fmt.Errorf("%w: Rows %#x has bits outside the %d rows", ErrFrame, f.Rows, f.N)
	case f.D1&^diag != 0:
		return fmt.Errorf("%w: D1 %#x has bits outside the %d diagonals", ErrFrame, f.D1, 2*f.N-1)
	case f.D2&^diag != 0:
		return fmt.Errorf("%w: D2 %#x has bits outside the %d diagonals", ErrFrame, f.D2, 2*f.N-1)
	}
	return nil
}

// level is one level of a search's explicit stack: the row being filled
// and the squares of it still to try, with the masks of the queens above
// it. The records are the whole state of a paused search, so that any
// kernel can resume it; the assembly reads them through go_asm.h.
type level struct {
	avail  uint64 // squares of row r still to try
	cols   uint64 // the masks of the queens placed above this level
	d1, d2 uint64
	rows   uint64 // free rows below this level (r excluded)
	r, nr  uint64 // the row and N-1-r
	_      uint64 // pads a record to 64 bytes, one cache line
}

// Search is a kernel's search of one frame, paused or finished: its
// explicit stack (one record per level) and its counts so far. Reset
// starts it on a frame; Kernel.Run advances it by a node budget and can be
// called again to resume exactly where it stopped, by the same kernel or
// another (every kernel keeps the same records). The zero Search is not
// started: Run panics on it.
//
// A Search is about 2 KiB; reuse one for many frames.
type Search struct {
	lv        [MaxN]level
	full      uint64 // Frame.Full
	nmin      uint64 // N-1
	solutions uint64 // found so far
	nodes     uint64 // visited so far
	limit     uint64 // Run stops once nodes >= limit (checked when backing up)
	depth     uint64 // index in lv of the level being searched
	done      bool   // the search is finished
	started   bool   // Reset succeeded
}

// Reset starts s on frame f: the cases without a search (no free row, one
// free row, a first row with no open square) are finished here, and
// otherwise the first row is chosen and the search waits at its root for
// Kernel.Run. It returns an error wrapping ErrFrame, and leaves s not
// started, when f fails Check.
func (s *Search) Reset(f *Frame) error {
	s.started, s.done = false, false
	if err := f.Check(); err != nil {
		return err
	}
	s.full, s.nmin = f.Full, uint64(f.N-1)
	s.solutions, s.nodes, s.depth = 0, 0, 0
	s.started = true
	rows := f.Rows
	switch {
	case rows == 0:
		s.solutions, s.done = 1, true
		return nil
	case rows&(rows-1) == 0:
		c := uint64(bits.OnesCount64(f.Open(bits.TrailingZeros64(rows))))
		s.solutions, s.nodes, s.done = c, c, true
		return nil
	}
	r, a := choose(f.N, f.Full, f.Cols, f.D1, f.D2, rows)
	if a == 0 {
		s.done = true
		return nil
	}
	s.lv[0] = level{
		avail: a, cols: f.Cols, d1: f.D1, d2: f.D2, rows: rows &^ (1 << uint(r)),
		r: uint64(r), nr: uint64(f.N - 1 - r),
	}
	return nil
}

// Solutions returns the completions counted so far: all of them once
// Done.
func (s *Search) Solutions() uint64 { return s.solutions }

// Nodes returns the nodes visited so far. A node is one queen placed; the
// queens of the last free row are counted by a population count and each
// still counts as a node, so every kernel and method reports comparable
// work.
func (s *Search) Nodes() uint64 { return s.nodes }

// Done reports whether the search is finished.
func (s *Search) Done() bool { return s.done }

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
