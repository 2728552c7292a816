package join

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// known[n] is A000170(n).
var known = []uint64{0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184,
	14772512, 95815104, 666090624, 4968057848, 39029188884, 314666222712, 2691008701644,
	24233937684440, 227514171973736}

// naive counts completions of b by plain recursion over the free rows.
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

// countBands counts b's completions by the join: every filling of its
// band of width w, each frame counted whole.
func countBands(t testing.TB, b Board, w int, k Kernel) uint64 {
	tab := newQuadTable((b.N - w) / 2)
	s := scratch{k: k}
	var total uint64
	fillBand(b, w, func(g Board, _ [][2]uint8) {
		f, err := newFrame(g, w, tab)
		if err != nil {
			t.Fatal(err)
		}
		c, err := f.countAll(&s)
		if err != nil {
			t.Fatal(err)
		}
		total += c
	})
	return total
}

func TestEmptyBoards(t *testing.T) {
	for n := 1; n <= 12; n++ {
		for w := n % 2; w <= n && w <= 4; w += 2 {
			t.Run(fmt.Sprintf("n=%d/w=%d", n, w), func(t *testing.T) {
				if got := countBands(t, Empty(n), w, Best()); got != known[n] {
					t.Errorf("%d, want %d", got, known[n])
				}
			})
		}
	}
}

// randomBoard places a few queens on distinct rows and columns of an
// empty board, attacking each other or not.
func randomBoard(r *rand.Rand, n int) Board {
	b := Empty(n)
	for q := r.IntN(n/2 + 1); q > 0; q-- {
		row, col := r.IntN(n), r.IntN(n)
		if b.Rows>>uint(row)&1 == 1 && b.Cols>>uint(col)&1 == 1 {
			b.Place(row, col)
		}
	}
	return b
}

func TestRandomBoards(t *testing.T) {
	old := indexMinBucket
	defer func() { indexMinBucket = old }()
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		n := 1 + rng.IntN(12)
		w := n % 2
		if rng.IntN(2) == 0 && w+2 <= n {
			w += 2
		}
		indexMinBucket = 1 + rng.IntN(64)
		b := randomBoard(rng, n)
		if got, want := countBands(t, b, w, Best()), naive(b); got != want {
			t.Fatalf("board %+v band %d: join %d, naive %d", b, w, got, want)
		}
	}
}

func TestSubsets(t *testing.T) {
	for _, set := range []uint32{0, 1, 0b1011, 0b1111111, 0b1010101010} {
		for k := 0; k <= 11; k++ {
			var got []uint32
			subsets(set, k, func(x uint32) { got = append(got, x) })
			var want []uint32
			for x := uint32(0); x < 1<<10; x++ {
				if x&^set == 0 && popcount32(x) == k {
					want = append(want, x)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("set %b k %d: %v, want %v", set, k, got, want)
			}
		}
	}
}

func popcount32(x uint32) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// countPlan counts every task of the plan for n and band w, one after
// the other.
func countPlan(t testing.TB, n, w int, k Kernel) uint64 {
	p, err := NewPlan(n, w)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCounter(p, k)
	if err != nil {
		t.Fatal(err)
	}
	var total uint64
	for id := range p.Tasks {
		n, _, err := c.Count(context.Background(), id, nil)
		if err != nil {
			t.Fatal(err)
		}
		total += n
	}
	return total
}

func TestPlans(t *testing.T) {
	for n := 1; n <= 13; n++ {
		for w := n % 2; w <= n && w <= 3; w += 2 {
			t.Run(fmt.Sprintf("n=%d/w=%d", n, w), func(t *testing.T) {
				if got := countPlan(t, n, w, Best()); got != known[n] {
					t.Errorf("%d, want %d", got, known[n])
				}
			})
		}
	}
}
