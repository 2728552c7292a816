package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/generate"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "generate", Summary: "generate unique puzzles of a difficulty and symmetry, reproducibly from a seed", Run: runGenerate})
}

type generateJSON struct {
	Puzzle    string  `json:"puzzle"`
	Solution  string  `json:"solution"`
	Solutions uint64  `json:"solutions"`
	Score     float64 `json:"score"`
	Level     string  `json:"level"`
	Clues     int     `json:"clues"`
	Symmetry  string  `json:"symmetry"`
	Symmetric bool    `json:"symmetric"` // symmetry is not none (the field of the first generator)
	Seed      uint64  `json:"seed"`
	Index     int     `json:"index"`
	Tries     int     `json:"tries"`
}

func runGenerate(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "generate", "[flags]",
		"Generates puzzles with exactly one solution at a difficulty (a level or a score range) and\n"+
			"a clue symmetry, reproducibly: the same --seed and flags give the same puzzles, whatever\n"+
			"the number of workers.")
	var c common
	c.add(fs)
	level := fs.String("difficulty", "hard", "level, a named score range: singles (1.0-1.5), hidden (1.6-2.5), intermediate (2.6-3.4) or hard (3.5-12.0)")
	scores := fs.String("score", "", "score range LOW-HIGH (like 4.0-6.0) or one score, instead of --difficulty")
	symName := fs.String("symmetry", "none", "clue pattern symmetry: none, rot180, rot90, mirror, diagonal or random")
	sym180 := fs.Bool("symmetric", false, "same as --symmetry rot180")
	n := fs.Int("count", 1, "number of puzzles")
	seed := fs.Uint64("seed", 0, "random seed; the same seed and flags give the same puzzles (0: pick one and report it)")
	first := fs.Int("first", 0, "index of the first puzzle (to continue a run)")
	maxTries := fs.Int("max-tries", generate.DefaultMaxTries, "give up on a puzzle after this many solution grids tried (0: never)")
	stats := fs.Bool("stats", false, "print the run's figures on stderr at the end: time, puzzles/s, tries, clues, scores")
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if !c.check(e) {
		return cli.ExitUsage
	}
	if len(pos) > 0 {
		e.Errorf("generate takes no arguments, got %q", pos[0])
		return cli.ExitUsage
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	opt := generate.Options{MaxTries: *maxTries}
	if set["score"] {
		if set["difficulty"] {
			e.Errorf("--score and --difficulty both ask for a difficulty: give one")
			return cli.ExitUsage
		}
		if opt.MinScore, opt.MaxScore, err = generate.ParseScores(*scores); err != nil {
			e.Errorf("%v", err)
			return cli.ExitUsage
		}
	} else if opt.Level, err = sudoku.ParseLevel(*level); err != nil {
		e.Errorf("%v", err)
		return cli.ExitUsage
	}
	if opt.Symmetry, err = generate.ParseSymmetry(*symName); err != nil {
		e.Errorf("%v", err)
		return cli.ExitUsage
	}
	if *sym180 {
		if set["symmetry"] && opt.Symmetry != generate.Rot180 {
			e.Errorf("--symmetric means --symmetry rot180, not %s", opt.Symmetry)
			return cli.ExitUsage
		}
		opt.Symmetry = generate.Rot180
	}
	if *n < 0 || *first < 0 || *maxTries < 0 {
		e.Errorf("--count, --first and --max-tries must be 0 or more")
		return cli.ExitUsage
	}
	if _, _, err := opt.Scores(); err != nil {
		e.Errorf("%v", err)
		return cli.ExitUsage
	}
	if *seed == 0 {
		*seed = uint64(time.Now().UnixNano())
		e.Errorf("note: --seed %d reproduces this run", *seed)
	}
	opt.Seed = *seed
	o := newOut(e, c.format)
	defer o.flush()
	var st generate.Stats
	start := time.Now()
	err = generate.Run(ctx, opt, *first, *n, c.workers, func(g generate.Puzzle) error {
		st.Add(g)
		js := generateJSON{Puzzle: g.Puzzle.String(), Solution: g.Solution.String(), Solutions: 1, Score: g.Score, Level: g.Level.String(),
			Clues: g.Puzzle.Clues(), Symmetry: g.Symmetry.String(), Symmetric: g.Symmetry != generate.None, Seed: *seed, Index: g.Index, Tries: g.Tries}
		o.record(g.Puzzle, fmt.Sprintf("seed %d index %d: %s %.1f, %d clues, symmetry %s", *seed, g.Index, g.Level, g.Score, g.Puzzle.Clues(), g.Symmetry), "", js)
		return e.OutputErr() // stop generating once nobody reads
	})
	elapsed := time.Since(start)
	if o.flush(); e.OutputErr() != nil {
		return cli.ExitOK // cli reports the error, or ends quietly on a broken pipe
	}
	if *stats {
		printStats(e, &st, elapsed, generate.Workers(c.workers, *n))
	}
	if err != nil {
		var tooMany *generate.TooManyTriesError
		switch {
		case errors.Is(err, context.Canceled):
			e.Errorf("interrupted")
			return cli.ExitInterrupted
		case errors.As(err, &tooMany):
			lo, hi, _ := opt.Scores()
			e.Errorf("puzzle %d: no puzzle scoring %s in %d solution grids (--max-tries): too rare a range to meet at random; widen it, or raise --max-tries (0: never give up)",
				tooMany.Index, scoreRange(lo, hi), tooMany.Tries)
			return cli.ExitFail
		}
		e.Errorf("%v", err)
		return cli.ExitFail
	}
	return cli.ExitOK
}

// scoreRange writes "4.0-6.0", or "11.9" for a range of one score.
func scoreRange(lo, hi float64) string {
	if lo == hi {
		return fmt.Sprintf("%.1f", lo)
	}
	return fmt.Sprintf("%.1f-%.1f", lo, hi)
}

// printStats writes a run's figures on stderr.
func printStats(e *cli.Env, st *generate.Stats, elapsed time.Duration, workers int) {
	if st.Puzzles == 0 {
		e.Errorf("stats: no puzzle in %.2f s", elapsed.Seconds())
		return
	}
	p := float64(st.Puzzles)
	e.Errorf("stats: %d %s in %.2f s on %d %s: %.1f puzzles/s, %.1f grids tried a puzzle, %.1f clues a puzzle",
		st.Puzzles, cli.Plural(st.Puzzles, "puzzle", "puzzles"), elapsed.Seconds(), workers, cli.Plural(workers, "worker", "workers"),
		p/elapsed.Seconds(), float64(st.Tries)/p, float64(st.Clues)/p)
	var parts []string
	for t, k := range st.ByScore {
		if k > 0 {
			parts = append(parts, fmt.Sprintf("%.1f x%d", float64(t)/10, k))
		}
	}
	e.Errorf("stats: scores %s", strings.Join(parts, ", "))
}
