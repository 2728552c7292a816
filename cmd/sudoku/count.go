package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/batch"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "count", Summary: "count the solutions of puzzles exactly, on every core", Run: runCount})
}

type countJSON struct {
	Line         int           `json:"line"`
	Puzzle       string        `json:"puzzle"`
	Solution     string        `json:"solution,omitempty"`
	Solutions    count.Uint128 `json:"solutions"`
	LimitReached bool          `json:"limit_reached,omitempty"`
	Tasks        int           `json:"tasks"`
	Workers      int           `json:"workers"`
	Solver       string        `json:"solver"`
	Nodes        count.Uint128 `json:"nodes"`
	Seconds      float64       `json:"seconds"`
}

func runCount(ctx context.Context, e *cli.Env, args []string) int {
	var (
		limit  *uint64
		solver *string
		every  *time.Duration
	)
	s, code := openSession(ctx, e, "count", "Counts the solutions of every puzzle exactly (or up to --limit), splitting each\n"+
		"puzzle's search over every core. Exit status 1 if a puzzle has none. While a count\n"+
		"lasts, a progress line on stderr every --progress-every gives the solutions found so\n"+
		"far; Ctrl-C stops it and prints that partial count.", args, func(fs *flag.FlagSet) {
		limit = fs.Uint64("limit", 0, "stop once this many solutions are found (0: count them all)")
		solver = solverFlag(fs)
		every = fs.Duration("progress-every", 10*time.Second, "time between progress lines on stderr while a count lasts (0: none)")
	})
	if s == nil {
		return code
	}
	defer s.close()
	if !checkSolver(e, *solver) {
		return cli.ExitUsage
	}
	if *every < 0 {
		e.Errorf("--progress-every %v: want 0 (no progress lines) or more", *every)
		return cli.ExitUsage
	}
	name, o := s.name, s.o
	opt := batch.CountOptions{CountOptions: sudoku.CountOptions{Limit: *limit, Workers: s.c.workers, Solver: *solver}}
	if *every > 0 {
		// A count that ends within the interval prints nothing: the
		// first line comes after one interval.
		opt.ProgressEvery = *every
		opt.Progress = func(line int, p sudoku.CountProgress) {
			e.Errorf("%s:%d: progress: %s", name, line, progressLine(p))
		}
	}
	return s.finish(batch.Count(ctx, s.in, opt, func(r *batch.Record[sudoku.CountResult]) error {
		if r.ReadErr != nil {
			s.bad(r.Line, r.ReadErr)
			return nil
		}
		res := r.Value
		if err := r.Err; err != nil {
			o.flush()
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				e.Errorf("%s:%d: interrupted after %.1f s: %s found so far (a partial count, not the answer)",
					name, r.Line, res.Seconds, plural(res.Count, "solution"))
				s.interruptSaid = true
				return err
			}
			e.Errorf("%s:%d: %v", name, r.Line, err)
			s.failed = true
			return nil
		}
		noteClues(e, o, name, r.Line, r.Grid)
		if res.Count == (count.Uint128{}) {
			s.failed = true // no solution: a failed check, as solve says
		}
		word := res.Count.String()
		if res.LimitReached {
			word += " (limit reached)"
		}
		switch o.format {
		case "json":
			js := countJSON{Line: r.Line, Puzzle: r.Grid.String(), Solutions: res.Count, LimitReached: res.LimitReached,
				Tasks: res.Tasks, Workers: res.Workers, Solver: res.Solver, Nodes: res.Nodes, Seconds: res.Seconds}
			if res.Solution != nil {
				js.Solution = res.Solution.String()
			}
			o.object(js)
		case "grid":
			noun := "solutions"
			if res.Count.Cmp(count.U128(1)) == 0 {
				noun = "solution"
			}
			o.grid(r.Grid, "line "+itoa(r.Line)+": "+word+" "+noun)
		default:
			o.line(r.Grid, word)
		}
		return s.written()
	}))
}

// plural writes n and the noun, with an s unless n is 1.
func plural(n count.Uint128, noun string) string {
	if n.Cmp(count.U128(1)) != 0 {
		noun += "s"
	}
	return n.String() + " " + noun
}

// progressLine describes a count under way.
func progressLine(p sudoku.CountProgress) string {
	rate := 0.0
	if sec := p.Elapsed.Seconds(); sec > 0 {
		rate = float64(p.Solutions) / sec
	}
	return fmt.Sprintf("%s so far (%.3g/s), %d of %d tasks done, %.3g nodes, %s",
		plural(count.U128(p.Solutions), "solution"), rate, p.TasksDone, p.Tasks, float64(p.Nodes), p.Elapsed.Round(time.Second))
}
