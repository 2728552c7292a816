package join

import (
	"fmt"
	"testing"

	"github.com/nqcount/nqcount/internal/impltest"
)

// TestBoundedMatchesTables counts every task of small plans both ways,
// on every kernel, with an arena that joins every row set as lists and
// one small enough to stream row sets in several passes (and to fill
// every chunk, with buckets forced small: many keys), one in which row
// sets hold one side whole and make the other in pieces (joinDiagHeld),
// and compares the counts and the nodes (half boards made).
func TestBoundedMatchesTables(t *testing.T) {
	impltest.Run(t, "join", Kernels(), describe, func(t *testing.T, k Kernel) {
		top := 14
		if k.Name == Best().Name {
			top = 16 // the filing's waits, which kernels share, once
		}
		for n := 4; n <= top; n++ {
			gs := []Geometry{Cut(n)}
			if n <= 11 {
				gs = append(gs, Band(n, 2+n%2))
			}
			buckets := []int{blockSize, 64, 4}
			if n > 14 {
				// Lists long enough that the small arena's keys run out of
				// chunks (half boards wait for the next pass).
				buckets = buckets[:1]
			}
			for _, g := range gs {
				for _, minBucket := range buckets {
					t.Run(fmt.Sprintf("n=%d/%s/bucket=%d", n, g, minBucket), func(t *testing.T) {
						defer func(v int) { indexMinBucket = v }(indexMinBucket)
						indexMinBucket = minBucket
						boundedMatchesTables(t, g, k)
					})
				}
			}
		}
	})
}

func boundedMatchesTables(t *testing.T, g Geometry, k Kernel) {
	n := g.N
	p, err := NewLayout(g, 0)
	if err != nil {
		t.Skip(err)
	}
	c, _ := NewCounter(p, k, CounterOptions{})
	if err := c.prepare(t.Context(), func(uint64) error { return nil }); err != nil {
		t.Fatal(err)
	}
	type mode struct {
		capacity                   int
		noLists, noPasses, noSmall bool
		// eager: every row set too large by its bound is begun as
		// lists (listRoom's share of half boards forced to about 0),
		// so that many outgrow the budget and go on in passes.
		eager bool
	}
	// Lists; passes only (streaming what no passes fit); streaming only;
	// short sides against long ones (joinSmall) where they are, the
	// rest in passes; and all in one small arena (where n is large enough
	// for the small arena to need passes for some row sets).
	modes := []mode{{1 << 20, false, false, false, false}, {3 * arenaChunk, true, false, true, false}, {3 * arenaChunk, true, true, true, false},
		{8 * arenaChunk, true, false, true, false}, {3 * arenaChunk, true, false, false, false}}
	if n >= 14 {
		modes = append(modes, mode{3 * arenaChunk, false, false, false, false}, mode{3 * arenaChunk, false, true, false, false},
			mode{3 * arenaChunk, false, false, false, true}, mode{24 * arenaChunk, false, false, false, false})
	}
	for _, md := range modes {
		capacity := md.capacity
		s := &scratch{k: k}
		b := &bscratch{k: k, capacity: capacity, noLists: md.noLists, noPasses: md.noPasses, noSmall: md.noSmall}
		if md.eager {
			b.listPairs, b.listHalves = 1<<60, 1
		}
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
		if sum != known[n] {
			t.Fatalf("total %d, want %d", sum, known[n])
		}
		t.Logf("n=%d capacity %d %+v: %d row sets joined as lists (%d more outgrew them), %d with one side held whole, %d in passes (%d short against long, %d under the diagonal symmetry), %d streamed", n, capacity, md, b.listed, b.outgrown, b.held1, b.passed, b.small, b.diagPassed, b.streamed)
		switch {
		case n < 10:
		case md.eager && (b.outgrown == 0 || b.listed == 0 || b.passed == 0):
			t.Fatalf("capacity %d, lists begun eagerly: %d joined as lists, %d outgrew them, %d in passes; want some of each", capacity, b.listed, b.outgrown, b.passed)
		case md.noLists && !md.noPasses && !md.noSmall && b.small == 0:
			t.Fatalf("capacity %d, no lists: no short side joined against a long one (joinSmall)", capacity)
		case md.noLists && !md.noPasses && md.noSmall && b.small > 0:
			t.Fatalf("capacity %d, no lists, no short sides: %d joined by joinSmall", capacity, b.small)
		case md.noPasses && (b.passed > 0 || b.streamed == 0):
			t.Fatalf("capacity %d, no passes: %d row sets in passes, %d streamed", capacity, b.passed, b.streamed)
		case md.noLists && !md.noPasses && b.passed == 0:
			t.Fatalf("capacity %d, no lists: no row set joined in passes", capacity)
		case md.noLists && !md.noPasses && n >= 12 && g == Cut(n) && n%2 == 0 && b.diagPassed == 0:
			t.Fatalf("capacity %d, no lists, even cut: no row set joined in passes under the diagonal symmetry (joinPassesDiag)", capacity)
		case md.noPasses && b.diagPassed > 0:
			t.Fatalf("capacity %d, no passes: %d row sets joined by joinPassesDiag", capacity, b.diagPassed)
		case n == 16 && capacity == 24*arenaChunk && (b.held1 == 0 || b.pieces <= b.held1):
			t.Fatalf("capacity %d: %d row sets with one side held whole, in %d pieces; want some in several", capacity, b.held1, b.pieces)
		case !md.noLists && capacity == 1<<20 && (b.passed > 0 || b.streamed > 0):
			t.Fatalf("capacity %d: %d row sets in passes, %d streamed, where all fit", capacity, b.passed, b.streamed)
		}
	}
}
