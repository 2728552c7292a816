package join

// fillBand calls f with every way to complete b's band (the band rows
// and columns of g) with queens on free squares, one in every
// band row and band column still free. A queen may serve a band row and
// a band column at once.
func fillBand(b Board, g Geometry, f func(b Board, placed [][2]uint8)) {
	var placed [][2]uint8
	var rec func(b Board, i int)
	put := func(b Board, i, r, c int) {
		g := b
		g.Place(r, c)
		placed = append(placed, [2]uint8{uint8(r), uint8(c)})
		rec(g, i+1)
		placed = placed[:len(placed)-1]
	}
	rec = func(b Board, i int) {
		switch {
		case i < g.WR: // band row HN+i
			r := g.HN + i
			if b.Rows>>uint(r)&1 == 0 {
				rec(b, i+1)
				return
			}
			for c := 0; c < b.N; c++ {
				if b.Free(r, c) {
					put(b, i, r, c)
				}
			}
		case i < g.WR+g.WC: // band column Q+i-WR, off the band rows (all filled)
			c := g.Q + i - g.WR
			if b.Cols>>uint(c)&1 == 0 {
				rec(b, i+1)
				return
			}
			for r := 0; r < b.N; r++ {
				if b.Free(r, c) {
					put(b, i, r, c)
				}
			}
		default:
			f(b, placed)
		}
	}
	rec(b, 0)
}
