package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/nqcount/nqcount/bench/suite"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "bench", Summary: "benchmark this machine on 1..P workers (fixed counts, a score)", Run: runBench})
}

func runBench(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "bench", "[--quick] [flags]",
		fmt.Sprintf("Benchmarks this machine: counts\n%s\n(--quick: %s)\n"+
			"on 1, 2, 4, ... P workers and P, %d rounds each, checks every count against\n"+
			"OEIS A000170, and prints nodes/s, speed-up, efficiency and a score comparable\n"+
			"across machines (README.md, \"Benchmarking a machine\"). The join is the method\n"+
			"'nqueens count' uses at these sizes, the constellation backtracker the one it\n"+
			"uses below them. A wrong count exits with status 1.",
			sizesText(suite.FullSizes), sizesText(suite.QuickSizes), suite.DefaultRounds))
	var (
		cfg             suite.Config
		method          string
		jsonOut, csvOut bool
		quiet           bool
	)
	fs.BoolVar(&cfg.Quick, "quick", false, fmt.Sprintf("the quick suite: %s (seconds; default: %s, minutes)", sizesText(suite.QuickSizes), sizesText(suite.FullSizes)))
	fs.StringVar(&method, "method", "auto", "the workloads: auto (both), join or constellations")
	fs.IntVar(&cfg.Workers, "workers", runtime.GOMAXPROCS(0), "P, the largest worker count of the sweep 1, 2, 4, ... P")
	fs.IntVar(&cfg.Rounds, "rounds", suite.DefaultRounds, "times each configuration is counted; the median is reported")
	fs.StringVar(&cfg.Kernel, "kernel", "auto", "kernel to count with, for the workloads whose method's family has it (see 'nqueens cpu'); the others use their fastest")
	fs.BoolVar(&jsonOut, "json", false, "print the report as one JSON object")
	fs.BoolVar(&csvOut, "csv", false, "print one CSV line per configuration")
	fs.BoolVar(&quiet, "q", false, "no progress lines on stderr")
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	switch {
	case len(pos) != 0:
		e.Errorf("bench takes no arguments, got %q (the board sizes are fixed: see --quick)", pos[0])
		return cli.ExitUsage
	case jsonOut && csvOut:
		e.Errorf("--json and --csv: choose one")
		return cli.ExitUsage
	case cfg.Workers < 1 || cfg.Workers > suite.MaxWorkers:
		e.Errorf("--workers %d is out of range: choose 1 to %d", cfg.Workers, suite.MaxWorkers)
		return cli.ExitUsage
	case cfg.Rounds < 1 || cfg.Rounds > 1000:
		e.Errorf("--rounds %d is out of range: choose 1 to 1000", cfg.Rounds)
		return cli.ExitUsage
	}
	switch m := queens.Method(method); m {
	case queens.Auto, queens.Join, queens.Constellations:
		cfg.Method = m
	default:
		e.Errorf("--method %q: choose auto, join or constellations", method)
		return cli.ExitUsage
	}
	if !quiet {
		cfg.OnProgress = func(p suite.Progress) { benchProgress(e.Stderr, e.Prog, p) }
	}
	cfg.Version = strings.TrimPrefix(cli.VersionLine(app.Name), app.Name+" ")
	rep, err := suite.Measure(ctx, cfg)
	switch {
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		e.Errorf("bench interrupted: a partial benchmark has no score, nothing printed")
		return cli.ExitInterrupted
	case errors.Is(err, suite.ErrInvalid):
		e.Errorf("%v", err)
		return cli.ExitUsage
	case err != nil:
		e.Errorf("bench: %v", err)
		return cli.ExitFail
	}
	return printBench(e, rep, jsonOut, csvOut)
}

// printBench writes the report in the chosen format and returns the exit
// code: a count that disagrees with the OEIS fails the benchmark.
func printBench(e *cli.Env, rep *suite.Report, jsonOut, csvOut bool) int {
	var err error
	switch {
	case jsonOut:
		err = rep.WriteJSON(e.Stdout)
	case csvOut:
		err = rep.WriteCSV(e.Stdout)
	default:
		err = rep.WriteText(e.Stdout)
	}
	if err != nil && e.OutputErr() == nil {
		e.Errorf("writing the report: %v", err)
		return cli.ExitFail
	}
	if bad := rep.Mismatches(); len(bad) > 0 {
		for _, x := range bad {
			e.Errorf("MISMATCH: %s n = %d on %d %s counted %s, OEIS A000170 says %d", x.Method, x.N, x.Workers, plural(x.Workers, "worker"), x.Total, x.Known)
		}
		return cli.ExitFail
	}
	return cli.ExitOK
}

// benchProgress prints a progress line, named like every line on stderr
// ("nqueens bench: ...").
func benchProgress(w io.Writer, prog string, p suite.Progress) {
	if p.WarmUp {
		fmt.Fprintf(w, "%s bench: warm-up, %s n = %d on %d workers (untimed); then %d timed counts\n", prog, p.Method, p.N, p.Workers, p.Total)
		return
	}
	check := "ok"
	if !p.Matches {
		check = "MISMATCH with OEIS A000170"
	}
	fmt.Fprintf(w, "%s bench: [%d/%d] round %d, %s n = %d, %d %s: %.4f s, %s\n", prog, p.Done, p.Total, p.Round, p.Method, p.N, p.Workers, plural(p.Workers, "worker"), p.Seconds, check)
}

func plural(k int, word string) string {
	if k == 1 {
		return word
	}
	return word + "s"
}

func ints(xs []int) string {
	s := ""
	for i, x := range xs {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(x)
	}
	return s
}

// sizesText names the sizes of each workload: "join n = 16, 17 and
// constellations n = 15, 16".
func sizesText(sizes map[queens.Method][]int) string {
	var parts []string
	for _, m := range suite.Methods {
		parts = append(parts, fmt.Sprintf("%s n = %s", m, ints(sizes[m])))
	}
	return strings.Join(parts, " and ")
}
