package join

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestRowLists: each row list holds exactly the table's entries on its
// rows and columns that miss the attacked diagonals.
func TestRowLists(t *testing.T) {
	for _, g := range []int{maxGroups, 3} {
		t.Run(fmt.Sprintf("groups=%d", g), func(t *testing.T) {
			defer func(v int) { maxGroups = v }(maxGroups)
			maxGroups = g
			rowLists(t)
		})
	}
}

func rowLists(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, hq := range [][2]int{{1, 1}, {3, 2}, {5, 5}, {6, 5}, {7, 7}, {8, 7}} {
		h, q := hq[0], hq[1]
		tb := newQuadTable(h, q)
		var l rowList
		for rows := uint32(0); rows < 1<<uint(h); rows++ {
			for try := 0; try < 3; try++ {
				cols := uint32(1)<<uint(q) - 1
				var att uint64
				if try > 0 {
					cols &^= uint32(rnd.IntN(1 << uint(q)))
					att = rnd.Uint64() & rnd.Uint64() & (uint64(1)<<uint(h+q-1) - 1) * (1 | 1<<32)
				}
				l.build(h, q, rows, cols, att)
				total := 0
				for c := uint32(0); c < 1<<uint(q); c++ {
					var want []uint64
					if c&^cols == 0 {
						for _, x := range tb.list(rows, c) {
							if x&att == 0 {
								want = append(want, x)
							}
						}
					}
					got := l.list(c)
					if len(got) != len(want) {
						t.Fatalf("%d×%d rows %b cols %b att %x: %d entries, want %d", h, q, rows, c, att, len(got), len(want))
					}
					seen := map[uint64]bool{}
					for _, x := range want {
						seen[x] = true
					}
					for _, x := range got {
						if !seen[x] {
							t.Fatalf("%d×%d rows %b cols %b: entry %x not in the table", h, q, rows, c, x)
						}
					}
					total += len(got)
				}
				if total != l.size() {
					t.Fatalf("size %d, lists hold %d", l.size(), total)
				}
			}
		}
	}
}
