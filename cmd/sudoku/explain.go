package main

import (
	"context"
	"fmt"

	"github.com/nqcount/nqcount/count/sudoku/batch"
	"github.com/nqcount/nqcount/count/sudoku/logic"
)

func init() {
	register(&command{Name: "explain", Summary: "solve puzzles step by step like a person, saying why", Run: runExplain})
}

type explainJSON struct {
	Line       int                  `json:"line"`
	Puzzle     string               `json:"puzzle"`
	Solution   string               `json:"solution"`
	Score      float64              `json:"score"`
	Level      string               `json:"level"`
	Techniques []logic.TechniqueUse `json:"techniques"`
	Steps      []logic.Step         `json:"steps"`
}

func runExplain(ctx context.Context, e *env, args []string) int {
	s, code := openSession(e, "explain", "Solves every puzzle step by step like a person: each step names its technique, the cells\n"+
		"and digits involved, and says why; the score is that of the hardest technique needed.", args, nil)
	if s == nil {
		return code
	}
	defer s.close()
	return s.finish(batch.Explain(ctx, s.in, batch.Options{Workers: s.c.workers}, func(r *batch.Record[logic.Explanation]) error {
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
			Score: r.Score, Level: r.Level.String(), Techniques: r.Techniques, Steps: ex.Steps})
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
	fmt.Fprintf(w, "score %.1f (%s), %d steps: %s\n\n", r.Score, r.Level, r.Steps, techniqueSummary(r.Techniques))
}
