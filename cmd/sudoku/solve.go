package main

import (
	"context"
	"flag"
	"strings"

	"github.com/nqcount/nqcount/count/sudoku"
)

func init() {
	register(&command{Name: "solve", Summary: "solve every puzzle of a file and say if it is unique", Run: runSolve})
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
func checkSolver(e *env, name string) bool {
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

// solveBatch is the number of puzzles read ahead and solved together.
const solveBatch = 4096

func runSolve(ctx context.Context, e *env, args []string) int {
	var solver *string
	s, code := openSession(e, "solve", "Solves every puzzle, in order, on every core, and says whether it has one\n"+
		"solution (unique), several or none. Exit status 1 if one has none.", args, func(fs *flag.FlagSet) {
		solver = solverFlag(fs)
	})
	if s == nil {
		return code
	}
	defer s.close()
	if !checkSolver(e, *solver) {
		return exitUsage
	}
	c, name, o, rd := s.c, s.name, s.o, s.rd
	// A reader goroutine parses the next batch while this one is solved
	// on every core; results are written in input order. Two batches of
	// items go round between the goroutines, so reading allocates
	// nothing once they exist.
	free := make(chan []sudoku.Item, 2)
	free <- make([]sudoku.Item, 0, solveBatch)
	free <- make([]sudoku.Item, 0, solveBatch)
	batches := make(chan []sudoku.Item, 1)
	stop := make(chan struct{})
	go func() {
		defer close(batches)
		for {
			var items []sudoku.Item
			select {
			case items = <-free:
			case <-stop:
				return
			}
			items = items[:0]
			for len(items) < solveBatch {
				it, ok := rd.Next()
				if !ok {
					break
				}
				items = append(items, it)
			}
			if len(items) == 0 {
				return
			}
			select {
			case batches <- items:
			case <-stop:
				return
			}
		}
	}()
	// stopReader ends the reader goroutine before the session is used
	// again.
	stopReader := func() {
		close(stop)
		for range batches {
		}
	}
	grids := make([]sudoku.Grid, 0, solveBatch)
	for items := range batches {
		if ctx.Err() != nil {
			stopReader()
			o.flush()
			e.Errorf("interrupted")
			return exitInterrupted
		}
		grids = grids[:0]
		for i := range items {
			if items[i].Err == nil {
				grids = append(grids, items[i].Grid)
			}
		}
		res, err := sudoku.SolveAll(ctx, grids, sudoku.SolveOptions{Workers: c.workers, Solver: *solver})
		if err != nil {
			stopReader()
			o.flush()
			if ctx.Err() != nil {
				e.Errorf("interrupted")
				return exitInterrupted
			}
			e.Errorf("%v", err)
			return exitFail
		}
		j := 0
		for i := range items {
			it := &items[i]
			if it.Err != nil {
				o.flush()
				badItem(e, name, *it)
				s.failed = true
				continue
			}
			r := &res[j]
			j++
			noteClues(e, o, name, it.Line, it.Grid)
			st := status(r.Count)
			shown := r.Solution
			if r.Count == 0 {
				shown = it.Grid
				s.failed = true
			}
			switch o.format {
			case "json":
				js := solveJSON{Line: it.Line, Puzzle: it.Grid.String(), Solutions: r.Count, Status: st, Clues: it.Grid.Clues()}
				if r.Count > 0 {
					js.Solution = r.Solution.String()
				}
				o.object(js)
			case "grid":
				o.grid(shown, "line "+itoa(it.Line)+": "+st)
			default:
				o.line(shown, st)
			}
		}
		free <- items
		if o.failed() {
			stopReader()
			return exitOK // cli reports the error, or ends quietly on a broken pipe
		}
	}
	stopReader()
	return s.finish()
}
