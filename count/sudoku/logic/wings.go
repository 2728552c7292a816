package logic

import (
	"fmt"

	"github.com/nqcount/nqcount/count/sudoku"
)

// wing finds an XY-Wing (4.2; xyz false) or an XYZ-Wing (4.4; xyz true).
// XY-Wing: a pivot with candidates x, y sees two pincers with x, z and
// y, z: whichever the pivot is, one pincer is z, so any cell that sees both
// pincers cannot be z. XYZ-Wing: the pivot has x, y, z itself, so only the
// cells that see all three lose z.
func wing(xyz bool) finder {
	return func(_ *solver, b *board) (Step, bool) {
		want := 2
		name, t := "xy-wing", 42
		if xyz {
			want, name, t = 3, "xyz-wing", 44
		}
		for p := 0; p < 81; p++ {
			pc := b.cand[p]
			if b.val[p] != 0 || popcount(pc) != want {
				continue
			}
			var pins []int
			for _, q := range peerList[p] {
				if b.val[q] == 0 && popcount(b.cand[q]) == 2 {
					pins = append(pins, q)
				}
			}
			for i, a := range pins {
				for _, c := range pins[i+1:] {
					ca, cc := b.cand[a], b.cand[c]
					if ca == cc {
						continue
					}
					z := ca & cc
					if popcount(z) != 1 {
						continue
					}
					if xyz {
						// a and c share z, and with it cover the pivot.
						if pc&z == 0 || (ca|cc) != pc {
							continue
						}
					} else if z&pc != 0 || (ca^cc) != pc {
						// Each pincer shares a different pivot digit.
						continue
					}
					zd := onlyDigit(z)
					seen := peerSet[a].and(peerSet[c])
					if xyz {
						seen = seen.and(peerSet[p])
					}
					var el []Move
					for _, x := range seen.cells() {
						if x != p && b.has(x, zd) {
							el = append(el, Move{x, zd})
						}
					}
					if len(el) == 0 {
						continue
					}
					var marks []Mark
					for _, x := range []int{p, a, c} {
						for _, d := range digits(b.cand[x]) {
							col := 0
							if d == zd {
								col = 1
							}
							marks = append(marks, Mark{x, d, col})
						}
					}
					var text string
					if xyz {
						text = fmt.Sprintf("xyz-wing: %s is %s, %s is %s and %s is %s: one of the three is %d, so %s",
							sudoku.CellName(p), digitList(digits(pc), "or"), sudoku.CellName(a), digitList(digits(ca), "or"),
							sudoku.CellName(c), digitList(digits(cc), "or"), zd, cannot(el))
					} else {
						x := onlyDigit(ca &^ z)
						y := onlyDigit(cc &^ z)
						text = fmt.Sprintf("xy-wing: %s is %d or %d; if %d, %s is %d, if %d, %s is %d; so %s",
							sudoku.CellName(p), x, y, x, sudoku.CellName(a), zd, y, sudoku.CellName(c), zd, cannot(el))
					}
					return Step{
						Technique:    name,
						Score:        score(t),
						Text:         text,
						Eliminations: el,
						Cells:        []int{p, a, c},
						Marks:        marks,
					}, true
				}
			}
		}
		return Step{}, false
	}
}
