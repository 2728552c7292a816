package sudoku

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
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

func BenchmarkSolve(b *testing.B) {
	for _, set := range []string{"17-clue.txt", "magictour-top1465.txt"} {
		b.Run(strings.TrimSuffix(set, ".txt"), func(b *testing.B) {
			gs := loadGrids(b, set)
			b.Run("workers=1", func(b *testing.B) {
				var sv Solver
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				b.ResetTimer()
				cpu0 := threadCPU()
				start := time.Now()
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
			})
			w := runtime.GOMAXPROCS(0)
			b.Run("workers=all", func(b *testing.B) {
				cpu0 := processCPU()
				start := time.Now()
				n := 0
				for i := 0; i < b.N; i++ {
					res := SolveAll(gs, 2, w)
					for j := range res {
						if res[j].Count != 1 {
							b.Fatalf("puzzle %d: %d solutions", j+1, res[j].Count)
						}
					}
					n += len(gs)
				}
				b.ReportMetric(float64(n)/time.Since(start).Seconds(), "puzzles/s")
				b.ReportMetric(float64(w), "workers")
				// Puzzles per CPU-second of the whole process: if it stays
				// near the one-worker figure, the pool adds no overhead and
				// the wall-clock speed-up on idle cores is about the
				// number of workers.
				if cpu := processCPU() - cpu0; cpu > 0 {
					b.ReportMetric(float64(n)/cpu.Seconds(), "puzzles/cpu-s")
				}
			})
		})
	}
}
