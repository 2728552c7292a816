package join

import (
	"math/rand/v2"
	"testing"
)

var known = []uint64{0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512}

// naive counts completions of b by plain recursion over free rows.
func naive(b Board) uint64 {
	if b.Rows == 0 {
		return 1
	}
	r := 0
	for b.Rows>>uint(r)&1 == 0 {
		r++
	}
	var s uint64
	for c := 0; c < b.N; c++ {
		if b.Free(r, c) {
			g := b
			g.Place(r, c)
			s += naive(g)
		}
	}
	return s
}

func TestEmptyBoards(t *testing.T) {
	for n := 1; n <= 12; n++ {
		for split := 0; split <= n; split++ {
			got, err := Count(Empty(n, split))
			if err != nil {
				t.Fatal(err)
			}
			if got != known[n] {
				t.Errorf("n=%d split=%d: %d, want %d", n, split, got, known[n])
			}
		}
	}
}

func TestRandomBoards(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		n := 1 + rng.IntN(11)
		b := Empty(n, rng.IntN(n+1))
		for q := rng.IntN(n/2 + 1); q > 0; q-- {
			r, c := rng.IntN(n), rng.IntN(n)
			if b.Rows>>uint(r)&1 == 1 && (b.West|b.East)>>uint(c)&1 == 1 {
				b.Place(r, c)
			}
		}
		got := countFixed(b, rng.IntN(n+1))
		if want := naive(b); got != want {
			t.Fatalf("board %+v: join %d, naive %d", b, got, want)
		}
	}
}
