package join

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/bits"
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

// TestChosenKeys counts n = 12 to 15 with every join choosing its own
// index bits (and buckets small enough for many of them), on every
// kernel, against OEIS.
func TestChosenKeys(t *testing.T) {
	old, oldWork := indexMinBucket, keyChoiceWork
	defer func() { indexMinBucket, keyChoiceWork = old, oldWork }()
	impltest.Run(t, "join", Kernels(), describe, func(t *testing.T, k Kernel) {
		top := 14
		if k.Name == Best().Name {
			top = 15
		}
		for n := 12; n <= top; n++ {
			for _, mb := range []int{blockSize, 32, 1} {
				indexMinBucket, keyChoiceWork = mb, 0
				if got := countBands(t, Empty(n), Cut(n), k); got != known[n] {
					t.Errorf("n=%d bucket %d: %d, want %d", n, mb, got, known[n])
				}
			}
		}
	})
}

// TestChooseKeysPrunes: given lists where one bit is taken by half of
// each side and the others rarely, the chosen key holds that bit, and
// the key has the bits asked for.
func TestChooseKeysPrunes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const m, hot = 30, 17
	gen := func(n int) []uint64 {
		out := make([]uint64, n)
		for i := range out {
			var p uint64
			if r.IntN(2) == 0 {
				p |= 1 << hot
			}
			for b := 0; b < m; b++ {
				if b != hot && r.IntN(20) == 0 {
					p |= 1 << uint(b)
				}
			}
			out[i] = p
		}
		return out
	}
	e, w := gen(50000), gen(40000)
	var s scratch
	for k := 1; k <= 6; k++ {
		kr, ok := s.chooseKeys(e, w, k, m, 1, 1)
		if !ok {
			t.Fatalf("k=%d: no key", k)
		}
		if kr.bits != k || bits.OnesCount64(kr.chosen) != k {
			t.Fatalf("k=%d: a key of %d bits (%b)", k, kr.bits, kr.chosen)
		}
		if kr.chosen>>hot&1 == 0 {
			t.Errorf("k=%d: key %b lacks the bit both sides take half the time", k, kr.chosen)
		}
	}
	// Lists with no bit in common: nothing prunes, no key.
	if _, ok := s.chooseKeys([]uint64{1, 2}, []uint64{4, 8}, 1, 4, 1, 1); ok {
		t.Error("disjoint lists: a key")
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
// buckets forced, so that the index bits are used, and half the time
// every join choosing its own), against naive.
func TestRandomBoards(t *testing.T) {
	old, oldWork := indexMinBucket, keyChoiceWork
	defer func() { indexMinBucket, keyChoiceWork = old, oldWork }()
	impltest.Run(t, "join", Kernels(), describe, func(t *testing.T, k Kernel) {
		rng := rand.New(rand.NewPCG(1, 2))
		for i := 0; i < 200; i++ {
			n := 1 + rng.IntN(11)
			gs := geometries(n)
			g := gs[rng.IntN(len(gs))]
			indexMinBucket = 1 + rng.IntN(64)
			keyChoiceWork = oldWork
			if i%2 == 0 {
				keyChoiceWork = 0
			}
			b := randomBoard(rng, n)
			if got, want := countBands(t, b, g, k), naive(b); got != want {
				t.Fatalf("board %+v cut %s (key choice from %g): join %d, naive %d", b, g, keyChoiceWork, got, want)
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

// countLayout counts every task of the layout for g with split, one
// after the other, on the given path.
func countLayout(t testing.TB, g Geometry, split int, k Kernel, opt CounterOptions) uint64 {
	l, err := NewLayout(g, split)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCounter(l, k, opt)
	if err != nil {
		t.Fatal(err)
	}
	var total uint64
	for id := range l.Len() {
		n, _, err := c.Count(context.Background(), id, nil)
		if err != nil {
			t.Fatal(err)
		}
		total += n
	}
	return total
}

// TestLayouts counts every cut of small boards, whole and split, on both
// paths.
func TestLayouts(t *testing.T) {
	for n := 1; n <= 13; n++ {
		gs := geometries(n)
		if n > 11 {
			gs = Geometries(n)[:2] // the preferred cut and the next
		}
		for _, g := range gs {
			for _, split := range []int{0, 1, 5} {
				for _, opt := range []CounterOptions{{}, {Bounded: true}, {Bounded: true, Arena: 1}} {
					t.Run(fmt.Sprintf("n=%d/%s/split=%d/bounded=%v/arena=%d", n, g, split, opt.Bounded, opt.Arena), func(t *testing.T) {
						if got := countLayout(t, g, split, Best(), opt); got != known[n] {
							t.Errorf("%d, want %d", got, known[n])
						}
					})
				}
			}
		}
	}
}

// TestLayoutTasks: Task(id) and WriteHash give what the materialised list
// of tasks gives, and a layout that does not split hashes as the plans of
// the first join did (their checkpoints stay valid).
func TestLayoutTasks(t *testing.T) {
	for _, g := range []Geometry{Even(12), Column(13), Even(16), Column(17), Band(12, 2)} {
		for _, split := range []int{0, 1, 7, 64} {
			l, err := NewLayout(g, split)
			if err != nil {
				t.Fatal(err)
			}
			tasks := l.Tasks()
			if len(tasks) != l.Len() {
				t.Fatalf("%s split %d: %d tasks listed, Len %d", g, split, len(tasks), l.Len())
			}
			for id, tk := range tasks {
				if got := l.Task(id); got != tk {
					t.Fatalf("%s split %d: Task(%d) = %+v, the list has %+v", g, split, id, got, tk)
				}
			}
			// The hash of the materialised list, written as the first
			// join's plans wrote it.
			want := sha256.New()
			var buf []byte
			buf = append(buf, g.String()...)
			buf = binary.LittleEndian.AppendUint64(buf, uint64(len(l.Frames)))
			for _, fr := range l.Frames {
				buf = binary.LittleEndian.AppendUint64(buf, fr.Weight)
				buf = append(buf, byte(len(fr.Queens)))
				for _, q := range fr.Queens {
					buf = append(buf, q[0], q[1])
				}
			}
			if split > 0 {
				buf = append(buf, "split"...)
				buf = binary.LittleEndian.AppendUint64(buf, uint64(split))
			}
			buf = binary.LittleEndian.AppendUint64(buf, uint64(len(tasks)))
			for _, tk := range tasks {
				buf = binary.LittleEndian.AppendUint32(buf, uint32(tk.Frame))
				buf = binary.LittleEndian.AppendUint32(buf, tk.Top)
				if split > 0 {
					buf = binary.LittleEndian.AppendUint32(buf, uint32(tk.Part))
				}
			}
			want.Write(buf)
			got := sha256.New()
			l.WriteHash(got)
			if !bytes.Equal(got.Sum(nil), want.Sum(nil)) {
				t.Fatalf("%s split %d: streamed hash differs from the list's", g, split)
			}
		}
	}
	// The first join's plan of n = 16 (geometry, one frame, 128 tasks):
	// its hash, as its journals recorded it.
	l, _ := NewLayout(Even(16), 0)
	h := sha256.New()
	l.WriteHash(h)
	if got := hex.EncodeToString(h.Sum(nil)[:8]); got != firstJoin16 {
		t.Fatalf("n = 16 layout hash %s, the first join's was %s", got, firstJoin16)
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

// TestCountSlices: a task reports its work in many slices, and stops with
// the context's error, abandoning its count, soon after the context is
// cancelled; on both paths.
func TestCountSlices(t *testing.T) {
	old := sliceWork
	defer func() { sliceWork = old }()
	sliceWork = 1000
	l, err := NewLayout(Even(14), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []CounterOptions{{}, {Bounded: true}} {
		c, err := NewCounter(l, Best(), opt)
		if err != nil {
			t.Fatal(err)
		}
		// The largest task, so that it has many slices.
		est := l.Estimates()
		id := 0
		for i := range est {
			if est[i] > est[id] {
				id = i
			}
		}
		var sum uint64
		calls := 0
		n, nodes, err := c.Count(context.Background(), id, func(w uint64) { sum += w; calls++ })
		if err != nil || n == 0 || nodes == 0 {
			t.Fatalf("task %d: %d, %d nodes, %v", id, n, nodes, err)
		}
		if sum < nodes || calls < 10 {
			t.Fatalf("bounded %v: progress reported %d work in %d calls, the task made %d half boards", opt.Bounded, sum, calls, nodes)
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
}

// TestCounterConcurrent counts a layout's tasks from several goroutines
// sharing one Counter (run with -race), on both paths.
func TestCounterConcurrent(t *testing.T) {
	for _, g := range []Geometry{Even(12), Column(13)} {
		for _, opt := range []CounterOptions{{}, {Bounded: true, Arena: 4096}} {
			l, err := NewLayout(g, 3)
			if err != nil {
				t.Fatal(err)
			}
			c, err := NewCounter(l, Best(), opt)
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
						if id >= l.Len() {
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
				t.Errorf("%s bounded %v: %d, want %d", g, opt.Bounded, got, known[g.N])
			}
		}
	}
}

// TestBuildCancelled: the first task builds the tables (seconds at n =
// 20..22) in slices, reported as progress, and gives up soon after its
// context is cancelled.
func TestBuildCancelled(t *testing.T) {
	l, err := NewLayout(Even(20), 0)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCounter(l, Best(), CounterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	var work uint64
	_, _, err = c.Count(ctx, 0, func(w uint64) { calls++; work += w; cancel() })
	if !errors.Is(err, context.Canceled) || calls != 1 || work != tableWork {
		t.Fatalf("cancelled while building: %v after %d progress calls, work %d", err, calls, work)
	}
	if c.frames != nil {
		t.Fatal("a cancelled build left tables behind")
	}
}

// TestPrepare: tables built by Prepare are not work of any task, so a
// task's nodes are the same on a fresh Counter, on one that counted
// before and on the bounded path; a Prepare reports its work and,
// cancelled, leaves nothing built.
func TestPrepare(t *testing.T) {
	l, err := NewLayout(Even(12), 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := NewCounter(l, Best(), CounterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Prepare(ctx, nil); err != nil || first.frames == nil {
		t.Fatalf("Prepare: %v, tables built: %v", err, first.frames != nil)
	}
	if err := first.Prepare(ctx, func(uint64) { t.Error("tables built twice") }); err != nil {
		t.Fatal(err)
	}
	last := l.Len() - 1
	if _, _, err := first.Count(ctx, 0, nil); err != nil {
		t.Fatal(err)
	}
	n1, w1, err := first.Count(ctx, last, nil)
	if err != nil {
		t.Fatal(err)
	}
	second, _ := NewCounter(l, Best(), CounterOptions{})
	n2, w2, err := second.Count(ctx, last, nil)
	if err != nil || n1 != n2 || w1 != w2 {
		t.Fatalf("task %d: %d with %d nodes, then %d with %d nodes (%v)", last, n1, w1, n2, w2, err)
	}
	third, _ := NewCounter(l, Best(), CounterOptions{Bounded: true})
	n3, w3, err := third.Count(ctx, last, nil)
	if err != nil || n1 != n3 || w1 != w3 {
		t.Fatalf("task %d: %d with %d nodes on tables, %d with %d nodes bounded (%v)", last, n1, w1, n3, w3, err)
	}
	// At n = 20 the build is long enough to report work (as in
	// TestBuildCancelled).
	big, err := NewLayout(Even(20), 0)
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithCancel(ctx)
	fourth, _ := NewCounter(big, Best(), CounterOptions{})
	var built uint64
	if err := fourth.Prepare(cctx, func(w uint64) { built += w; cancel() }); !errors.Is(err, context.Canceled) || built != tableWork || fourth.frames != nil {
		t.Fatalf("cancelled Prepare: %v after %d work, tables left: %v", err, built, fourth.frames != nil)
	}
}

// firstJoin16 is the start of the SHA-256 of the first join's plan of
// n = 16 (Plan.WriteHash of the join as it was first released).
const firstJoin16 = "b0363353cd73b1c2"
