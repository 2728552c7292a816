package logic

import (
	"fmt"
	"math/bits"
)

// subsetOrder tries rows, then columns, then boxes.
var subsetOrder = func() (o [27]int) {
	for i := range o {
		o[i] = i
	}
	return
}()

var subsetNames = [...]string{2: "pair", 3: "triple", 4: "quad"}

// nakedSubset finds n cells of a house whose candidates together are n
// digits: the house's other cells lose those digits. Pair 3.0, triple 3.6,
// quad 5.0.
func nakedSubset(n, t int) finder {
	return func(_ *solver, b *board) (Step, bool) {
		for _, h := range subsetOrder {
			var pool []int
			empty := 0
			for _, c := range houseCells[h] {
				if b.val[c] != 0 {
					continue
				}
				empty++
				if k := popcount(b.cand[c]); k >= 2 && k <= n {
					pool = append(pool, c)
				}
			}
			if empty <= n {
				continue
			}
			var st Step
			found := combinations(pool, n, func(sel []int) bool {
				var u uint16
				for _, c := range sel {
					u |= b.cand[c]
				}
				if popcount(u) != n {
					return false
				}
				var el []Move
				for _, c := range houseCells[h] {
					if b.val[c] != 0 || contains(sel, c) {
						continue
					}
					for _, d := range digits(b.cand[c] & u) {
						el = append(el, Move{c, d})
					}
				}
				if len(el) == 0 {
					return false
				}
				var marks []Mark
				for _, c := range sel {
					for _, d := range digits(b.cand[c]) {
						marks = append(marks, Mark{c, d, 0})
					}
				}
				st = Step{
					Technique:    "naked " + subsetNames[n],
					Score:        score(t),
					Text:         fmt.Sprintf("naked %s: in %s, %s hold only %s between them, so %s", subsetNames[n], houseName(h), cellList(sel), digitList(digits(u), "and"), cannot(el)),
					Eliminations: el,
					Cells:        append([]int(nil), sel...),
					Houses:       []House{houseOfIndex(h)},
					Marks:        marks,
				}
				return true
			})
			if found {
				return st, true
			}
		}
		return Step{}, false
	}
}

// hiddenSubset finds n digits with only n places between them in a house:
// those cells lose their other candidates. Pair 3.4, triple 4.0, quad 5.4.
func hiddenSubset(n, t int) finder {
	return func(_ *solver, b *board) (Step, bool) {
		for _, h := range subsetOrder {
			placed := b.placedIn(h)
			if 9-popcount(placed) <= n {
				continue
			}
			var pool []int
			var where [10]uint16
			for d := 1; d <= 9; d++ {
				if placed>>(d-1)&1 != 0 {
					continue
				}
				where[d] = b.where(h, d)
				if k := popcount(where[d]); k >= 2 && k <= n {
					pool = append(pool, d)
				}
			}
			var st Step
			found := combinations(pool, n, func(sel []int) bool {
				var u, dm uint16
				for _, d := range sel {
					u |= where[d]
					dm |= 1 << (d - 1)
				}
				if popcount(u) != n {
					return false
				}
				var el []Move
				var cells []int
				var marks []Mark
				for m := u; m != 0; m &= m - 1 {
					c := houseCells[h][bits.TrailingZeros16(m)]
					cells = append(cells, c)
					for _, d := range digits(b.cand[c] &^ dm) {
						el = append(el, Move{c, d})
					}
					for _, d := range digits(b.cand[c] & dm) {
						marks = append(marks, Mark{c, d, 0})
					}
				}
				if len(el) == 0 {
					return false
				}
				st = Step{
					Technique:    "hidden " + subsetNames[n],
					Score:        score(t),
					Text:         fmt.Sprintf("hidden %s: in %s, %s can only go in %s, so %s", subsetNames[n], houseName(h), digitList(sel, "and"), cellList(cells), cannot(el)),
					Eliminations: el,
					Cells:        cells,
					Houses:       []House{houseOfIndex(h)},
					Marks:        marks,
				}
				return true
			})
			if found {
				return st, true
			}
		}
		return Step{}, false
	}
}

func contains(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

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
