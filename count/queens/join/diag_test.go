package join

import (
	"fmt"
	"math/bits"
	"testing"
)

// TestDiagonalClasses checks the diagonal symmetry of the even cut
// against every solution, found by plain backtracking: the completions
// of row set P with column sets Q are as many as those of Q with P; the
// table path's count of each row set is Σ_Q M(P, Q) without the
// symmetry and Σ_Q w(P, Q)·M(P, Q) with it (w from the keys as diag.go
// defines them, computed here apart); and the weighted counts of the
// canonical row sets add up to every solution.
func TestDiagonalClasses(t *testing.T) {
	for _, n := range []int{4, 6, 8, 10, 12} {
		t.Run(fmt.Sprintf("n=%d", n), func(t *testing.T) {
			q := n / 2
			full := uint32(1)<<uint(q) - 1
			type sets struct{ x, y, u, v uint32 }
			m := map[sets]uint64{}
			var total uint64
			cols := make([]int, n)
			var place func(r int, used, d1, d2 uint64)
			place = func(r int, used, d1, d2 uint64) {
				if r == n {
					var s sets
					for r, c := range cols {
						switch {
						case r < q && c >= q:
							s.x |= 1 << uint(r)
						case r >= q && c >= q:
							s.y |= 1 << uint(r-q)
						}
						switch {
						case r >= q && c < q:
							s.u |= 1 << uint(c)
						case r >= q && c >= q:
							s.v |= 1 << uint(c-q)
						}
					}
					m[s]++
					total++
					return
				}
				for c := range n {
					if used>>uint(c)&1 == 0 && d1>>uint(r+c)&1 == 0 && d2>>uint(r-c+n)&1 == 0 {
						cols[r] = c
						place(r+1, used|1<<uint(c), d1|1<<uint(r+c), d2|1<<uint(r-c+n))
					}
				}
			}
			place(0, 0, 0, 0)
			for s, k := range m {
				if m[sets{s.u, s.v, s.x, s.y}] != k {
					t.Fatalf("M(%b %b, %b %b) = %d, its reflection %d", s.x, s.y, s.u, s.v, k, m[sets{s.u, s.v, s.x, s.y}])
				}
			}
			class := func(a uint32) uint32 { return min(a, full^a) }
			key := func(a, b uint32) [2]uint32 {
				x, y := class(a), class(bits.Reverse32(b)>>uint(32-q))
				return [2]uint32{min(x, y), max(x, y)}
			}
			weight := func(p, o [2]uint32) uint64 {
				switch {
				case o == p:
					return 1
				case o[0] > p[0] || o[0] == p[0] && o[1] > p[1]:
					return 2
				}
				return 0
			}
			f, err := newFrame(Empty(n), Even(n), newQuadTable(q, q), newQuadTable(q, q))
			if err != nil {
				t.Fatal(err)
			}
			if !f.diag {
				t.Fatal("the even cut of an empty board does not use the diagonal symmetry")
			}
			s := &scratch{k: Best()}
			var weighted uint64
			for rt := uint32(0); rt <= full; rt++ {
				for rb := uint32(0); rb <= full; rb++ {
					if bits.OnesCount32(rt)+bits.OnesCount32(rb) != q {
						continue
					}
					var plain, sym uint64
					for st, k := range m {
						if st.x == rt && st.y == rb {
							plain += k
							sym += weight(key(rt, rb), key(st.u, st.v)) * k
						}
					}
					f.diag = false
					got, err := f.countRows(rt, rb, s)
					f.diag = true
					gotSym, err2 := f.countRows(rt, rb, s)
					if err != nil || err2 != nil || got != plain || gotSym != sym {
						t.Fatalf("row set %b %b: %d and %d with the symmetry, want %d and %d (%v %v)", rt, rb, got, gotSym, plain, sym, err, err2)
					}
					weighted += f.canonical(rt, rb) * gotSym
				}
			}
			if weighted != total {
				t.Fatalf("canonical row sets weighted: %d, want %d", weighted, total)
			}
		})
	}
}
