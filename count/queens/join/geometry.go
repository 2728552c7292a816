package join

import "fmt"

// Geometry is how a board is cut for joining. The west and east halves
// are Q columns wide, with WC band columns between them; the north
// quadrants are HN rows high and the south ones HS, with WR band rows
// between. Every band row and band column holds a queen placed ahead of
// the join (a frame, see Plan); the quadrants are filled by the join.
type Geometry struct {
	N, Q, WC, HN, WR, HS int
}

// Even cuts an even board into four n/2 × n/2 quadrants, no band.
func Even(n int) Geometry { return Geometry{N: n, Q: n / 2, HN: n / 2, HS: n / 2} }

// Column cuts an odd board around its middle column only, whose queen
// the frames place; the middle row joins the north quadrants, (q+1)×q
// above q×q. Fewer, larger frames than a cut around the middle row as
// well: 4 of the 8 symmetries.
func Column(n int) Geometry {
	q := (n - 1) / 2
	return Geometry{N: n, Q: q, WC: 1, HN: q + 1, HS: q}
}

// String names the geometry as the plan hash and reports show it.
func (g Geometry) String() string {
	return fmt.Sprintf("q%d/c%d/n%d+%d+%d", g.Q, g.WC, g.HN, g.WR, g.HS)
}

func (g Geometry) valid() bool {
	return g.N >= 1 && g.N <= MaxN && g.Q >= 0 && g.WC >= 0 && g.HN >= 0 && g.WR >= 0 && g.HS >= 0 &&
		2*g.Q+g.WC == g.N && g.HN+g.WR+g.HS == g.N && g.HN+g.Q <= 2*MaxQ+1 && g.HS+g.Q <= 2*MaxQ+1
}

// square reports whether the cut is the same after a quarter turn: then
// frames are classed under all 8 symmetries of the square, else under
// the 4 that keep columns columns.
func (g Geometry) square() bool {
	return g.WC == g.WR && g.HN == g.Q && g.HS == g.Q
}

// bandRows and bandCols are the band's rows and columns as masks.
func (g Geometry) bandRows() uint64 { return (uint64(1)<<uint(g.WR) - 1) << uint(g.HN) }
func (g Geometry) bandCols() uint64 { return (uint64(1)<<uint(g.WC) - 1) << uint(g.Q) }
