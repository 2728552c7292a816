package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/nqcount/nqcount/count/sudoku/batch"
	"github.com/nqcount/nqcount/count/sudoku/logic"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "explain", Summary: "solve puzzles step by step like a person, saying why", Run: runExplain})
}

type explainJSON struct {
	Line     int          `json:"line"`
	Puzzle   string       `json:"puzzle"`
	Solution string       `json:"solution"`
	Rating   logic.Rating `json:"rating"`
	Steps    []logic.Step `json:"steps"`
}

func runExplain(ctx context.Context, e *cli.Env, args []string) int {
	var scale *logic.Scale
	s, code := openSession(ctx, e, "explain", "Solves every puzzle step by step like a person: each step names its technique, the cells\n"+
		"and digits involved, and says why, with its score; then the rating (ER, EP, ED on Sudoku\n"+
		"Explainer's scale by default, with the scale and rater version).", args,
		func(fs *flag.FlagSet) { scale = scaleFlag(fs) })
	if s == nil {
		return code
	}
	defer s.close()
	opt := batch.RateOptions{Options: batch.Options{Workers: s.c.workers}, Rating: logic.Options{Scale: *scale}}
	return s.finish(batch.Explain(ctx, s.in, opt, func(r *batch.Record[logic.Explanation]) error {
		if r.ReadErr != nil {
			s.bad(r.Line, r.ReadErr)
			return nil
		}
		if r.Err != nil {
			return s.cannot("explain", r.Line, r.Grid, r.Err)
		}
		writeExplanation(s.o, s.c.format, r.Line, r.Value)
		return s.written()
	}))
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
