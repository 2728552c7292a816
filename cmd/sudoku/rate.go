package main

import (
	"context"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	register(&command{Name: "rate", Summary: "rate puzzles by the solving techniques they need", Run: runRate})
}

type rateJSON struct {
	Line      int    `json:"line"`
	Puzzle    string `json:"puzzle"`
	Solution  string `json:"solution"`
	Solutions uint64 `json:"solutions"`
	Level     string `json:"level"`
	Clues     int    `json:"clues"`
}

func runRate(ctx context.Context, e *env, args []string) int {
	s, code := openSession(e, "rate", "Rates every puzzle by the hardest technique a human solver needs: singles,\n"+
		"hidden, intermediate or hard (see 'sudoku generate -h').", args, nil)
	if s == nil {
		return code
	}
	defer s.close()
	name, o := s.name, s.o
	for {
		if ctx.Err() != nil {
			o.flush()
			e.Errorf("interrupted")
			return exitInterrupted
		}
		it, ok := s.next()
		if !ok {
			break
		}
		lv, err := sudoku.Rate(it.Grid)
		if err != nil {
			o.flush()
			n := it.Grid.Clues()
			e.Errorf("%s:%d: cannot rate: %v (%d %s)", name, it.Line, err, n, cli.Plural(n, "clue", "clues"))
			s.failed = true
			continue
		}
		switch o.format {
		case "json":
			_, sol := sudoku.Solve(it.Grid, 1)
			o.object(rateJSON{Line: it.Line, Puzzle: it.Grid.String(), Solution: sol.String(), Solutions: 1, Level: lv.String(), Clues: it.Grid.Clues()})
		case "grid":
			o.grid(it.Grid, "line "+itoa(it.Line)+": "+lv.String())
		default:
			o.line(it.Grid, lv.String())
		}
		if o.failed() {
			return exitOK // cli reports the error, or ends quietly on a broken pipe
		}
	}
	return s.finish()
}
