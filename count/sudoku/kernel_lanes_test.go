package sudoku

import (
	"math/rand/v2"
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

// TestPropagateLanes holds the assembly to the portable rounds, lane by
// lane: the same failures and, elsewhere, the same words.
func TestPropagateLanes(t *testing.T) {
	if !haveAVX512Lanes() {
		t.Skip("no AVX-512 (F, BW, VL, VPOPCNTDQ) or a purego build")
	}
	cases := laneCases(t)
	rng := rand.New(rand.NewPCG(testSeed(t), 12))
	var open, failed, solved int
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
		want := propagateLanesGo(&a)
		got, rounds := propagateLanesAVX512(&b)
		if got != want || rounds < 1 {
			t.Fatalf("cases %d..: fail %016b, want %016b (%d rounds)", start, got, want, rounds)
		}
		for i := 0; i < lanes; i++ {
			if want>>i&1 != 0 {
				failed++
				continue
			}
			var x, y wideState
			a.get(i, &x)
			b.get(i, &y)
			if x != y {
				t.Fatalf("cases %d.., lane %d: words %v, want %v", start, i, y.f, x.f)
			}
			if x.open() == 0 {
				solved++
			} else {
				open++
			}
		}
	}
	// Guard against a test that cannot fail: all kinds of outcome met.
	if open < 100 || failed < 50 || solved < 20 {
		t.Fatalf("%d open, %d failed, %d solved lanes: not enough of each", open, failed, solved)
	}
	t.Logf("%d cases: %d lanes open, %d failed (empty ones included), %d solved", len(cases), open, failed, solved)
}

// BenchmarkRootLanes settles the 17-clue puzzles' roots (the rounds
// alone, no triads) sixteen at a time, against the triad kernel's root
// settle (its rules to a fixpoint, triads included).
func BenchmarkRootLanes(b *testing.B) {
	gs := loadGrids(b, "17-clue.txt")
	b.Run("kernel=lanes-avx512", func(b *testing.B) {
		if !haveAVX512Lanes() {
			b.Skip("no AVX-512")
		}
		var l laneState
		rounds := 0
		for i := 0; i < b.N; i++ {
			for j := 0; j < len(gs); j += lanes {
				for k := 0; k < lanes; k++ {
					var s wideState
					if j+k < len(gs) {
						s.init(&gs[j+k])
					}
					l.put(k, &s)
				}
				_, r := propagateLanesAVX512(&l)
				rounds += r
			}
		}
		b.ReportMetric(float64(b.N*len(gs))/b.Elapsed().Seconds(), "puzzles/s")
		b.ReportMetric(float64(rounds)/float64(b.N*(len(gs)+lanes-1)/lanes), "rounds/group")
	})
	b.Run("kernel=triad-bmi2", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for j := range gs {
				var s triadState
				s.init(&gs[j])
				s.settle(true)
			}
		}
		b.ReportMetric(float64(b.N*len(gs))/b.Elapsed().Seconds(), "puzzles/s")
	})
}

// BenchmarkSolveLanes solves the 17-clue puzzles with a uniqueness check:
// their roots propagated sixteen at a time by the lane kernel and the
// searches continued by triad-bmi2, against triad-bmi2 alone.
func BenchmarkSolveLanes(b *testing.B) {
	for _, set := range benchSets {
		gs := loadGrids(b, set+".txt")
		b.Run("set="+set+"/kernel=lanes+triad-bmi2", func(b *testing.B) {
			if !haveAVX512Lanes() {
				b.Skip("no AVX-512")
			}
			var l laneState
			k := &triadKernel{asm: true}
			cpu0 := threadCPU()
			for i := 0; i < b.N; i++ {
				for j := 0; j < len(gs); j += lanes {
					for x := 0; x < lanes; x++ {
						var s wideState
						if j+x < len(gs) {
							s.init(&gs[j+x])
						}
						l.put(x, &s)
					}
					fail, _ := propagateLanesAVX512(&l)
					for x := 0; x < lanes && j+x < len(gs); x++ {
						if fail>>x&1 != 0 {
							b.Fatal("failed")
						}
						var s wideState
						l.get(x, &s)
						k.reset(2)
						k.stack[0].from(&s.f)
						k.run()
						if k.count != 1 {
							b.Fatalf("puzzle %d: %d", j+x, k.count)
						}
					}
				}
			}
			b.ReportMetric(float64(b.N*len(gs))/(threadCPU()-cpu0).Seconds(), "puzzles/cpu-s")
		})
		b.Run("set="+set+"/kernel=triad-bmi2", func(b *testing.B) {
			sv, _ := NewSolver("triad-bmi2")
			cpu0 := threadCPU()
			for i := 0; i < b.N; i++ {
				for j := range gs {
					if n, _ := sv.Solve(&gs[j], 2); n != 1 {
						b.Fatal(n)
					}
				}
			}
			b.ReportMetric(float64(b.N*len(gs))/(threadCPU()-cpu0).Seconds(), "puzzles/cpu-s")
		})
	}
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
	} {
		if c.got != c.want {
			t.Errorf("laneState.%s is at offset %d; kernel_lanes_amd64.s says %d", c.name, c.got, c.want)
		}
	}
}
