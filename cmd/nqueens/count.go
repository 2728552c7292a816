package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/job"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "count", Summary: "count the solutions for an n×n board", Run: runCount})
}

func runCount(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "count", "N [flags]",
		fmt.Sprintf("Counts the solutions of the n-queens problem on an N×N board exactly, N from 1 to %d,\n"+
			"and compares the total with OEIS A000170 where it is known (N up to %d).", queens.MaxN, queens.MaxKnown))
	var (
		ef      engineFlags
		depth   int
		unique  bool
		jsonOut bool
		verbose bool
		lo      longOptions
	)
	ef.add(fs)
	fs.IntVar(&depth, "depth", 0, fmt.Sprintf("split depth, 1 to %d (0: automatic)", queens.MaxDepth))
	fs.BoolVar(&unique, "unique", false, "also count solutions up to rotation and reflection (A002562); not with --shard (use merge --unique)")
	fs.BoolVar(&jsonOut, "json", false, "print the result as one JSON object")
	fs.BoolVar(&verbose, "v", false, "describe the CPU and the kernel chosen on stderr")
	lo.addFlags(fs)
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	n, ok := boardArg(e, pos, "count", "nqueens count N")
	if !ok {
		return cli.ExitUsage
	}
	if !ef.check(e) {
		return cli.ExitUsage
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if err := lo.check(set, unique, os.Getenv); err != nil {
		e.Errorf("%v", err)
		return cli.ExitUsage
	}
	if verbose {
		describeCPU(e.Stderr)
	}
	lo.args = args
	ef.setMemoryLimit()
	cfg := job.Config{Spec: queens.Spec{N: n, Method: ef.method, Depth: depth}, Execution: ef.exec, Unique: unique}
	return countLong(ctx, e, cfg, lo, jsonOut)
}

func printHuman(e *cli.Env, r *job.Outcome) {
	w := e.Stdout
	check := ""
	switch {
	case r.Matches == nil:
		check = " (no published value to compare with)"
	case *r.Matches:
		check = " (matches OEIS A000170)"
	default:
		check = fmt.Sprintf(" (MISMATCH: OEIS A000170 says %d)", *r.Known)
	}
	fmt.Fprintf(w, "n = %d: %s %s%s\n", r.N, r.Total, solutionsWord(r.Total), check)
	if r.Unique != nil {
		fmt.Fprintf(w, "unique up to symmetry: %s", r.Unique)
		if r.KnownUnique != nil {
			fmt.Fprintf(w, " (OEIS A002562: %d)", *r.KnownUnique)
		}
		fmt.Fprintln(w)
	}
	path := ""
	if r.Path != "" {
		path = ", " + r.Path + " path"
	}
	fmt.Fprintf(w, "time %.3f s, %d %s, %d %s (%s, depth %d%s), kernel %s, %s nodes/s\n",
		r.Seconds, r.Workers, cli.Plural(r.Workers, "worker", "workers"), r.Tasks, cli.Plural(r.Tasks, "task", "tasks"),
		r.Method, r.Depth, path, r.Kernel, cli.Rate(r.NodesPerSec))
	if m := r.Metered; m != nil && m.PriceRuns > 0 {
		fmt.Fprintf(w, "this run's work at the prices of its %d reference %s: %.3f core-hours at the least (as nqueens estimate prices it), %.3f at the median\n",
			m.PriceRuns, cli.Plural(m.PriceRuns, "run", "runs"), m.LeastSeconds/3600, m.MedianSeconds/3600)
	}
}

// solutionsWord is "solution" for a total of 1, else "solutions".
func solutionsWord(total count.Uint128) string {
	if total.Cmp(count.U128(1)) == 0 {
		return "solution"
	}
	return "solutions"
}
