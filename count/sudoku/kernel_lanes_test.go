package sudoku

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"testing"
	"unsafe"
)

// laneCases returns wide states to propagate: the sample's puzzles and
// random puzzles at their start, and after random configurations
// applied to their settled states (as the search would), some failing.
func laneCases(t *testing.T) []wideState {
	t.Helper()
	rng := rand.New(rand.NewPCG(testSeed(t), 11))
	var out []wideState
	add := func(g Grid) {
		var s wideState
		if !s.init(&g) {
			return
		}
		out = append(out, s)
		for k := 0; k < 3; k++ {
			c := s
			if c.propagate() != settleOpen {
				return
			}
			u, d, mat, ok := c.pickConfig()
			if !ok {
				return
			}
			var idx []int
			for i, p := range permList {
				if mat&p == p {
					idx = append(idx, i)
				}
			}
			c.applyConfig(u, d, idx[rng.IntN(len(idx))])
			out = append(out, c)
			s = c
		}
	}
	for _, a := range loadSample(t) {
		add(a.puzzle)
	}
	for _, g := range randomPuzzles(t, rng.Uint64(), 100, 60) {
		add(g)
	}
	return out
}

// TestRoundLanes holds the assembly to the portable rounds, round by
// round and lane by lane: the same failures and, elsewhere, the same
// words and the same lanes changed, to the fixpoint.
func TestRoundLanes(t *testing.T) {
	if !haveAVX512Lanes() {
		t.Skip("no AVX-512 (F, BW, VL, VPOPCNTDQ) or a purego build")
	}
	cases := laneCases(t)
	rng := rand.New(rand.NewPCG(testSeed(t), 12))
	var open, failed, solved, rounds, triFails, triWorks int
	for start := 0; start < len(cases); start += lanes - 3 {
		var a, b laneState
		n := 0
		for i := 0; i < lanes && start+n < len(cases); i++ {
			if rng.IntN(5) == 0 {
				continue // an empty lane
			}
			a.put(i, &cases[start+n])
			n++
		}
		b.f = a.f
		var gone uint16 // lanes failed (or empty) so far
		for {
			rounds++
			wf, wc, wtf, wtw := roundLanesGo(&a)
			gf, gc, gtf, gtw := roundLanesAVX512(&b)
			// The triads' first pass, at the lanes' fixpoints (work
			// only where it does not fail).
			if fix := ^(gone | wf | wc); gtf&fix != wtf&fix || gtw&fix&^wtf != wtw&fix {
				t.Fatalf("cases %d..: triad check: fail %016b work %016b, want %016b %016b (fixpoints %016b)", start, gtf&fix, gtw&fix, wtf&fix, wtw&fix, fix)
			} else {
				for m := fix &^ wtf; m != 0; m &= m - 1 {
					i := bits.TrailingZeros16(m)
					go3, gfull := b.triadWork(i)
					wo3, wfull := a.triadWork(i)
					if go3 != wo3 || gfull != wfull {
						t.Fatalf("cases %d.., lane %d: triad check: only3 %#x full %#x, want %#x %#x", start, i, go3, gfull, wo3, wfull)
					}
				}
			}
			triFails += bits.OnesCount16(wtf &^ (gone | wf | wc))
			triWorks += bits.OnesCount16(wtw &^ (gone | wf | wc))
			if gf&^gone != wf&^gone || gc&^gone&^wf != wc&^gone {
				t.Fatalf("cases %d..: round: fail %016b changed %016b, want %016b %016b (gone %016b)", start, gf, gc, wf, wc, gone)
			}
			for i := 0; i < lanes; i++ {
				if (gone|wf)>>i&1 != 0 {
					continue
				}
				var x, y wideState
				a.get(i, &x)
				b.get(i, &y)
				if x != y {
					t.Fatalf("cases %d.., lane %d: words %v, want %v", start, i, y.f, x.f)
				}
			}
			failed += bits.OnesCount16(wf &^ gone)
			gone |= wf
			for i := 0; i < lanes; i++ {
				if gone>>i&1 != 0 {
					a.put(i, &wideState{})
					b.put(i, &wideState{})
				}
			}
			if wc&^gone == 0 {
				// At the fixpoint the counts agree too.
				for i := 0; i < lanes; i++ {
					if gone>>i&1 == 0 && (a.open[i] != b.open[i] || colOf(&a.bc, i) != colOf(&b.bc, i) || colOf(&a.sc, i) != colOf(&b.sc, i) ||
						a.tot[0][i] != b.tot[0][i] || a.tot[3][i] != b.tot[3][i] || a.tot[5][i] != b.tot[5][i] || a.keys(i) != b.keys(i) ||
						a.pick[i] != b.pick[i]) {
						t.Fatalf("cases %d.., lane %d: open %d, counts %v %v, keys %#o, pick %#x; want %d, %v %v, %#o, %#x", start, i,
							b.open[i], colOf(&b.bc, i), colOf(&b.sc, i), b.keys(i), b.pick[i], a.open[i], colOf(&a.bc, i), colOf(&a.sc, i), a.keys(i), a.pick[i])
					}
				}
				break
			}
		}
		for i := 0; i < lanes; i++ {
			if gone>>i&1 == 0 {
				var x wideState
				a.get(i, &x)
				if x.status() == settleSolved {
					solved++
				} else {
					open++
				}
			}
		}
	}
	// Guard against a test that cannot fail: all kinds of outcome met.
	if open < 100 || failed < 50 || solved < 20 || triWorks < 20 {
		t.Fatalf("%d open, %d failed, %d solved lanes, %d with triads to apply: not enough of each", open, failed, solved, triWorks)
	}
	t.Logf("%d cases, %d rounds: %d lanes open, %d failed (empty ones included), %d solved; at fixpoints the triads act on %d and fail %d",
		len(cases), rounds, open, failed, solved, triWorks, triFails)
}

// BenchmarkSolveLanes solves the shared sets with a uniqueness check, the
// lane variants through SolveEach (as batch.Solve does) against
// triad-bmi2 puzzle by puzzle.
func BenchmarkSolveLanes(b *testing.B) {
	for _, set := range benchSets {
		gs := loadGrids(b, set+".txt")
		res := make([]Result, len(gs))
		for _, name := range []string{"lanes-avx512", "triad-bmi2"} {
			b.Run("set="+set+"/solver="+name, func(b *testing.B) {
				sv, err := NewSolver(name)
				if err != nil {
					b.Skip(err)
				}
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				cpu0 := threadCPU()
				for i := 0; i < b.N; i++ {
					if err := sv.SolveEach(context.Background(), gs, 2, res); err != nil {
						b.Fatal(err)
					}
					for j := range res {
						if res[j].Count != 1 {
							b.Fatalf("puzzle %d: %d solutions", j+1, res[j].Count)
						}
					}
				}
				b.ReportMetric(float64(b.N*len(gs))/(threadCPU()-cpu0).Seconds(), "puzzles/cpu-s")
				b.ReportMetric(float64(sv.Guesses())/float64(b.N*len(gs)), "guesses/puzzle")
				b.ReportMetric(float64(sv.Nodes())/float64(b.N*len(gs)), "nodes/puzzle")
			})
		}
	}
}

// colOf is lane i's column of a word-by-word array.
func colOf(a *[27][lanes]uint32, i int) (c [27]uint32) {
	for w := range a {
		c[w] = a[w][i]
	}
	return c
}

// TestLaneStateLayout: the assembly addresses laneState's fields by
// offset (the #defines of kernel_lanes_amd64.s).
func TestLaneStateLayout(t *testing.T) {
	var l laneState
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"f", unsafe.Offsetof(l.f), 0},
		{"old", unsafe.Offsetof(l.old), 1728},
		{"cm", unsafe.Offsetof(l.cm), 3456},
		{"p", unsafe.Offsetof(l.p), 5184},
		{"bc", unsafe.Offsetof(l.bc), 5760},
		{"sc", unsafe.Offsetof(l.sc), 7488},
		{"open", unsafe.Offsetof(l.open), 9216},
		{"tot", unsafe.Offsetof(l.tot), 9280},
		{"hp", unsafe.Offsetof(l.hp), 9664},
		{"sup", unsafe.Offsetof(l.sup), 10240},
		{"pick", unsafe.Offsetof(l.pick), 10816},
		{"only3Lo", unsafe.Offsetof(l.only3Lo), 10880},
		{"only3Hi", unsafe.Offsetof(l.only3Hi), 10944},
		{"fullLo", unsafe.Offsetof(l.fullLo), 11008},
		{"fullHi", unsafe.Offsetof(l.fullHi), 11072},
	} {
		if c.got != c.want {
			t.Errorf("laneState.%s is at offset %d; kernel_lanes_amd64.s says %d", c.name, c.got, c.want)
		}
	}
}

// TestNonzeroBytes checks nonzeroBytes, which wideState.init finds the
// givens with, on every byte value in every place.
func TestNonzeroBytes(t *testing.T) {
	for i := 0; i < 8; i++ {
		for v := 0; v < 256; v++ {
			x := uint64(v) << (8 * i)
			want := uint64(0)
			if v != 0 {
				want = 1 << i
			}
			if got := nonzeroBytes(x | 0x0101010101010101&^(0xff<<(8*i))); got != want|0xff&^(1<<i) {
				t.Fatalf("nonzeroBytes(%#x) = %#x, want %#x", x, got, want|0xff&^(1<<i))
			}
			if got := nonzeroBytes(x); got != want {
				t.Fatalf("nonzeroBytes(%#x) = %#x, want %#x", x, got, want)
			}
		}
	}
}

// TestMatrices checks wideState.matrices (shifts on two bands at once)
// against the tables it replaced, on random words.
func TestMatrices(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		var s wideState
		for b := range s.f {
			for d := range s.f[b] {
				s.f[b][d] = rng.Uint32() & bandMask
				if n%3 == 0 {
					s.f[b][d] &= rng.Uint32() & rng.Uint32()
				}
			}
		}
		hp, sup := s.matrices()
		for d := 0; d < 9; d++ {
			var h, m uint32
			for b := 0; b < 3; b++ {
				a := s.f[b][d]
				h |= (uint32(shrinkTab[a&511]) | uint32(shrinkTab[a>>9&511])<<3 | uint32(shrinkTab[a>>18])<<6) << (9 * b)
				m |= colsOf(a) << (9 * b)
			}
			if hp[d] != h || sup[d] != m {
				t.Fatalf("words %v, digit %d: matrices %#o %#o, want %#o %#o", s.f, d, hp[d], sup[d], h, m)
			}
		}
	}
}

// initPlain is wideState.init a given at a time, placing each as it
// comes: the reference init is checked against.
func (s *wideState) initPlain(g *Grid) bool {
	for b := range s.f {
		for d := range s.f[b] {
			s.f[b][d] = bandMask
		}
	}
	for i, v := range g {
		if v == 0 {
			continue
		}
		if v > 9 {
			return false
		}
		d := int(v - 1)
		w := &s.f[i/27]
		p := uint(i % 27)
		bit := uint32(1) << p
		if w[d]&bit == 0 {
			return false
		}
		for d2 := range w {
			w[d2] &^= bit
		}
		w[d] = w[d]&^rowOf[p] | bit
	}
	return true
}

// TestWideInit compares wideState.init with initPlain on the shared
// sets' puzzles, as they are and with a cell changed at random (which
// makes clashes and values out of range).
func TestWideInit(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 13))
	clashes := 0
	for _, set := range []string{"magictour-top1465.txt", "forum-hardest-1106.txt"} {
		for _, g := range loadGrids(t, set) {
			for k := 0; k < 4; k++ {
				h := g
				if k > 0 {
					h[rng.IntN(81)] = uint8(rng.IntN(11))
				}
				var a, b wideState
				ok, want := a.init(&h), b.initPlain(&h)
				if ok != want || ok && a != b {
					t.Fatalf("%v: init %v %v, want %v %v", h, ok, a.f, want, b.f)
				}
				if !want {
					clashes++
				}
			}
		}
	}
	if clashes < 100 {
		t.Fatalf("only %d grids refused: the test does not reach init's clash checks", clashes)
	}
}
