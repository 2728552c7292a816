package main

import (
	"context"
	"errors"
	"fmt"

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
	s, code := openSession(e, "explain", args, nil)
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
		ex, err := logic.ExplainContext(ctx, it.Grid)
		if err != nil {
			o.flush()
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				e.Errorf("interrupted")
				return exitInterrupted
			}
			e.Errorf("%s:%d: cannot explain: %v (%d clues)", name, it.Line, err, it.Grid.Clues())
			s.failed = true
			continue
		}
		r := ex.Rating
		if s.c.format == "json" {
			o.record(it.Grid, "", "", explainJSON{Line: it.Line, Puzzle: ex.Puzzle.String(), Solution: ex.Solution.String(),
				Score: r.Score, Level: r.Level.String(), Techniques: r.Techniques, Steps: ex.Steps})
			continue
		}
		w := o.w
		fmt.Fprintf(w, "# line %d: %s\n", it.Line, ex.Puzzle)
		if s.c.format == "grid" {
			fmt.Fprint(w, ex.Puzzle.GridString())
		}
		for i, st := range ex.Steps {
			fmt.Fprintf(w, "%3d. [%.1f] %s\n", i+1, st.Score, st.Text)
		}
		fmt.Fprintf(w, "solution %s\n", ex.Solution)
		fmt.Fprintf(w, "score %.1f (%s), %d steps: %s\n\n", r.Score, r.Level, r.Steps, techniqueSummary(r.Techniques))
	}
	return s.finish()
}
