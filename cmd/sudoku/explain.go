package main

import (
	"context"
	"errors"
	"flag"
	"fmt"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/logic"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	register(&command{Name: "explain", Summary: "solve puzzles step by step like a person, saying why", Run: runExplain})
}

type explainJSON struct {
	Line     int          `json:"line"`
	Puzzle   string       `json:"puzzle"`
	Solution string       `json:"solution"`
	Rating   logic.Rating `json:"rating"`
	Steps    []logic.Step `json:"steps"`
}

func runExplain(ctx context.Context, e *env, args []string) int {
	var scale *string
	s, code := openSession(e, "explain", "Solves every puzzle step by step like a person: each step names its technique, the cells\n"+
		"and digits involved, and says why, with its score; then the rating (ER, EP, ED on Sudoku\n"+
		"Explainer's scale by default, with the scale and rater version).", args,
		func(fs *flag.FlagSet) { scale = scaleFlag(fs) })
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
	// Puzzles are explained in batches on every worker (a hard one takes
	// up to a second), and printed in input order.
	batch := 4 * max(1, s.c.workers)
	if s.c.workers == 0 {
		batch = 32
	}
	var items []sudoku.Item
	var grids []sudoku.Grid
	flush := func() int {
		res := logic.ExplainAllWith(ctx, grids, s.c.workers, logic.Options{Scale: sc})
		for i, it := range items {
			ex, err := res[i].Explanation, res[i].Err
			if err != nil {
				o.flush()
				if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
					e.Errorf("interrupted")
					return exitInterrupted
				}
				n := it.Grid.Clues()
				e.Errorf("%s:%d: cannot explain: %v (%d %s)", name, it.Line, err, n, cli.Plural(n, "clue", "clues"))
				s.failed = true
				continue
			}
			writeExplanation(o, s.c.format, it.Line, ex)
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

// writeExplanation writes one puzzle's explanation: a JSON object, or a
// numbered step a line between the puzzle (as a grid too with --format
// grid) and the solution and score.
func writeExplanation(o *out, format string, line int, ex logic.Explanation) {
	r := ex.Rating
	if format == "json" {
		o.record(ex.Puzzle, "", "", explainJSON{Line: line, Puzzle: ex.Puzzle.String(), Solution: ex.Solution.String(),
			Rating: r, Steps: ex.Steps})
		return
	}
	w := o.w
	fmt.Fprintf(w, "# line %d: %s\n", line, ex.Puzzle)
	if format == "grid" {
		fmt.Fprint(w, ex.Puzzle.GridString())
	}
	for i, st := range ex.Steps {
		fmt.Fprintf(w, "%3d. [%.1f] %s\n", i+1, st.Score, st.Text)
	}
	fmt.Fprintf(w, "solution %s\n", ex.Solution)
	fmt.Fprintf(w, "rating %s, %s, %d steps: %s\n\n", r, r.Level, r.Steps, techniqueSummary(r.Techniques))
}
