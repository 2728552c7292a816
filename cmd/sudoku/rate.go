package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/logic"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	register(&command{Name: "rate", Summary: "rate puzzles: score of the hardest technique needed, level, techniques", Run: runRate})
}

type rateJSON struct {
	Line      int    `json:"line"`
	Puzzle    string `json:"puzzle"`
	Solution  string `json:"solution"`
	Solutions uint64 `json:"solutions"`
	Clues     int    `json:"clues"`
	logic.Rating
}

// scaleFlag adds --scale to a command's flags.
func scaleFlag(fs *flag.FlagSet) *string {
	return fs.String("scale", string(logic.ScaleSE), "rating scale: se (Sudoku Explainer's serate: ER/EP/ED) or classic (nqcount's first scale)")
}

func runRate(ctx context.Context, e *env, args []string) int {
	var scale *string
	s, code := openSession(e, "rate", "Rates every puzzle like a human solver, on Sudoku Explainer's scale by default (the\n"+
		"techniques, weights and order of serate, 1.0 to about 12): ER (the hardest step), EP (the\n"+
		"hardest up to the first digit placed), ED (the first step), the level name, the technique\n"+
		"of the hardest step, and the scale and rater version; --format json adds the techniques used.",
		args, func(fs *flag.FlagSet) { scale = scaleFlag(fs) })
	if s == nil {
		return code
	}
	sc, err := logic.ParseScale(*scale)
	if err != nil {
		s.close()
		e.Errorf("--scale: %v", err)
		return exitUsage
	}
	defer s.close()
	name, o := s.name, s.o
	// Puzzles are rated in batches on every worker (a hard one takes up to
	// a second), and printed in input order.
	batch := 8 * max(1, s.c.workers)
	if s.c.workers == 0 {
		batch = 64
	}
	var items []sudoku.Item
	var grids []sudoku.Grid
	flush := func() int {
		res := logic.RateAllWith(ctx, grids, s.c.workers, logic.Options{Scale: sc})
		for i, it := range items {
			r := res[i]
			if r.Err != nil {
				o.flush()
				if errors.Is(r.Err, context.Canceled) || errors.Is(r.Err, context.DeadlineExceeded) {
					e.Errorf("interrupted")
					return exitInterrupted
				}
				n := it.Grid.Clues()
				e.Errorf("%s:%d: cannot rate: %v (%d %s)", name, it.Line, r.Err, n, cli.Plural(n, "clue", "clues"))
				s.failed = true
				continue
			}
			_, sol := sudoku.Solve(it.Grid, 1)
			rt := r.Rating
			js := rateJSON{Line: it.Line, Puzzle: it.Grid.String(), Solution: sol.String(), Solutions: 1, Clues: it.Grid.Clues(), Rating: rt}
			o.record(it.Grid, fmt.Sprintf("line %d: %s, %s", it.Line, rt, rt.Level), rt.Short(), js)
			if o.failed() {
				return exitOK // cli reports the error, or ends quietly on a broken pipe
			}
		}
		items, grids = items[:0], grids[:0]
		return exitOK
	}
	for {
		if ctx.Err() != nil {
			o.flush()
			e.Errorf("interrupted")
			return exitInterrupted
		}
		it, ok := s.next()
		if ok {
			items = append(items, it)
			grids = append(grids, it.Grid)
		}
		if len(items) == batch || (!ok && len(items) > 0) {
			if code := flush(); code != exitOK {
				return code
			}
		}
		if !ok {
			break
		}
	}
	return s.finish()
}

// techniqueSummary writes "hidden single x36, pointing x3".
func techniqueSummary(ts []logic.TechniqueUse) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = fmt.Sprintf("%s x%d", t.Name, t.Count)
	}
	return strings.Join(parts, ", ")
}
