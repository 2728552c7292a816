package main

import (
	"context"
	"flag"
	"strings"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/batch"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "solve", Summary: "solve every puzzle of a file and say if it is unique", Run: runSolve})
}

type solveJSON struct {
	Line      int    `json:"line"`
	Puzzle    string `json:"puzzle"`
	Solution  string `json:"solution,omitempty"`
	Solutions uint64 `json:"solutions"`
	Status    string `json:"status"`
	Clues     int    `json:"clues"`
}

// solverFlag adds --solver, which solve and count take.
func solverFlag(fs *flag.FlagSet) *string {
	var names []string
	for _, v := range sudoku.Variants() {
		names = append(names, v.Name)
	}
	return fs.String("solver", "auto", "solver variant: auto (the fastest this machine runs), "+strings.Join(names, ", "))
}

// checkSolver reports an unknown or unsupported --solver.
func checkSolver(e *cli.Env, name string) bool {
	if _, err := sudoku.LookupVariant(name); err != nil {
		e.Errorf("--solver: %v", err)
		return false
	}
	return true
}

func status(n uint64) string {
	switch n {
	case 0:
		return "none"
	case 1:
		return "unique"
	}
	return "several"
}

func runSolve(ctx context.Context, e *cli.Env, args []string) int {
	var solver *string
	s, code := openSession(ctx, e, "solve", "Solves every puzzle, in order, on every core, and says whether it has one\n"+
		"solution (unique), several or none. Exit status 1 if one has none.", args, func(fs *flag.FlagSet) {
		solver = solverFlag(fs)
	})
	if s == nil {
		return code
	}
	defer s.close()
	if !checkSolver(e, *solver) {
		return cli.ExitUsage
	}
	o := s.o
	opt := batch.SolveOptions{Options: batch.Options{Workers: s.c.workers}, Solver: *solver}
	return s.finish(batch.Solve(ctx, s.in, opt, func(r *batch.Record[sudoku.Result]) error {
		if r.ReadErr != nil {
			s.bad(r.Line, r.ReadErr)
			return nil
		}
		if r.Err != nil {
			return r.Err
		}
		noteClues(e, o, s.name, r.Line, r.Grid)
		n := r.Value.Count
		st := status(n)
		shown := r.Value.Solution
		if n == 0 {
			shown = r.Grid
			s.failed = true
		}
		switch o.format {
		case "json":
			js := solveJSON{Line: r.Line, Puzzle: r.Grid.String(), Solutions: n, Status: st, Clues: r.Grid.Clues()}
			if n > 0 {
				js.Solution = r.Value.Solution.String()
			}
			o.object(js)
		case "grid":
			o.grid(shown, "line "+itoa(r.Line)+": "+st)
		default:
			o.line(shown, st)
		}
		return s.written()
	}))
}
