package sudokupage

import (
	"fmt"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/logic"
)

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

// firstClash returns the first pair of cells whose digits clash, as
// clashes names it.
func firstClash(g sudoku.Grid) (int, int) {
	for i := 0; i < 81; i++ {
		if g[i] == 0 {
			continue
		}
		for _, p := range peersOf(i) {
			if p > i && g[p] == g[i] {
				return i, p
			}
		}
	}
	return -1, -1
}

func sharedHouse(a, b int) string { return sharedHouseOf(a, b).String() }

// sharedHouseOf returns a house that cells a and b share.
func sharedHouseOf(a, b int) logic.House {
	switch {
	case a/9 == b/9:
		return logic.House{Kind: "row", Index: a / 9}
	case a%9 == b%9:
		return logic.House{Kind: "column", Index: a % 9}
	}
	return logic.House{Kind: "box", Index: a/27*3 + a%9/3}
}
