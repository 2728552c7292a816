package logic

import (
	"fmt"

	"github.com/nqcount/nqcount/count/sudoku"
)

// fullHouse finds a house with one empty cell left (1.0).
func fullHouse(s *solver, b *board) (Step, bool) {
	for _, h := range houseOrder {
		if b.empty[h] != 1 {
			continue
		}
		empty := -1
		for _, c := range houseCells[h] {
			if b.val[c] == 0 {
				empty = c
			}
		}
		missing := 0x1FF &^ b.placedIn(h)
		if popcount(missing) != 1 || b.cand[empty] != missing {
			continue // a broken state; the solver reports it
		}
		d := onlyDigit(missing)
		st := Step{Technique: "full house", Score: 1.0, Placements: []Move{{empty, d}}}
		if !s.quiet {
			st.Text = fmt.Sprintf("%s can only be %d: full house, the last empty cell of %s", sudoku.CellName(empty), d, houseName(h))
			st.Cells = houseEmptyless(b, h, empty)
			st.Houses = []House{houseOfIndex(h)}
		}
		return st, true
	}
	return Step{}, false
}

// houseOrder tries boxes first, then rows, then columns: a hidden single
// in a box is the easiest to see (1.2; 1.5 in a row or column).
var houseOrder = func() (o [27]int) {
	for i := 0; i < 9; i++ {
		o[i], o[9+i], o[18+i] = 18+i, i, 9+i
	}
	return
}()

// houseEmptyless returns the cells of house h except c.
func houseEmptyless(_ *board, h, c int) []int {
	out := make([]int, 0, 8)
	for _, x := range houseCells[h] {
		if x != c {
			out = append(out, x)
		}
	}
	return out
}

// hiddenSingle finds a digit with one place left in a house: 1.2 in a box,
// 1.5 in a row or column.
func hiddenSingle(s *solver, b *board) (Step, bool) {
	for _, h := range houseOrder {
		var once, twice uint16
		for _, c := range houseCells[h] {
			x := b.cand[c]
			twice |= once & x
			once |= x
		}
		single := once &^ twice
		if single == 0 {
			continue
		}
		d := onlyDigit(single & -single)
		bit := uint16(1) << (d - 1)
		c := -1
		for _, x := range houseCells[h] {
			if b.cand[x]&bit != 0 {
				c = x
				break
			}
		}
		t := 15
		if h >= 18 {
			t = 12
		}
		st := Step{Technique: "hidden single", Score: score(t), Placements: []Move{{c, d}}}
		if !s.quiet {
			// The pattern: the house's other empty cells, where d cannot go.
			for _, x := range houseCells[h] {
				if x != c && b.val[x] == 0 {
					st.Cells = append(st.Cells, x)
				}
			}
			st.Text = fmt.Sprintf("%s can only be %d: hidden single in %s, the only place for %d there", sudoku.CellName(c), d, houseName(h), d)
			st.Houses = []House{houseOfIndex(h)}
		}
		return st, true
	}
	return Step{}, false
}

// nakedSingle finds a cell with one candidate left (2.3).
func nakedSingle(s *solver, b *board) (Step, bool) {
	for c := 0; c < 81; c++ {
		if b.val[c] != 0 || popcount(b.cand[c]) != 1 {
			continue
		}
		d := onlyDigit(b.cand[c])
		st := Step{Technique: "naked single", Score: 2.3, Placements: []Move{{c, d}}, Cells: []int{c}}
		if !s.quiet {
			st.Text = fmt.Sprintf("%s can only be %d: naked single, %d is the cell's last candidate", sudoku.CellName(c), d, d)
		}
		return st, true
	}
	return Step{}, false
}
