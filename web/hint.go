package web

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/nqcount/nqcount/count/sudoku"
)

// Step is one step of logical solving, as the hint endpoint returns it:
// what to place or eliminate, why, and which cells show the reason.
type Step struct {
	// Technique names the reasoning: "hidden single", "naked single"; the
	// hint endpoint also answers "mistake", "clash", "contradiction",
	// "solved" and "reveal" (see docs/web.md).
	Technique string `json:"technique"`
	// Score is the technique's difficulty, higher is harder (Sudoku
	// Explainer's ratings times ten: hidden single in a box 12, in a row
	// or column 15, naked single 23); 0 for answers that are not a
	// technique.
	Score int `json:"score"`
	// Text says the step in words: "r3c5 can only be 7: hidden single in
	// box 2 (...)".
	Text string `json:"text"`
	// Placements are the digits the step places.
	Placements []Move `json:"placements"`
	// Eliminations are the candidates the step removes.
	Eliminations []Move `json:"eliminations"`
	// Cells are the cells that show the reason (the house of a hidden
	// single, the peers of a naked single, the cells in error), 0-80.
	Cells []int `json:"cells"`
}

// Move is one digit in one cell (0-80, row by row).
type Move struct {
	Cell  int `json:"cell"`
	Digit int `json:"digit"`
}

// Hinter finds the next logical step for a grid: a step a human solver
// can take from the digits on the board alone. The grid has no clashing
// digits; it may be partly wrong (the step is then still logical, but the
// hint endpoint looks for mistakes first when it knows the puzzle).
type Hinter interface {
	Hint(g sudoku.Grid) (Step, error)
}

// HinterFunc makes a function a Hinter.
type HinterFunc func(g sudoku.Grid) (Step, error)

// Hint calls f.
func (f HinterFunc) Hint(g sudoku.Grid) (Step, error) { return f(g) }

// ErrNoStep is returned by a Hinter that knows no step for the grid: its
// techniques are not enough.
var ErrNoStep = errors.New("no step found by the techniques known")

// DefaultHinter returns the hint engine the server uses unless told
// otherwise. For now it is Singles: the human solver with named
// techniques (count/sudoku/logic) is being written on another branch and
// will replace it behind this interface.
func DefaultHinter() Hinter { return HinterFunc(Singles) }

// Singles finds the simplest step of a grid from its digits alone: a
// hidden single in a box, then a naked single, then a hidden single in a
// row or column; ErrNoStep if there is none. A cell or a digit left
// without a place is reported as a "contradiction" step naming it.
func Singles(g sudoku.Grid) (Step, error) {
	var cand [81]uint16
	for i := range cand {
		if g[i] != 0 {
			continue
		}
		used := uint16(0)
		for _, p := range peersOf(i) {
			if v := g[p]; v != 0 {
				used |= 1 << (v - 1)
			}
		}
		cand[i] = 0x1FF &^ used
		if cand[i] == 0 {
			return Step{
				Technique: "contradiction",
				Text:      fmt.Sprintf("%s has no candidate left: every digit is already in its row, column or box, so a digit on the board is wrong", sudoku.CellName(i)),
				Cells:     append([]int{i}, filledPeers(g, i)...),
			}, nil
		}
	}
	// Hidden singles in boxes, the easiest to see.
	if st, ok, err := hiddenSingle(g, &cand, houseBox); ok || err != nil {
		return st, err
	}
	for i := 0; i < 81; i++ {
		if c := cand[i]; c != 0 && c&(c-1) == 0 {
			d := bits.TrailingZeros16(c) + 1
			return Step{
				Technique:  "naked single",
				Score:      23,
				Text:       fmt.Sprintf("%s can only be %d: naked single (every other digit is already in its row, column or box)", sudoku.CellName(i), d),
				Placements: []Move{{i, d}},
				Cells:      filledPeers(g, i),
			}, nil
		}
	}
	for _, kind := range []int{houseRow, houseCol} {
		if st, ok, err := hiddenSingle(g, &cand, kind); ok || err != nil {
			return st, err
		}
	}
	return Step{}, ErrNoStep
}

// The kinds of house.
const (
	houseRow = iota
	houseCol
	houseBox
)

// house returns the cells of house k (0-8) of a kind.
func house(kind, k int) [9]int {
	var cs [9]int
	for j := 0; j < 9; j++ {
		switch kind {
		case houseRow:
			cs[j] = k*9 + j
		case houseCol:
			cs[j] = j*9 + k
		default:
			cs[j] = (k/3*3+j/3)*9 + k%3*3 + j%3
		}
	}
	return cs
}

func houseName(kind, k int) string {
	return [...]string{"row", "column", "box"}[kind] + fmt.Sprintf(" %d", k+1)
}

// hiddenSingle looks for a digit with one place left in a house of the
// kind; a digit with none is a contradiction.
func hiddenSingle(g sudoku.Grid, cand *[81]uint16, kind int) (Step, bool, error) {
	for k := 0; k < 9; k++ {
		cs := house(kind, k)
		var have uint16
		for _, c := range cs {
			if v := g[c]; v != 0 {
				have |= 1 << (v - 1)
			}
		}
		for d := 1; d <= 9; d++ {
			bit := uint16(1) << (d - 1)
			if have&bit != 0 {
				continue
			}
			where, n := -1, 0
			for _, c := range cs {
				if cand[c]&bit != 0 {
					where, n = c, n+1
				}
			}
			switch n {
			case 0:
				return Step{
					Technique: "contradiction",
					Text:      fmt.Sprintf("%d has no place left in %s, so a digit on the board is wrong", d, houseName(kind, k)),
					Cells:     cs[:],
				}, true, nil
			case 1:
				score := 15
				if kind == houseBox {
					score = 12
				}
				h := houseName(kind, k)
				return Step{
					Technique:  "hidden single",
					Score:      score,
					Text:       fmt.Sprintf("%s can only be %d: hidden single in %s (no other cell of %s can hold a %d)", sudoku.CellName(where), d, h, h, d),
					Placements: []Move{{where, d}},
					Cells:      cs[:],
				}, true, nil
			}
		}
	}
	return Step{}, false, nil
}

// peersOf returns the 20 cells sharing a row, column or box with cell i.
func peersOf(i int) []int {
	ps := make([]int, 0, 20)
	r, c := i/9, i%9
	for j := 0; j < 81; j++ {
		r2, c2 := j/9, j%9
		if j != i && (r2 == r || c2 == c || (r2/3 == r/3 && c2/3 == c/3)) {
			ps = append(ps, j)
		}
	}
	return ps
}

// filledPeers returns the peers of i that hold a digit: the reason for a
// naked single.
func filledPeers(g sudoku.Grid, i int) []int {
	var out []int
	for _, p := range peersOf(i) {
		if g[p] != 0 {
			out = append(out, p)
		}
	}
	return out
}

// clashes returns every cell whose digit is also in its row, column or
// box, in increasing order, and a sentence naming the first clash.
func clashes(g sudoku.Grid) ([]int, string) {
	var bad [81]bool
	msg := ""
	for i := 0; i < 81; i++ {
		if g[i] == 0 {
			continue
		}
		for _, p := range peersOf(i) {
			if p > i && g[p] == g[i] {
				bad[i], bad[p] = true, true
				if msg == "" {
					msg = fmt.Sprintf("%s and %s are both %d in %s", sudoku.CellName(i), sudoku.CellName(p), g[i], sharedHouse(i, p))
				}
			}
		}
	}
	var out []int
	for i, b := range bad {
		if b {
			out = append(out, i)
		}
	}
	return out, msg
}

func sharedHouse(a, b int) string {
	switch {
	case a/9 == b/9:
		return houseName(houseRow, a/9)
	case a%9 == b%9:
		return houseName(houseCol, a%9)
	}
	return houseName(houseBox, a/27*3+a%9/3)
}

// cellList names cells: "r1c2, r3c4 and r5c6".
func cellList(cells []int) string {
	names := make([]string, len(cells))
	for i, c := range cells {
		names[i] = sudoku.CellName(c)
	}
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
