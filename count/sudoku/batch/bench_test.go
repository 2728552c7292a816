package batch

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/internal/cputime"
	"github.com/nqcount/nqcount/internal/refdata"
)

// BenchmarkSolve solves each shared set with a uniqueness check on every
// core, with every supported variant, as sudoku solve does: puzzles per
// second, and per CPU-second of the process (if it stays near package
// sudoku's one-worker figure, the pool adds no overhead and the speed-up on
// idle cores is about the number of workers).
func BenchmarkSolve(b *testing.B) {
	for _, set := range []string{"17-clue", "magictour-top1465", "forum-hardest-1106"} {
		b.Run("set="+set, func(b *testing.B) {
			in, err := os.ReadFile(filepath.Join(refdata.Dir(b, "sudoku"), set+".txt"))
			if err != nil {
				b.Skip(err)
			}
			for _, v := range sudoku.Variants() {
				if !v.Supported() {
					continue
				}
				b.Run("solver="+v.Name+"/workers=all", func(b *testing.B) {
					w := runtime.GOMAXPROCS(0)
					cpu0, _ := cputime.Process()
					start := time.Now()
					n := 0
					for i := 0; i < b.N; i++ {
						err := Solve(context.Background(), bytes.NewReader(in), SolveOptions{Options: Options{Workers: w}, Solver: v.Name}, func(r *Record[sudoku.Result]) error {
							if r.ReadErr != nil || r.Err != nil || r.Value.Count != 1 {
								b.Fatalf("line %d: %+v", r.Line, r)
							}
							n++
							return nil
						})
						if err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(n)/time.Since(start).Seconds(), "puzzles/s")
					b.ReportMetric(float64(w), "workers")
					if cpu, ok := cputime.Process(); ok && cpu > cpu0 {
						cpu -= cpu0
						b.ReportMetric(float64(n)/cpu.Seconds(), "puzzles/cpu-s")
					}
				})
			}
		})
	}
}
