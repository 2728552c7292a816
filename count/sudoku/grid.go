// Package sudoku solves and counts 9x9 sudoku puzzles.
//
// The solver (Solve, Solver; package batch for many puzzles) keeps one 27-bit candidate mask per
// digit and band. Its variants (Variants, LookupVariant) differ in how they
// reason and guess: the best, triad, propagates band and stack
// configurations and triads (mini-rows and mini-columns hold three digits)
// and branches on the configuration with the fewest choices, after tdoku's
// design; triad-bmi2 is the same with its propagation in assembly;
// lanes-avx512 settles the givens of sixteen puzzles at once in AVX-512
// (Solver.SolveEach) and searches on with triad-bmi2; band is the earlier
// solver, rows only, guessing on cells. Solving never allocates. Count splits one puzzle's search into prefix tasks run on all
// cores by package count's engine, reports progress and answers
// cancellation within a fraction of a millisecond per worker. Parse and Reader read puzzles in
// the usual formats and check them; Level names ranges of the difficulty
// scale. The human-style solver (explanations, hints, ratings) is package
// logic below this one, the generator package generate.
package sudoku

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"unicode/utf8"
)

// Grid is a 9x9 sudoku grid, row by row; 0 is an empty cell, 1-9 a digit.
type Grid [81]uint8

// String returns the grid on one line of 81 characters, '.' for empty.
func (g Grid) String() string {
	var b [81]byte
	for i, v := range g {
		if v == 0 {
			b[i] = '.'
		} else {
			b[i] = '0' + v
		}
	}
	return string(b[:])
}

// GridString returns the grid as 9 lines of 9 characters, each ending in
// a newline, '.' for empty: the layout Parse and Reader read back.
func (g Grid) GridString() string {
	var sb strings.Builder
	s := g.String()
	for r := 0; r < 9; r++ {
		sb.WriteString(s[r*9 : r*9+9])
		sb.WriteByte('\n')
	}
	return sb.String()
}

// MarshalText writes the grid as String does, so that it is a JSON string.
func (g Grid) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText reads a grid with Parse.
func (g *Grid) UnmarshalText(b []byte) error {
	v, err := Parse(string(b))
	if err != nil {
		return err
	}
	*g = v
	return nil
}

// Words of eight cells, a byte each: the constants and the test that the
// loops taking eight cells (or characters) at a time share.
const (
	byteOnes = 0x0101010101010101 // 1 in every byte
	byteLo7  = 0x7f7f7f7f7f7f7f7f // the low seven bits of every byte
	byteHi   = 0x8080808080808080 // the high bit of every byte
)

// nonzeroHi returns the high bit of each byte of x that is not 0.
func nonzeroHi(x uint64) uint64 { return (x&byteLo7 + byteLo7 | x) & byteHi }

// Clues returns the number of filled cells.
func (g Grid) Clues() int {
	// Eight cells at a time: the high bit of each byte of t is set for
	// the empty ones.
	empty := 0
	for i := 0; i < 80; i += 8 {
		t := ^nonzeroHi(binary.LittleEndian.Uint64(g[i:])) & byteHi
		empty += bits.OnesCount64(t)
	}
	if g[80] == 0 {
		empty++
	}
	return 81 - empty
}

// AppendText appends the grid as String writes it, without allocating
// when b has room for its 81 bytes.
func (g *Grid) AppendText(b []byte) []byte {
	// Eight cells at a time: a digit d (1-9) becomes '0'|d, an empty
	// cell '0'-2, which is '.'; a value above 9 (a Grid that Check
	// refuses) comes out as some other byte.
	b = slices.Grow(b, 81)
	for i := 0; i < 80; i += 8 {
		x := binary.LittleEndian.Uint64(g[i:])
		b = binary.LittleEndian.AppendUint64(b, x|'0'*byteOnes-(^nonzeroHi(x)&byteHi)>>6)
	}
	c := byte('.')
	if g[80] != 0 {
		c = '0' + g[80]
	}
	return append(b, c)
}

// CellName returns the name of cell i (0..80) as rRcC, both from 1.
func CellName(i int) string { return fmt.Sprintf("r%dc%d", i/9+1, i%9+1) }

// ParseError says what is wrong with a puzzle's text.
type ParseError struct {
	// Line is the 1-based line of the input where the puzzle starts; 0 if
	// the puzzle did not come from a file.
	Line int
	// Msg says what is wrong.
	Msg string
}

// Error returns the message, with "line N: " in front when Line is set.
func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Parse reads one puzzle: 81 cells row by row, '.' or '0' for an empty
// cell, '1'-'9' for a given. Spaces, tabs, newlines, '|', '-' and '+'
// between cells are ignored, so the 9-line grid layout (with or without
// box borders) is read too. It rejects a wrong number of cells, other
// characters and givens that clash in a row, column or box, naming the
// cells. Puzzles with 16 or fewer clues are accepted (see Grid.Clues):
// none has a unique solution, but they may still be solved or counted.
func Parse(s string) (Grid, error) { return parse(s) }

// parse is Parse for a string or, without copying it, the bytes of a line.
func parse[T string | []byte](s T) (Grid, error) {
	var g Grid
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.' || c == '0' || (c >= '1' && c <= '9'):
			if n < 81 {
				if c != '.' {
					g[n] = c - '0'
				}
			}
			n++
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '|' || c == '-' || c == '+':
		default:
			r, _ := utf8.DecodeRuneInString(string(s[i:]))
			return g, &ParseError{Msg: fmt.Sprintf("character %d is %q, not a digit or '.'", utf8.RuneCountInString(string(s[:i]))+1, string(r))}
		}
	}
	if n != 81 {
		return g, &ParseError{Msg: fmt.Sprintf("%d %s, want 81", n, plural(n, "cell", "cells"))}
	}
	if err := g.Check(); err != nil {
		return g, err
	}
	return g, nil
}

// Check returns an error naming the first two givens that clash in a row,
// column or box, or a value out of range; nil if there is none.
func (g *Grid) Check() error {
	// One pass over the givens with a mask per house; the slow pass
	// below, which names the cells, runs only for a grid that fails.
	var rows, cols, boxes [9]uint16
	var clash uint16
	var top uint8
	for k := range g.givens() {
		v := g[k]
		top = max(top, v)
		bit := uint16(1) << (v & 15)
		r, c, b := cellRow[k], cellCol[k], cellBox[k]
		clash |= (rows[r] | cols[c] | boxes[b]) & bit
		rows[r] |= bit
		cols[c] |= bit
		boxes[b] |= bit
	}
	if top > 9 || clash != 0 {
		return g.findClash()
	}
	return nil
}

// givens yields the cells that hold a value, in order, finding them all
// at once (givenMask).
func (g *Grid) givens() func(yield func(int) bool) {
	return func(yield func(int) bool) {
		lo, hi := givenMask(g)
		for m := lo; m != 0; m &= m - 1 {
			if !yield(bits.TrailingZeros64(m)) {
				return
			}
		}
		for m := hi; m != 0; m &= m - 1 {
			if !yield(64 + bits.TrailingZeros64(m)) {
				return
			}
		}
	}
}

// cellRow, cellCol and cellBox are the houses of each cell.
var cellRow, cellCol, cellBox [81]uint8

func init() {
	for i := range cellRow {
		r, c := i/9, i%9
		cellRow[i], cellCol[i], cellBox[i] = uint8(r), uint8(c), uint8(r/3*3+c/3)
	}
}

// findClash is Check's slow pass: it compares every pair of givens.
func (g *Grid) findClash() error {
	for i, v := range g {
		if v > 9 {
			return &ParseError{Msg: fmt.Sprintf("%s holds %d, not a digit 1-9", CellName(i), v)}
		}
	}
	for i := 0; i < 81; i++ {
		v := g[i]
		if v == 0 {
			continue
		}
		r, c := i/9, i%9
		for j := i + 1; j < 81; j++ {
			if g[j] != v {
				continue
			}
			r2, c2 := j/9, j%9
			var where string
			switch {
			case r == r2:
				where = fmt.Sprintf("row %d", r+1)
			case c == c2:
				where = fmt.Sprintf("column %d", c+1)
			case r/3 == r2/3 && c/3 == c2/3:
				where = fmt.Sprintf("box %d", r/3*3+c/3+1)
			default:
				continue
			}
			return &ParseError{Msg: fmt.Sprintf("givens clash: %s and %s are both %d in %s", CellName(i), CellName(j), v, where)}
		}
	}
	return nil
}
