package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/batch"
	"github.com/nqcount/nqcount/count/sudoku/logic"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "rate", Summary: "rate puzzles: score of the hardest technique needed, level, techniques", Run: runRate})
}

type rateJSON struct {
	Line      int    `json:"line"`
	Puzzle    string `json:"puzzle"`
	Solution  string `json:"solution"`
	Solutions uint64 `json:"solutions"`
	Clues     int    `json:"clues"`
	logic.Rating
}

// scaleFlag adds --scale to a command's flags; a name that is not a scale
// is a usage error.
func scaleFlag(fs *flag.FlagSet) *logic.Scale {
	sc := logic.ScaleSE
	fs.Func("scale", "rating scale: se (Sudoku Explainer's serate: ER/EP/ED; the default) or classic (nqcount's first scale)", func(v string) error {
		var err error
		sc, err = logic.ParseScale(v)
		return err
	})
	return &sc
}

func runRate(ctx context.Context, e *cli.Env, args []string) int {
	var scale *logic.Scale
	s, code := openSession(ctx, e, "rate", "Rates every puzzle like a human solver, on Sudoku Explainer's scale by default (the\n"+
		"techniques, weights and order of serate, 1.0 to about 12): the level name, then ER (the\n"+
		"hardest step), EP (the hardest up to the first digit placed) and ED (the first step), and\n"+
		"the scale and rater version; --format json adds the technique of the hardest step and the\n"+
		"techniques used.", args, func(fs *flag.FlagSet) { scale = scaleFlag(fs) })
	if s == nil {
		return code
	}
	defer s.close()
	o := s.o
	opt := batch.RateOptions{Options: batch.Options{Workers: s.c.workers}, Rating: logic.Options{Scale: *scale}}
	return s.finish(batch.Rate(ctx, s.in, opt, func(r *batch.Record[batch.Rated]) error {
		if r.ReadErr != nil {
			s.bad(r.Line, r.ReadErr)
			return nil
		}
		if r.Err != nil {
			return s.cannot("rate", r.Line, r.Grid, r.Err)
		}
		rt := r.Value.Rating
		js := rateJSON{Line: r.Line, Puzzle: r.Grid.String(), Solution: r.Value.Solution.String(), Solutions: 1, Clues: r.Grid.Clues(), Rating: rt}
		o.record(r.Grid, fmt.Sprintf("line %d: %s, %s", r.Line, rt, rt.Level), rt.Short(), js)
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
