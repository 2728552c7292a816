package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/job"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "verify", Summary: "recount n = 1..N and compare with the OEIS tables", Run: runVerify})
}

func runVerify(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "verify", "[--max N] [flags]",
		fmt.Sprintf("Recounts n = 1 to N (at most %d) and compares each total and unique count with\n"+
			"OEIS A000170 and A002562.", queens.MaxKnown))
	var (
		maxN int
		ef   engineFlags
	)
	fs.IntVar(&maxN, "max", 14, fmt.Sprintf("largest n to recount, 1 to %d", queens.MaxKnown))
	ef.add(fs)
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if len(pos) != 0 {
		e.Errorf("verify takes no arguments (did you mean --max %s?)", pos[0])
		return cli.ExitUsage
	}
	if maxN < 1 || maxN > queens.MaxKnown {
		e.Errorf("--max %d is out of range: choose 1 to %d (no value is known beyond)", maxN, queens.MaxKnown)
		return cli.ExitUsage
	}
	if !ef.check(e) {
		return cli.ExitUsage
	}
	bad := 0
	for n := 1; n <= maxN; n++ {
		res, err := countWhole(ctx, queens.Spec{N: n, Method: ef.method}, ef.exec)
		if err != nil {
			if errors.Is(err, context.Canceled) {
				e.Errorf("interrupted at n = %d", n)
				return cli.ExitInterrupted
			}
			e.Errorf("n = %d: %v", n, err)
			return cli.ExitFail
		}
		k, _ := queens.Known(n)
		ku, _ := queens.KnownUnique(n)
		ok := res.Total.Cmp(count.U128(k)) == 0 && res.Unique.Cmp(count.U128(ku)) == 0
		status := "ok"
		if !ok {
			status = fmt.Sprintf("MISMATCH: expected %d total, %d unique", k, ku)
			bad++
		}
		fmt.Fprintf(e.Stdout, "n = %2d  total %20s  unique %19s  %8.3f s  %s\n", n, res.Total, res.Unique, res.Seconds, status)
		if e.OutputErr() != nil {
			return cli.ExitOK // nobody reads on: stop (cli reports the error)
		}
	}
	if bad > 0 {
		e.Errorf("%d of %d counts disagree with the OEIS", bad, maxN)
		return cli.ExitFail
	}
	if maxN == 1 {
		fmt.Fprintln(e.Stdout, "the count matches OEIS A000170 and A002562")
	} else {
		fmt.Fprintf(e.Stdout, "all %d counts match OEIS A000170 and A002562\n", maxN)
	}
	return cli.ExitOK
}

// countWhole counts the whole plan of s as e says, through the job as
// count does, with the unique count.
func countWhole(ctx context.Context, s queens.Spec, e queens.Execution) (*job.Outcome, error) {
	j, err := job.OpenContext(ctx, job.Config{Spec: s, Execution: e, Unique: true})
	if err != nil {
		return nil, err
	}
	return j.Run(ctx)
}
