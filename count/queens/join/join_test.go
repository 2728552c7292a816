package join

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/nqcount/nqcount/internal/impltest"
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
// band under geometry g, each frame counted whole.
func countBands(t testing.TB, b Board, g Geometry, k Kernel) uint64 {
	north, south := newQuadTable(g.HN, g.Q), newQuadTable(g.HS, g.Q)
	s := scratch{k: k}
	var total uint64
	fillBand(b, g, func(fb Board, _ [][2]uint8) {
		f, err := newFrame(fb, g, north, south)
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

// geometries lists the cuts to test for n.
func geometries(n int) []Geometry {
	gs := []Geometry{}
	for w := n % 2; w <= n && w <= 4; w += 2 {
		gs = append(gs, Band(n, w))
	}
	if n%2 == 1 {
		gs = append(gs, Column(n))
	}
	return gs
}

func TestEmptyBoards(t *testing.T) {
	for n := 1; n <= 11; n++ {
		for _, g := range geometries(n) {
			t.Run(fmt.Sprintf("n=%d/%s", n, g), func(t *testing.T) {
				if got := countBands(t, Empty(n), g, Best()); got != known[n] {
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

// TestRandomBoards counts random boards with every kernel (small
// buckets forced, so that the index bits are used), against naive.
func TestRandomBoards(t *testing.T) {
	old := indexMinBucket
	defer func() { indexMinBucket = old }()
	impltest.Run(t, "join", Kernels(), describe, func(t *testing.T, k Kernel) {
		rng := rand.New(rand.NewPCG(1, 2))
		for i := 0; i < 200; i++ {
			n := 1 + rng.IntN(11)
			gs := geometries(n)
			g := gs[rng.IntN(len(gs))]
			indexMinBucket = 1 + rng.IntN(64)
			b := randomBoard(rng, n)
			if got, want := countBands(t, b, g, k), naive(b); got != want {
				t.Fatalf("board %+v cut %s: join %d, naive %d", b, g, got, want)
			}
		}
	})
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

// countPlan counts every task of the plan for g, one after the other.
func countPlan(t testing.TB, g Geometry, k Kernel) uint64 {
	p, err := NewPlan(g)
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
		gs := geometries(n)
		if n > 11 {
			gs = Geometries(n)[:2] // the preferred cut and the next
		}
		for _, g := range gs {
			t.Run(fmt.Sprintf("n=%d/%s", n, g), func(t *testing.T) {
				if got := countPlan(t, g, Best()); got != known[n] {
					t.Errorf("%d, want %d", got, known[n])
				}
			})
		}
	}
}

func TestQuadSizes(t *testing.T) {
	for _, x := range quadSizes {
		h, q := int(x[0]), int(x[1])
		if h+q > 17 {
			continue
		}
		if got := quadEntries(h, q); got != x[2] {
			t.Errorf("%d×%d: %d placements, quadSizes says %d", h, q, got, x[2])
		}
		if got := len(newQuadTable(h, q).ents); uint64(got) != x[2] {
			t.Errorf("%d×%d table: %d entries, want %d", h, q, got, x[2])
		}
	}
}

// TestMemoryChoice: a memory limit below what the preferred cut needs
// picks the next, with smaller tables and more, smaller tasks, and its
// count is still exact; a limit nothing fits is an error.
func TestMemoryChoice(t *testing.T) {
	for _, n := range []int{12, 13} {
		gs := Geometries(n)
		first, err := Choose(n, 0, 1)
		if err != nil || first != gs[0] {
			t.Fatalf("n=%d, no limit: %v %v", n, first, err)
		}
		limit := Memory(gs[1], 1)
		if limit >= Memory(gs[0], 1) {
			t.Fatalf("n=%d: %s needs %d bytes, no less than %s's %d", n, gs[1], limit, gs[0], Memory(gs[0], 1))
		}
		g, err := Choose(n, limit, 1)
		if err != nil || g != gs[1] {
			t.Fatalf("n=%d limit %d: %v %v, want %s", n, limit, g, err, gs[1])
		}
		p0, _ := NewPlan(gs[0])
		p1, _ := NewPlan(g)
		if len(p1.Tasks) <= len(p0.Tasks) {
			t.Errorf("n=%d: %s has %d tasks, not more than %s's %d", n, g, len(p1.Tasks), gs[0], len(p0.Tasks))
		}
		if c := countPlan(t, g, Best()); c != known[n] {
			t.Fatalf("n=%d %s: %d, want %d", n, g, c, known[n])
		}
		if _, err := Choose(n, 1, 1); !errors.Is(err, ErrMemory) {
			t.Fatalf("n=%d with 1 byte: %v, want ErrMemory", n, err)
		}
	}
}

// TestCountSlices: a task reports its work in slices adding up to its
// total, and stops with the context's error, abandoning its count, soon
// after the context is cancelled.
func TestCountSlices(t *testing.T) {
	old := sliceWork
	defer func() { sliceWork = old }()
	sliceWork = 1000
	p, err := NewPlan(Even(14))
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCounter(p, Best())
	if err != nil {
		t.Fatal(err)
	}
	// The largest task, so that it has many slices.
	est := p.Estimates()
	id := 0
	for i := range est {
		if est[i] > est[id] {
			id = i
		}
	}
	var sum uint64
	calls := 0
	n, work, err := c.Count(context.Background(), id, func(w uint64) { sum += w; calls++ })
	if err != nil || n == 0 {
		t.Fatalf("task %d: %d, %v", id, n, err)
	}
	if sum != work || calls < 10 {
		t.Fatalf("progress reported %d work in %d calls, the task did %d", sum, calls, work)
	}
	ctx, cancel := context.WithCancel(context.Background())
	after := 0
	_, _, err = c.Count(ctx, id, func(uint64) {
		after++
		if after == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled task: %v, want context.Canceled", err)
	}
	if after != 3 {
		t.Fatalf("the task went on for %d slices after it was cancelled", after-3)
	}
}

// TestCounterConcurrent counts a plan's tasks from several goroutines
// sharing one Counter (run with -race).
func TestCounterConcurrent(t *testing.T) {
	for _, g := range []Geometry{Even(12), Column(13)} {
		p, err := NewPlan(g)
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewCounter(p, Best())
		if err != nil {
			t.Fatal(err)
		}
		var next, total atomic.Uint64
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					id := int(next.Add(1) - 1)
					if id >= len(p.Tasks) {
						return
					}
					n, _, err := c.Count(context.Background(), id, nil)
					if err != nil {
						t.Error(err)
						return
					}
					total.Add(n)
				}
			}()
		}
		wg.Wait()
		if got := total.Load(); got != known[g.N] {
			t.Errorf("%s: %d, want %d", g, got, known[g.N])
		}
	}
}

// TestBuildCancelled: the first task builds the tables (seconds at n =
// 20..22) in slices, reported as progress, and gives up soon after its
// context is cancelled.
func TestBuildCancelled(t *testing.T) {
	p, err := NewPlan(Even(20))
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCounter(p, Best())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, work, err := c.Count(ctx, 0, func(uint64) { calls++; cancel() })
	if !errors.Is(err, context.Canceled) || calls != 1 || work != tableWork {
		t.Fatalf("cancelled while building: %v after %d progress calls, work %d", err, calls, work)
	}
	if c.frames != nil {
		t.Fatal("a cancelled build left tables behind")
	}
}

// TestPrepare: tables built by Prepare are not work of any task, so a
// task's work is the same on a fresh Counter and on one that counted
// before; a Prepare reports its work and, cancelled, leaves nothing built.
func TestPrepare(t *testing.T) {
	p, err := NewPlan(Even(12))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := NewCounter(p, Best())
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Prepare(ctx, nil); err != nil || first.frames == nil {
		t.Fatalf("Prepare: %v, tables built: %v", err, first.frames != nil)
	}
	if err := first.Prepare(ctx, func(uint64) { t.Error("tables built twice") }); err != nil {
		t.Fatal(err)
	}
	last := len(p.Tasks) - 1
	if _, _, err := first.Count(ctx, 0, nil); err != nil {
		t.Fatal(err)
	}
	n1, w1, err := first.Count(ctx, last, nil)
	if err != nil {
		t.Fatal(err)
	}
	second, _ := NewCounter(p, Best())
	if err := second.Prepare(ctx, nil); err != nil {
		t.Fatal(err)
	}
	n2, w2, err := second.Count(ctx, last, nil)
	if err != nil || n1 != n2 || w1 != w2 {
		t.Fatalf("task %d: %d with work %d, then %d with work %d (%v)", last, n1, w1, n2, w2, err)
	}
	// At n = 20 the build is long enough to report work (as in
	// TestBuildCancelled).
	big, err := NewPlan(Even(20))
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	third, _ := NewCounter(big, Best())
	var built uint64
	if err := third.Prepare(cctx, func(w uint64) { built += w; cancel() }); !errors.Is(err, context.Canceled) || built != tableWork || third.frames != nil {
		t.Fatalf("cancelled Prepare: %v after %d work, tables left: %v", err, built, third.frames != nil)
	}
}
