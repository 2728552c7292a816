package main

import (
	"context"
	"errors"
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
	Line       int                  `json:"line"`
	Puzzle     string               `json:"puzzle"`
	Solution   string               `json:"solution"`
	Solutions  uint64               `json:"solutions"`
	Score      float64              `json:"score"`
	Level      string               `json:"level"`
	Techniques []logic.TechniqueUse `json:"techniques"`
	Steps      int                  `json:"steps"`
	Clues      int                  `json:"clues"`
}

// hardest names the hardest technique of a rating.
func hardest(r logic.Rating) string {
	if len(r.Techniques) == 0 {
		return "none"
	}
	return r.Techniques[len(r.Techniques)-1].Name
}

func runRate(ctx context.Context, e *env, args []string) int {
	s, code := openSession(e, "rate", "Rates every puzzle like a human solver: the score of the hardest technique needed\n"+
		"(on a Sudoku Explainer-like scale, 1.0 to 12.0), its level name and the techniques used.", args, nil)
	if s == nil {
		return code
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
		res := logic.RateAll(ctx, grids, s.c.workers)
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
			js := rateJSON{Line: it.Line, Puzzle: it.Grid.String(), Solution: sol.String(), Solutions: 1, Score: rt.Score,
				Level: rt.Level.String(), Techniques: rt.Techniques, Steps: rt.Steps, Clues: it.Grid.Clues()}
			o.record(it.Grid, fmt.Sprintf("line %d: %s %.1f (%s)", it.Line, rt.Level, rt.Score, hardest(rt)),
				fmt.Sprintf("%s %.1f", rt.Level, rt.Score), js)
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
