package join

import (
	"fmt"
	"testing"
)

// TestBoundedMatchesTables counts every task of small plans both ways,
// with arenas small enough to need several passes, and compares the
// counts and the nodes (half boards made).
func TestBoundedMatchesTables(t *testing.T) {
	for n := 4; n <= 14; n++ {
		gs := []Geometry{Cut(n)}
		if n <= 11 {
			gs = append(gs, Band(n, 2+n%2))
		}
		for _, g := range gs {
			t.Run(fmt.Sprintf("n=%d/%s", n, g), func(t *testing.T) {
				p, err := NewLayout(g, 0)
				if err != nil {
					t.Skip(err)
				}
				c, _ := NewCounter(p, Best(), CounterOptions{})
				if err := c.prepare(t.Context(), func(uint64) error { return nil }); err != nil {
					t.Fatal(err)
				}
				var tot [2]uint64
				for _, capacity := range []int{1 << 20, 3 * arenaChunk} {
					s := &scratch{k: Best()}
					b := &bscratch{k: Best(), capacity: capacity}
					var sum uint64
					for id, tk := range p.Tasks() {
						f := c.frames[tk.Frame]
						s.stat = stats{}
						want, err := f.countTop(tk.Top, s)
						if err != nil {
							t.Fatal(err)
						}
						b.halves = 0
						got, err := f.countBounded(tk.Top, f.southSets(tk.Top, nil), b)
						if err != nil {
							t.Fatalf("task %d: %v", id, err)
						}
						if got != want || b.halves != s.stat.halves {
							t.Fatalf("task %d (capacity %d): bounded %d completions, %d halves; tables %d, %d", id, capacity, got, b.halves, want, s.stat.halves)
						}
						sum += want * p.Frames[tk.Frame].Weight
					}
					tot[0] = sum
				}
				if tot[0] != known[n] {
					t.Fatalf("total %d, want %d", tot[0], known[n])
				}
			})
		}
	}
}
