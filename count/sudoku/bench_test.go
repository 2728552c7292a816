package sudoku

import (
	"bufio"
	"context"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/internal/refdata"
)

// sharedDir returns the project's ../shared/sudoku directory, or skips
// (see package refdata).
func sharedDir(tb testing.TB) string {
	tb.Helper()
	return refdata.Dir(tb, "sudoku")
}

// loadLines reads the non-comment lines of a shared file.
func loadLines(tb testing.TB, name string) []string {
	tb.Helper()
	p := filepath.Join(sharedDir(tb), name)
	f, err := os.Open(p)
	if err != nil {
		tb.Skipf("reference file %s is absent: %v", p, err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || l[0] == '#' {
			continue
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

func loadGrids(tb testing.TB, name string) []Grid {
	tb.Helper()
	lines := loadLines(tb, name)
	gs := make([]Grid, len(lines))
	for i, l := range lines {
		if j := strings.IndexByte(l, ':'); j >= 0 {
			l = l[:j]
		}
		g, err := Parse(l)
		if err != nil {
			tb.Fatalf("%s puzzle %d: %v", name, i+1, err)
		}
		gs[i] = g
	}
	return gs
}

// benchSets are the puzzle sets of the solving benchmarks, all of them
// with unique solutions.
var benchSets = []string{"17-clue", "magictour-top1465", "forum-hardest-1106"}

// BenchmarkSolve solves each set with a uniqueness check (limit 2) on one
// worker, with every supported variant: sub-benchmarks
// set=NAME/solver=VARIANT/workers=1, for benchstat -col /solver (package
// batch's BenchmarkSolve runs all the workers). Beside
// puzzles/s it reports guesses and nodes per puzzle.
func BenchmarkSolve(b *testing.B) {
	for _, set := range benchSets {
		b.Run("set="+set, func(b *testing.B) {
			gs := loadGrids(b, set+".txt")
			for _, v := range Variants() {
				if !v.Supported() {
					continue
				}
				b.Run("solver="+v.Name, func(b *testing.B) {
					b.Run("workers=1", func(b *testing.B) { benchSolveOne(b, gs, v.Name) })
				})
			}
		})
	}
}

func benchSolveOne(b *testing.B, gs []Grid, variant string) {
	sv, err := NewSolver(variant)
	if err != nil {
		b.Fatal(err)
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := threadCPU()
	start := time.Now()
	g0, n0 := sv.Guesses(), sv.Nodes()
	n := 0
	for i := 0; i < b.N; i++ {
		for j := range gs {
			if c, _ := sv.Solve(&gs[j], 2); c != 1 {
				b.Fatalf("puzzle %d: %d solutions", j+1, c)
			}
		}
		n += len(gs)
	}
	b.ReportMetric(float64(n)/time.Since(start).Seconds(), "puzzles/s")
	if cpu := threadCPU() - cpu0; cpu > 0 {
		b.ReportMetric(float64(n)/cpu.Seconds(), "puzzles/cpu-s")
	}
	b.ReportMetric(float64(sv.Guesses()-g0)/float64(n), "guesses/puzzle")
	b.ReportMetric(float64(sv.Nodes()-n0)/float64(n), "nodes/puzzle")
}

// BenchmarkCountMany counts every solution of the serg-multi set (2 to
// 1,555 solutions a puzzle) on one worker: solutions/s measures the search
// near its leaves, where counting spends its time.
func BenchmarkCountMany(b *testing.B) {
	as := loadAnswers(b, "serg-multi.answers.txt")
	for _, v := range Variants() {
		if !v.Supported() {
			continue
		}
		b.Run("solver="+v.Name, func(b *testing.B) {
			sv, err := NewSolver(v.Name)
			if err != nil {
				b.Fatal(err)
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ResetTimer()
			cpu0 := threadCPU()
			start := time.Now()
			var sols uint64
			for i := 0; i < b.N; i++ {
				for j := range as {
					c, _ := sv.Solve(&as[j].puzzle, math.MaxUint64)
					if c != as[j].count {
						b.Fatalf("puzzle %d: %d solutions, want %d", j+1, c, as[j].count)
					}
					sols += c
				}
			}
			b.ReportMetric(float64(sols)/time.Since(start).Seconds(), "solutions/s")
			if cpu := threadCPU() - cpu0; cpu > 0 {
				b.ReportMetric(float64(sols)/cpu.Seconds(), "solutions/cpu-s")
			}
		})
	}
}

// norvigMulti is the hardest multi-solution puzzle of Peter Norvig's
// essay: 148,357,268 solutions.
const (
	norvigMulti      = ".....6....59.....82....8....45........3........6..3.54...325..6.................."
	norvigMultiCount = 148357268
)

// BenchmarkCountNorvig counts the solutions of norvigMulti on one core: a
// long benchmark (tens of seconds a run; run it alone, with -benchtime 1x).
func BenchmarkCountNorvig(b *testing.B) {
	g, err := Parse(norvigMulti)
	if err != nil {
		b.Fatal(err)
	}
	for _, v := range Variants() {
		if !v.Supported() {
			continue
		}
		b.Run("solver="+v.Name, func(b *testing.B) {
			sv, err := NewSolver(v.Name)
			if err != nil {
				b.Fatal(err)
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ResetTimer()
			cpu0 := threadCPU()
			for i := 0; i < b.N; i++ {
				if c, _ := sv.Solve(&g, math.MaxUint64); c != norvigMultiCount {
					b.Fatalf("%d solutions, want %d", c, norvigMultiCount)
				}
			}
			if cpu := threadCPU() - cpu0; cpu > 0 {
				b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
			}
			b.ReportMetric(float64(sv.Guesses())/float64(b.N), "guesses/op")
		})
	}
}

// BenchmarkSolvePaired is for noisy machines: each iteration solves the set
// once with every supported variant in turn (Solver.SolveEach, as batch
// solving does), on one locked thread, and the benchmark reports each
// variant's puzzles per CPU-second over all iterations and its speed-up
// over band (the solver before triads) and over triad-bmi2, the medians
// of the per-iteration ratios: the drift of a shared machine hits both
// sides of each ratio alike.
func BenchmarkSolvePaired(b *testing.B) {
	for _, set := range benchSets {
		b.Run("set="+set, func(b *testing.B) {
			gs := loadGrids(b, set+".txt")
			var vs []*Solver
			for _, v := range Variants() {
				if v.Supported() {
					sv, err := NewSolver(v.Name)
					if err != nil {
						b.Fatal(err)
					}
					vs = append(vs, sv)
				}
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu := make([]time.Duration, len(vs))
			times := make([][]time.Duration, len(vs))
			res := make([]Result, len(gs))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for k, sv := range vs {
					c0 := threadCPU()
					if err := sv.SolveEach(context.Background(), gs, 2, res); err != nil {
						b.Fatal(err)
					}
					c := threadCPU() - c0
					for j := range res {
						if res[j].Count != 1 {
							b.Fatalf("%s, puzzle %d: %d solutions", sv.Variant(), j+1, res[j].Count)
						}
					}
					cpu[k] += c
					times[k] = append(times[k], c)
				}
			}
			for _, base := range []string{"band", "triad-bmi2"} {
				bi := slices.IndexFunc(vs, func(sv *Solver) bool { return sv.Variant() == base })
				if bi < 0 {
					continue
				}
				for k, sv := range vs {
					if k == bi {
						continue
					}
					var r []float64
					for i := range times[k] {
						if times[k][i] > 0 {
							r = append(r, float64(times[bi][i])/float64(times[k][i]))
						}
					}
					sort.Float64s(r)
					if len(r) > 0 {
						b.ReportMetric(r[len(r)/2], sv.Variant()+"-x-"+base)
					}
				}
			}
			for k, sv := range vs {
				if cpu[k] > 0 {
					b.ReportMetric(float64(b.N*len(gs))/cpu[k].Seconds(), sv.Variant()+"-puzzles/cpu-s")
				}
			}
		})
	}
}
