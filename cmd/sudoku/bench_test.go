package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"testing"

	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/refdata"
)

// BenchmarkSolveCommand runs 'sudoku solve --workers 1' over the 17-clue
// set, read from memory and written to io.Discard: the whole command path,
// input parsing and output formatting included, with the solver's own
// cost (count/sudoku's BenchmarkSolve) as the floor. Profile it to see
// what the command adds to the solver.
func BenchmarkSolveCommand(b *testing.B) {
	data, err := os.ReadFile(refdata.File(b, "sudoku", "17-clue.txt"))
	if err != nil {
		b.Fatal(err)
	}
	puzzles := bytes.Count(data, []byte("\n")) - 4 // four comment lines
	for _, format := range []string{"line", "json"} {
		b.Run("format="+format, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				e := &cli.Env{Stdin: bytes.NewReader(data), Stdout: io.Discard, Stderr: io.Discard}
				if code := app.Run(context.Background(), e, []string{"solve", "--workers", "1", "--format", format}); code != cli.ExitOK {
					b.Fatalf("exit %d", code)
				}
			}
			b.ReportMetric(float64(b.N*puzzles)/b.Elapsed().Seconds(), "puzzles/s")
		})
	}
}
