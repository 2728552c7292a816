package logic

import (
	"fmt"
	"math/bits"

	"github.com/nqcount/nqcount/count/sudoku"
)

// cluster is a connected set of one digit's conjugate pairs (the digit's
// only two places in some house), colored so that linked cells differ:
// exactly one color holds the digit.
type cluster struct {
	color [2]cellset
	links []Link
}

// clusters returns digit d's clusters of two cells or more, in the order of
// their first cell.
func clusters(b *board, d int) []cluster {
	var adj [81]cellset
	for h := 0; h < 27; h++ {
		w := b.where(h, d)
		if popcount(w) != 2 {
			continue
		}
		x := houseCells[h][bits.TrailingZeros16(w)]
		y := houseCells[h][15-bits.LeadingZeros16(w)]
		adj[x].add(y)
		adj[y].add(x)
	}
	var done cellset
	var out []cluster
	for c := 0; c < 81; c++ {
		if done.has(c) || adj[c].empty() {
			continue
		}
		var cl cluster
		var col [81]int
		queue := []int{c}
		done.add(c)
		cl.color[0].add(c)
		for len(queue) > 0 {
			x := queue[0]
			queue = queue[1:]
			for _, y := range adj[x].cells() {
				if done.has(y) {
					continue
				}
				done.add(y)
				col[y] = 1 - col[x]
				cl.color[col[y]].add(y)
				cl.links = append(cl.links, Link{Move{x, d}, Move{y, d}, true})
				queue = append(queue, y)
			}
		}
		out = append(out, cl)
	}
	return out
}

// seesAny returns the cells that see at least one cell of s.
func seesAny(s cellset) cellset {
	var out cellset
	for _, c := range s.cells() {
		out = out.or(peerSet[c])
	}
	return out
}

// clusterMarks marks the cluster's cells with colors base and base+1.
func clusterMarks(cl *cluster, d, base int) []Mark {
	var m []Mark
	for k := 0; k < 2; k++ {
		for _, c := range cl.color[k].cells() {
			m = append(m, Mark{c, d, base + k})
		}
	}
	return m
}

// simpleColoring (5.6): in one cluster, two cells of one color that see
// each other make that color false (color wrap); a cell that sees both
// colors cannot hold the digit (color trap).
func simpleColoring(_ *solver, b *board) (Step, bool) {
	for d := 1; d <= 9; d++ {
		cells := b.digitCells(d)
		for _, cl := range clusters(b, d) {
			all := cl.color[0].or(cl.color[1])
			st := Step{Technique: "simple coloring", Score: 5.6, Cells: all.cells(), Marks: clusterMarks(&cl, d, 0), Links: cl.links}
			for k := 0; k < 2; k++ {
				if seesAny(cl.color[k]).and(cl.color[k]).empty() {
					continue
				}
				for _, c := range cl.color[k].cells() {
					st.Eliminations = append(st.Eliminations, Move{c, d})
				}
				st.Text = fmt.Sprintf("simple coloring on %d: the conjugate pairs of %d link %s in two colors, one of which holds %d; two cells of one color see each other (color wrap), so that color is false: %s",
					d, d, cellList(st.Cells), d, cannot(st.Eliminations))
				return st, true
			}
			trap := seesAny(cl.color[0]).and(seesAny(cl.color[1])).and(cells).andNot(all)
			if trap.empty() {
				continue
			}
			for _, c := range trap.cells() {
				st.Eliminations = append(st.Eliminations, Move{c, d})
			}
			st.Text = fmt.Sprintf("simple coloring on %d: the conjugate pairs of %d link %s in two colors, one of which holds %d; %s",
				d, d, cellList(st.Cells), d, cannot(st.Eliminations)+" as they see both colors (color trap)")
			return st, true
		}
	}
	return Step{}, false
}

// multiColoring (5.8): two clusters of one digit where a cell of color A
// sees a cell of color B: A and B are not both true, so the opposite
// colors A' and B' are not both false, and a cell seeing both A' and B'
// cannot hold the digit. If a color sees both colors of the other
// cluster, that color is false.
func multiColoring(_ *solver, b *board) (Step, bool) {
	for d := 1; d <= 9; d++ {
		cells := b.digitCells(d)
		cls := clusters(b, d)
		for i := range cls {
			for j := range cls {
				if i == j {
					continue
				}
				A, B := &cls[i], &cls[j]
				for a := 0; a < 2; a++ {
					seeA := seesAny(A.color[a])
					st := Step{
						Technique: "multi-coloring",
						Score:     5.8,
						Cells:     A.color[0].or(A.color[1]).or(B.color[0]).or(B.color[1]).cells(),
						Marks:     append(clusterMarks(A, d, 0), clusterMarks(B, d, 2)...),
						Links:     append(append([]Link(nil), A.links...), B.links...),
					}
					intro := fmt.Sprintf("multi-coloring on %d: two clusters of conjugate pairs of %d, %s and %s, each in two colors",
						d, d, cellList(A.color[0].or(A.color[1]).cells()), cellList(B.color[0].or(B.color[1]).cells()))
					// Wedge: color a sees both colors of B.
					if !seeA.and(B.color[0]).empty() && !seeA.and(B.color[1]).empty() {
						for _, c := range A.color[a].cells() {
							st.Eliminations = append(st.Eliminations, Move{c, d})
						}
						st.Text = fmt.Sprintf("%s; %s see both colors of the second, and one of those is true, so %s", intro, cellList(A.color[a].cells()), cannot(st.Eliminations))
						return st, true
					}
					for bb := 0; bb < 2; bb++ {
						if i > j || seeA.and(B.color[bb]).empty() {
							continue
						}
						// A's color a and B's color bb are not both true.
						trap := seesAny(A.color[1-a]).and(seesAny(B.color[1-bb])).and(cells).andNot(A.color[1-a]).andNot(B.color[1-bb])
						if trap.empty() {
							continue
						}
						for _, c := range trap.cells() {
							st.Eliminations = append(st.Eliminations, Move{c, d})
						}
						st.Text = fmt.Sprintf("%s; %s and %s see each other, so %s or %s holds %d, and %s",
							intro, sudoku.CellName(firstSeeing(A.color[a], B.color[bb])), sudoku.CellName(firstSeeing(B.color[bb], A.color[a])),
							cellList(A.color[1-a].cells()), cellList(B.color[1-bb].cells()), d, cannot(st.Eliminations))
						return st, true
					}
				}
			}
		}
	}
	return Step{}, false
}

// firstSeeing returns the first cell of s that sees a cell of t.
func firstSeeing(s, t cellset) int {
	for _, c := range s.cells() {
		if !peerSet[c].and(t).empty() {
			return c
		}
	}
	return -1
}
