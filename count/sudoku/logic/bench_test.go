package logic

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/sudoku"
)

// BenchmarkRate rates an even sample of each shared set, one puzzle at a
// time on one goroutine, and reports puzzles per second and per CPU-second
// of the process (the figure to compare on a shared machine).
func BenchmarkRate(b *testing.B) {
	benchRate(b, Options{}, []benchSet{{"17-clue.answers.txt", 500}, {"magictour-top1465.answers.txt", 200}, {"forum-hardest-1106.answers.txt", 10}})
}

// BenchmarkRateClassic is BenchmarkRate on the classic scale.
func BenchmarkRateClassic(b *testing.B) {
	benchRate(b, Options{Scale: ScaleClassic}, []benchSet{{"17-clue.answers.txt", 500}, {"magictour-top1465.answers.txt", 200}})
}

// benchSet is a shared answers file and the size of its sample.
type benchSet struct {
	set string
	n   int
}

func benchRate(b *testing.B, opt Options, sets []benchSet) {
	d := filepath.Join("..", "..", "..", "..", "shared", "sudoku")
	for _, c := range sets {
		b.Run("set="+strings.TrimSuffix(c.set, ".answers.txt"), func(b *testing.B) {
			as := sampleB(b, filepath.Join(d, c.set), c.n)
			b.ResetTimer()
			cpu0 := processCPU()
			start := time.Now()
			n := 0
			for i := 0; i < b.N; i++ {
				for _, a := range as {
					if _, err := RateWith(context.Background(), a, opt); err != nil {
						b.Fatal(err)
					}
				}
				n += len(as)
			}
			b.ReportMetric(float64(n)/time.Since(start).Seconds(), "puzzles/s")
			if cpu := processCPU() - cpu0; cpu > 0 {
				b.ReportMetric(float64(n)/cpu.Seconds(), "puzzles/cpu-s")
			}
		})
	}
}

// sampleB is sample for benchmarks: n puzzles of an answers file, evenly
// spread; it skips when the shared data is absent.
func sampleB(b *testing.B, file string, n int) []sudoku.Grid {
	b.Helper()
	var out []sudoku.Grid
	for _, a := range sampleTB(b, file, n) {
		out = append(out, a.puzzle)
	}
	return out
}
