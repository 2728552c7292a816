package main

import (
	"context"
	"errors"
	"flag"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/sudoku"
)

func init() {
	register(&command{Name: "count", Summary: "count the solutions of puzzles exactly, on every core", Run: runCount})
}

type countJSON struct {
	Line         int           `json:"line"`
	Puzzle       string        `json:"puzzle"`
	Solution     string        `json:"solution,omitempty"`
	Solutions    count.Uint128 `json:"solutions"`
	LimitReached bool          `json:"limit_reached,omitempty"`
	Tasks        int           `json:"tasks"`
	Nodes        count.Uint128 `json:"nodes"`
	Seconds      float64       `json:"seconds"`
}

func runCount(ctx context.Context, e *env, args []string) int {
	var limit *uint64
	s, code := openSession(e, "count", "Counts the solutions of every puzzle exactly (or up to --limit), splitting each\n"+
		"puzzle's search over every core. Exit status 1 if a puzzle has none.", args, func(fs *flag.FlagSet) {
		limit = fs.Uint64("limit", 0, "stop once this many solutions are found (0: count them all)")
	})
	if s == nil {
		return code
	}
	defer s.close()
	c, name, o := s.c, s.name, s.o
	for {
		it, ok := s.next()
		if !ok {
			break
		}
		noteClues(e, o, name, it.Line, it.Grid)
		res, err := sudoku.Count(ctx, it.Grid, sudoku.CountOptions{Limit: *limit, Workers: c.workers})
		if err != nil {
			o.flush()
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				e.Errorf("interrupted")
				return exitInterrupted
			}
			e.Errorf("%s:%d: %v", name, it.Line, err)
			s.failed = true
			continue
		}
		if res.Count == (count.Uint128{}) {
			s.failed = true // no solution: a failed check, as solve says
		}
		word := res.Count.String()
		if res.LimitReached {
			word += " (limit reached)"
		}
		switch o.format {
		case "json":
			js := countJSON{Line: it.Line, Puzzle: it.Grid.String(), Solutions: res.Count, LimitReached: res.LimitReached,
				Tasks: res.Tasks, Nodes: res.Nodes, Seconds: res.Seconds}
			if res.Solution != nil {
				js.Solution = res.Solution.String()
			}
			o.object(js)
		case "grid":
			noun := "solutions"
			if res.Count.Cmp(count.U128(1)) == 0 {
				noun = "solution"
			}
			o.grid(it.Grid, "line "+itoa(it.Line)+": "+word+" "+noun)
		default:
			o.line(it.Grid, word)
		}
		if o.failed() {
			return exitOK // cli reports the error, or ends quietly on a broken pipe
		}
	}
	return s.finish()
}
