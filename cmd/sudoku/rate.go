package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/batch"
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
	o := s.o
	return s.finish(batch.Rate(ctx, s.in, batch.Options{Workers: s.c.workers}, func(r *batch.Record[batch.Rated]) error {
		if r.ReadErr != nil {
			s.bad(r.Line, r.ReadErr)
			return nil
		}
		if r.Err != nil {
			return s.cannot("rate", r.Line, r.Grid, r.Err)
		}
		rt := r.Value.Rating
		js := rateJSON{Line: r.Line, Puzzle: r.Grid.String(), Solution: r.Value.Solution.String(), Solutions: 1, Score: rt.Score,
			Level: rt.Level.String(), Techniques: rt.Techniques, Steps: rt.Steps, Clues: r.Grid.Clues()}
		o.record(r.Grid, fmt.Sprintf("line %d: %s %.1f (%s)", r.Line, rt.Level, rt.Score, hardest(rt)),
			fmt.Sprintf("%s %.1f", rt.Level, rt.Score), js)
		return s.written()
	}))
}

// cannot reports a puzzle that the rater refuses (what says what it
// could not do) and marks the run failed; the context's error, when the
// run was stopped at that puzzle, is returned instead, to stop it.
func (s *session) cannot(what string, line int, g sudoku.Grid, err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	s.o.flush()
	n := g.Clues()
	s.e.Errorf("%s:%d: cannot %s: %v (%d %s)", s.name, line, what, err, n, cli.Plural(n, "clue", "clues"))
	s.failed = true
	return nil
}

// techniqueSummary writes "hidden single x36, pointing x3".
func techniqueSummary(ts []logic.TechniqueUse) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = fmt.Sprintf("%s x%d", t.Name, t.Count)
	}
	return strings.Join(parts, ", ")
}
