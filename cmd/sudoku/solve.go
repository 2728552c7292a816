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

func status(n uint64) string {
	switch n {
	case 0:
		return "none"
	case 1:
		return "unique"
	}
	return "several"
}

func runSolve(ctx context.Context, e *env, args []string) int {
	var solver *string
	s, code := openSession(e, "solve", args, func(fs *flag.FlagSet) {
		solver = solverFlag(fs)
	})
	if s == nil {
		return code
	}
	defer s.close()
	if _, err := sudoku.LookupVariant(*solver); err != nil {
		e.Errorf("--solver: %v", err)
		return exitUsage
	}
	c, name, o, rd := s.c, s.name, s.o, s.rd
	// A reader goroutine parses the next batch while this one is solved
	// on every core; results are written in input order.
	const batchSize = 4096
	batches := make(chan []sudoku.Item, 1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(batches)
		for {
			items := make([]sudoku.Item, 0, batchSize)
			for len(items) < batchSize {
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
	grids := make([]sudoku.Grid, 0, batchSize)
	for items := range batches {
		if ctx.Err() != nil {
			o.flush()
			e.Errorf("interrupted")
			return exitInterrupted
		}
		grids = grids[:0]
		for _, it := range items {
			if it.Err == nil {
				grids = append(grids, it.Grid)
			}
		}
		res, err := sudoku.SolveAll(ctx, grids, sudoku.SolveOptions{Workers: c.workers, Solver: *solver})
		if err != nil {
			o.flush()
			if ctx.Err() != nil {
				e.Errorf("interrupted")
				return exitInterrupted
			}
			e.Errorf("%v", err)
			return exitFail
		}
		j := 0
		for _, it := range items {
			if it.Err != nil {
				o.flush()
				badItem(e, name, it)
				s.failed = true
				continue
			}
			r := res[j]
			j++
			noteClues(e, name, it.Line, it.Grid)
			st := status(r.Count)
			shown := r.Solution
			js := solveJSON{Line: it.Line, Puzzle: it.Grid.String(), Solutions: r.Count, Status: st, Clues: it.Grid.Clues()}
			if r.Count == 0 {
				shown = it.Grid
				s.failed = true
			} else {
				js.Solution = r.Solution.String()
			}
			o.record(shown, "line "+itoa(it.Line)+": "+st, st, js)
		}
	}
	return s.finish()
}
