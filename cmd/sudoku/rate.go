package main

import (
	"context"

	"github.com/nqcount/nqcount/count/sudoku"
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
	s, code := openSession(e, "rate", args, nil)
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
			e.Errorf("%s:%d: cannot rate: %v (%d clues)", name, it.Line, err, it.Grid.Clues())
			s.failed = true
			continue
		}
		_, sol := sudoku.Solve(it.Grid, 1)
		js := rateJSON{Line: it.Line, Puzzle: it.Grid.String(), Solution: sol.String(), Solutions: 1, Level: lv.String(), Clues: it.Grid.Clues()}
		o.record(it.Grid, "line "+itoa(it.Line)+": "+lv.String(), lv.String(), js)
	}
	return s.finish()
}
