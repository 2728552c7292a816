package logic

import (
	"fmt"
	"math/bits"
)

// fish finds an n-fish on one digit (X-Wing 2, Swordfish 3, Jellyfish 4):
// n rows whose candidates for the digit lie in n columns between them
// (or n columns in n rows): the rest of those columns (rows) lose the
// digit.
func fish(n, t int, name string) finder {
	return func(_ *solver, b *board) (Step, bool) {
		for d := 1; d <= 9; d++ {
			for _, rows := range []bool{true, false} {
				off := 9
				if rows {
					off = 0
				}
				var pool []int
				var where [18]uint16
				for i := 0; i < 9; i++ {
					where[off+i] = b.where(off+i, d)
					if k := popcount(where[off+i]); k >= 2 && k <= n {
						pool = append(pool, off+i)
					}
				}
				var st Step
				found := combinations(pool, n, func(sel []int) bool {
					var u uint16
					for _, h := range sel {
						u |= where[h]
					}
					if popcount(u) != n {
						return false
					}
					var covers []int
					for m := u; m != 0; m &= m - 1 {
						covers = append(covers, 9-off+bits.TrailingZeros16(m))
					}
					var base cellset
					for _, h := range sel {
						base = base.or(houseSet[h])
					}
					var el []Move
					for _, cv := range covers {
						for _, c := range houseCells[cv] {
							if !base.has(c) && b.has(c, d) {
								el = append(el, Move{c, d})
							}
						}
					}
					if len(el) == 0 {
						return false
					}
					var cells []int
					var marks []Mark
					var houses []House
					for _, h := range sel {
						houses = append(houses, houseOfIndex(h))
						for _, c := range houseCells[h] {
							if b.has(c, d) {
								cells = append(cells, c)
								marks = append(marks, Mark{c, d, 0})
							}
						}
					}
					for _, cv := range covers {
						houses = append(houses, houseOfIndex(cv))
					}
					baseKind, coverKind := "rows", "columns"
					if !rows {
						baseKind, coverKind = "columns", "rows"
					}
					st = Step{
						Technique:    name,
						Score:        score(t),
						Text:         fmt.Sprintf("%s on %d: in %s %s, %d can only go in %s %s, so %s", name, d, baseKind, numbers(sel), d, coverKind, numbers(covers), cannot(el)),
						Eliminations: el,
						Cells:        cells,
						Houses:       houses,
						Marks:        marks,
					}
					return true
				})
				if found {
					return st, true
				}
			}
		}
		return Step{}, false
	}
}

// numbers writes the 1-based numbers of houses of one kind: "2, 5 and 7".
func numbers(hs []int) string {
	ds := make([]int, len(hs))
	for i, h := range hs {
		ds[i] = h%9 + 1
	}
	return digitList(ds, "and")
}
