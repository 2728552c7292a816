package logic

import (
	"fmt"
	"strings"

	"github.com/nqcount/nqcount/count/sudoku"
)

// Chains are alternating inference chains between candidates: a strong
// link (=) joins two candidates of which at least one is true (a cell's
// two candidates, a digit's two places in a house), a weak link (-) two of
// which at most one is (one cell, or one digit in two cells that see each
// other). Starting from a candidate assumed false and alternating strong
// and weak links, every candidate reached over a strong link is true: so
// either the first or the last candidate of the chain is true, and any
// candidate that sees both ends is false. A chain that comes back to its
// start proves the start true.

type chainKind int

const (
	xChain   chainKind = iota // one digit: conjugate pairs and peers
	xyChain                   // two-candidate cells, linked by digit
	aicChain                  // any links
)

var chainNames = [...]string{xChain: "x-chain", xyChain: "xy-chain", aicChain: "aic"}
var chainBase = [...]int{xChain: 65, xyChain: 66, aicChain: 70}

// lengthBonus is the score added for a chain of n candidates (or a forcing
// chain of n steps): 0.1 each time n passes 4, 6, 8, 12, 16, 24, 32, ...
func lengthBonus(n int) int {
	ceil, odd, added := 4, false, 0
	for n > ceil {
		added++
		if !odd {
			ceil = ceil * 3 / 2
		} else {
			ceil = ceil * 4 / 3
		}
		odd = !odd
	}
	return added
}

// node numbers a candidate: cell*9 + digit-1.
func node(c, d int) int   { return c*9 + d - 1 }
func nodeMove(n int) Move { return Move{n / 9, n%9 + 1} }

// linkGraph holds the strong and weak links of one chain kind.
type linkGraph struct {
	strong, weak [729][]int16
	present      [729]bool
}

func buildLinks(b *board, kind chainKind) *linkGraph {
	g := new(linkGraph)
	for c := 0; c < 81; c++ {
		if b.val[c] != 0 {
			continue
		}
		bival := popcount(b.cand[c]) == 2
		if kind == xyChain && !bival {
			continue
		}
		for _, d := range digits(b.cand[c]) {
			g.present[node(c, d)] = true
		}
	}
	for n := 0; n < 729; n++ {
		if !g.present[n] {
			continue
		}
		c, d := n/9, n%9+1
		// Links inside the cell.
		if kind != xChain {
			for _, e := range digits(b.cand[c]) {
				if e == d {
					continue
				}
				if popcount(b.cand[c]) == 2 {
					g.strong[n] = append(g.strong[n], int16(node(c, e)))
				}
				if kind == aicChain {
					g.weak[n] = append(g.weak[n], int16(node(c, e)))
				}
			}
		}
		// Links between cells, by digit.
		if kind != xyChain {
			for _, h := range houseOf[c] {
				w := b.where(h, d)
				if popcount(w) != 2 {
					continue
				}
				for _, x := range houseCells[h] {
					if x != c && w&(1<<indexIn(h, x)) != 0 && !containsNode(g.strong[n], node(x, d)) {
						g.strong[n] = append(g.strong[n], int16(node(x, d)))
					}
				}
			}
		}
		for _, p := range peerList[c] {
			if g.present[node(p, d)] {
				g.weak[n] = append(g.weak[n], int16(node(p, d)))
			}
		}
	}
	return g
}

// cellIndex[h][c] is c's position in house h (or -1).
var cellIndex [27][81]int8

func indexIn(h, c int) int { return int(cellIndex[h][c]) }

func containsNode(s []int16, n int) bool {
	for _, x := range s {
		if int(x) == n {
			return true
		}
	}
	return false
}

// chain finds the shortest chain of its kind that removes a candidate or
// proves one, and returns it as a step.
func chain(kind chainKind) finder {
	return func(s *solver, b *board) (Step, bool) {
		g := buildLinks(b, kind)
		best := []int(nil)
		var bestEl []Move
		var parent [729 * 2]int16
		var seen [729 * 2]bool
		var dep [729 * 2]int16
		var queue []int
		for start := 0; start < 729; start++ {
			if !g.present[start] || len(g.strong[start]) == 0 {
				continue
			}
			if s.cancelled() {
				return Step{}, false
			}
			clear(seen[:])
			queue = append(queue[:0], start*2) // state: node*2 + 1 if true
			seen[start*2] = true
			dep[start*2] = 0
			for qi := 0; qi < len(queue); qi++ {
				st := queue[qi]
				n, on := st/2, st%2 == 1
				if best != nil && int(dep[st])+2 > len(best)-1 {
					break // every chain from here is as long as the best
				}
				next := g.strong[n]
				if on {
					next = g.weak[n]
				}
				for _, m16 := range next {
					m := int(m16)
					ns := m*2 + 1
					if on {
						ns = m * 2
					}
					if seen[ns] {
						continue
					}
					seen[ns] = true
					parent[ns] = int16(st)
					dep[ns] = dep[st] + 1
					queue = append(queue, ns)
					if on {
						continue
					}
					// m is true if start is false.
					el := chainEliminations(b, start, m)
					if len(el) == 0 {
						continue
					}
					path := []int{ns}
					for x := ns; x != start*2; x = int(parent[x]) {
						path = append(path, int(parent[x]))
					}
					if best == nil || len(path) < len(best) {
						best = make([]int, len(path))
						for i, x := range path {
							best[len(path)-1-i] = x / 2
						}
						bestEl = el
					}
				}
			}
		}
		if best == nil {
			return Step{}, false
		}
		return chainStep(kind, best, bestEl), true
	}
}

// chainEliminations returns what a chain from start (false) to end (then
// true) proves: start itself if end is start, else the candidates that
// see both.
func chainEliminations(b *board, start, end int) []Move {
	if start == end {
		return []Move{nodeMove(start)}
	}
	var el []Move
	c0, d0, c1, d1 := start/9, start%9+1, end/9, end%9+1
	if d0 == d1 {
		for _, x := range peerSet[c0].and(peerSet[c1]).cells() {
			if b.has(x, d0) {
				el = append(el, Move{x, d0})
			}
		}
		return el
	}
	if c0 == c1 {
		for _, d := range digits(b.cand[c0]) {
			if d != d0 && d != d1 {
				el = append(el, Move{c0, d})
			}
		}
		return el
	}
	if sees(c0, c1) {
		if b.has(c1, d0) {
			el = append(el, Move{c1, d0})
		}
		if b.has(c0, d1) {
			el = append(el, Move{c0, d1})
		}
	}
	return el
}

// chainStep writes a chain (nodes from the start) as a step. If the chain
// comes back to its start, the start is placed (el holds it); else el are
// eliminations.
func chainStep(kind chainKind, path []int, el []Move) Step {
	// Capped below the forcing chains, which are tried only after chains.
	t := min(chainBase[kind]+lengthBonus(len(path)), 79)
	st := Step{Technique: chainNames[kind], Score: score(t)}
	var sb strings.Builder
	for i, n := range path {
		m := nodeMove(n)
		if i > 0 {
			if i%2 == 1 {
				sb.WriteString(" = ")
			} else {
				sb.WriteString(" - ")
			}
			st.Links = append(st.Links, Link{nodeMove(path[i-1]), m, i%2 == 1})
		}
		sb.WriteString(candName(m))
		st.Cells = append(st.Cells, m.Cell)
		st.Marks = append(st.Marks, Mark{m.Cell, m.Digit, 1 - i%2})
	}
	first, last := nodeMove(path[0]), nodeMove(path[len(path)-1])
	name := chainNames[kind]
	if kind == aicChain {
		name = "alternating inference chain"
	} else if kind == xChain {
		name = fmt.Sprintf("x-chain on %d", first.Digit)
	}
	if path[0] == path[len(path)-1] {
		st.Placements = el
		st.Text = fmt.Sprintf("%s: %s: if %s were not %d the chain would make it %d, so %s is %d",
			name, sb.String(), sudoku.CellName(first.Cell), first.Digit, first.Digit, sudoku.CellName(first.Cell), first.Digit)
		return st
	}
	st.Eliminations = el
	ends := fmt.Sprintf("%s is %d or %s is %d", sudoku.CellName(first.Cell), first.Digit, sudoku.CellName(last.Cell), last.Digit)
	if first.Digit == last.Digit {
		ends = fmt.Sprintf("%s or %s is %d", sudoku.CellName(first.Cell), sudoku.CellName(last.Cell), first.Digit)
	}
	st.Text = fmt.Sprintf("%s: %s: %s, so %s", name, sb.String(), ends, cannot(el))
	return st
}
