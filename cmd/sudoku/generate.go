package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nqcount/nqcount/count/sudoku"
)

func init() {
	register(&command{Name: "generate", Summary: "generate unique puzzles of a difficulty, reproducibly from a seed", Run: runGenerate})
}

type generateJSON struct {
	Puzzle    string `json:"puzzle"`
	Solution  string `json:"solution"`
	Solutions uint64 `json:"solutions"`
	Level     string `json:"level"`
	Clues     int    `json:"clues"`
	Seed      uint64 `json:"seed"`
	Index     int    `json:"index"`
	Symmetric bool   `json:"symmetric"`
}

func runGenerate(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "generate", "[flags]",
		"Generates puzzles with exactly one solution at a difficulty, reproducibly: the same\n"+
			"--seed and flags give the same puzzles, whatever the number of workers. Levels:\n"+
			"singles (naked singles suffice), hidden (needs hidden singles), intermediate\n"+
			"(needs locked candidates or naked/hidden pairs), hard (needs guessing).")
	var c common
	c.add(fs)
	level := fs.String("difficulty", "hard", "level: singles, hidden, intermediate or hard")
	n := fs.Int("count", 1, "number of puzzles")
	seed := fs.Uint64("seed", 0, "random seed; the same seed and flags give the same puzzles (0: pick one and report it)")
	first := fs.Int("first", 0, "index of the first puzzle (to continue a run)")
	sym := fs.Bool("symmetric", false, "make clue patterns symmetric under a half turn")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if !c.check(e) {
		return exitUsage
	}
	if len(pos) > 0 {
		e.Errorf("generate takes no arguments, got %q", pos[0])
		return exitUsage
	}
	lv, err := sudoku.ParseLevel(*level)
	if err != nil {
		e.Errorf("%v", err)
		return exitUsage
	}
	if *n < 0 || *first < 0 {
		e.Errorf("--count and --first must be 0 or more")
		return exitUsage
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
		e.Errorf("note: --seed %d reproduces this run", *seed)
	}
	o := newOut(e, c.format)
	defer o.flush()
	opt := sudoku.GenerateOptions{Level: lv, Symmetric: *sym, Seed: *seed}
	err = sudoku.GenerateN(ctx, opt, *first, *n, c.workers, func(g sudoku.Generated) error {
		switch o.format {
		case "json":
			o.object(generateJSON{Puzzle: g.Puzzle.String(), Solution: g.Solution.String(), Solutions: 1, Level: g.Level.String(),
				Clues: g.Puzzle.Clues(), Seed: *seed, Index: g.Index, Symmetric: *sym})
		case "grid":
			o.grid(g.Puzzle, fmt.Sprintf("seed %d index %d: %s, %d clues", *seed, g.Index, g.Level, g.Puzzle.Clues()))
		default:
			o.line(g.Puzzle, "")
		}
		return e.OutputErr() // stop generating once nobody reads
	})
	if err != nil && e.OutputErr() != nil {
		return exitOK // cli reports the error, or ends quietly on a broken pipe
	}
	if err != nil {
		o.flush()
		if errors.Is(err, context.Canceled) {
			e.Errorf("interrupted")
			return exitInterrupted
		}
		e.Errorf("%v", err)
		return exitFail
	}
	return exitOK
}
