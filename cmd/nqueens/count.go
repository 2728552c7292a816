package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	register(&command{Name: "count", Summary: "count the solutions for an n×n board", Run: runCount})
}

// countReport is the --json output of count. Totals are JSON numbers with
// every digit exact; read them as big integers, not float64.
type countReport struct {
	queens.Result
	Known        *uint64  `json:"known,omitempty"`
	KnownUnique  *uint64  `json:"known_unique,omitempty"`
	Matches      *bool    `json:"matches_known,omitempty"`
	NodesPerSec  float64  `json:"nodes_per_second"`
	ResumedTasks int      `json:"resumed_tasks"`
	Shard        string   `json:"shard,omitempty"`
	Warnings     []string `json:"warnings,omitempty"`
}

func runCount(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "count", "N [flags]",
		fmt.Sprintf("Counts the solutions of the n-queens problem on an N×N board exactly, N from 1 to %d,\n"+
			"and compares the total with OEIS A000170 where it is known (N up to %d).", queens.MaxN, queens.MaxKnown))
	var (
		opt     queens.Options
		ef      engineFlags
		jsonOut bool
		verbose bool
		lo      longOptions
	)
	ef.add(fs, &opt)
	fs.IntVar(&opt.Depth, "depth", 0, fmt.Sprintf("split depth, 1 to %d (0: automatic)", queens.MaxDepth))
	fs.BoolVar(&opt.Unique, "unique", false, "also count solutions up to rotation and reflection (A002562)")
	fs.BoolVar(&jsonOut, "json", false, "print the result as one JSON object")
	fs.BoolVar(&verbose, "v", false, "describe the CPU and the kernel chosen on stderr")
	fs.StringVar(&lo.checkpoint, "checkpoint", "", "record finished tasks in `FILE`; rerunning the same command resumes from it")
	fs.StringVar(&lo.progress, "progress", "auto", "progress on stderr: auto (a live line on a terminal, else a line every --progress-every on long runs), on or off")
	fs.DurationVar(&lo.every, "progress-every", 10*time.Second, "interval of the progress lines when stderr is not a terminal")
	fs.StringVar(&lo.shard, "shard", "", "count only shard `I/K` (I from 0 to K-1), or 'env' to read it from SLURM_ARRAY_TASK_ID/COUNT/MIN or JOB_COMPLETION_INDEX")
	fs.IntVar(&lo.shards, "shards", 0, "number of shards K, with --shard env when the environment does not say (Kubernetes)")
	fs.StringVar(&lo.out, "out", "", "with --shard: write the shard's result to `FILE`, for 'nqueens merge'")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		e.Errorf("count takes one board size, got %d arguments (usage: nqueens count N)", len(pos))
		return exitUsage
	}
	n, err := parseN(pos[0], 1, queens.MaxN)
	if err != nil {
		e.Errorf("%v", err)
		return exitUsage
	}
	if !ef.check(e) {
		return exitUsage
	}
	if err := lo.check(os.Getenv); err != nil {
		e.Errorf("%v", err)
		return exitUsage
	}
	if verbose {
		describeCPU(e.Stderr)
	}
	lo.args = args
	return countLong(ctx, e, n, opt, lo, jsonOut)
}

// report adds the known values and derived figures to a result.
func report(res queens.Result) countReport {
	rep := countReport{Result: res}
	if res.Seconds > 0 {
		nodes, _ := res.Nodes.Big().Float64()
		rep.NodesPerSec = nodes / res.Seconds
	}
	if k, ok := queens.Known(res.N); ok {
		rep.Known = &k
		m := res.Total.Cmp(count.U128(k)) == 0
		if ku, ok := queens.KnownUnique(res.N); ok && res.Unique != nil {
			rep.KnownUnique = &ku
			m = m && res.Unique.Cmp(count.U128(ku)) == 0
		}
		rep.Matches = &m
	}
	return rep
}

func printHuman(e *env, r countReport) {
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
	fmt.Fprintf(w, "time %.3f s, %d %s, %d %s (%s, depth %d), kernel %s, %s nodes/s\n",
		r.Seconds, r.Workers, cli.Plural(r.Workers, "worker", "workers"), r.Tasks, cli.Plural(r.Tasks, "task", "tasks"),
		r.Method, r.Depth, r.Kernel, humanRate(r.NodesPerSec))
}

// solutionsWord is "solution" for a total of 1, else "solutions".
func solutionsWord(total count.Uint128) string {
	if total.Cmp(count.U128(1)) == 0 {
		return "solution"
	}
	return "solutions"
}

func humanRate(v float64) string {
	switch {
	case v >= 1e9:
		return fmt.Sprintf("%.2f G", v/1e9)
	case v >= 1e6:
		return fmt.Sprintf("%.1f M", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%.1f k", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}
