package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqcount/nqcount/count/queens/solutions"
	"github.com/nqcount/nqcount/internal/cli"
)

// maxSolve is the largest board 'solve' answers: 10 million queens take a
// few hundred megabytes at most and about a second.
const maxSolve = 10_000_000

func init() {
	app.Register(&cli.Command{
		Name:    "solve",
		Summary: "print one solution: the first by search for small n, constructed in O(n) for large n",
		Run:     runSolve,
	})
}

func runSolve(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "solve", "N [--method auto|search|construct] [--format F] [--ascii] [--svg FILE] [--trace]",
		fmt.Sprintf("Prints one solution for an N×N board, N from 1 to %d.", maxSolve))
	var o showFlags
	o.add(fs, string(solutions.Cols))
	methodName := fs.String("method", "auto", fmt.Sprintf("`method`: search (the lexicographically first solution, n <= %d), construct (O(n)), or auto (search for n <= %d, within the node limit, else construct)", solutions.MaxN, solutions.AutoSearchMax))
	maxNodes := fs.Uint64("max-nodes", 0, fmt.Sprintf("give a search up after this many placed queens (0: %d for auto, no limit for search)", solutions.DefaultNodeLimit))
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if len(pos) != 1 {
		e.Errorf("solve takes one board size, e.g. 'nqueens solve 8' (got %d arguments)", len(pos))
		return cli.ExitUsage
	}
	n, err := parseN(pos[0], 1, maxSolve)
	if err != nil {
		e.Errorf("%v", err)
		return cli.ExitUsage
	}
	format, err := o.check(n)
	if err != nil {
		e.Errorf("%v", err)
		return cli.ExitUsage
	}
	method, err := solutions.ParseMethod(*methodName)
	if err != nil {
		e.Errorf("%v", err)
		return cli.ExitUsage
	}
	if method == solutions.BySearch && n > solutions.MaxN {
		e.Errorf("--method search handles n up to %d; use --method construct (or auto) for n = %d", solutions.MaxN, n)
		return cli.ExitUsage
	}
	if o.trace && (method == solutions.ByConstruction || method == solutions.Auto && n > solutions.AutoSearchMax) {
		e.Errorf("--trace shows a backtracking search: the construction has none; use --method search (n <= %d)", solutions.MaxN)
		return cli.ExitUsage
	}
	var cols []int
	if o.trace {
		cols, err = traceSolve(ctx, e, n, method, *maxNodes, o.traceLimit)
	} else {
		cols, _, err = solutions.Solve(ctx, n, method, *maxNodes)
	}
	switch {
	case errors.Is(err, solutions.ErrNoSolution):
		if format == solutions.JSON {
			fmt.Fprintf(e.Stdout, "{\"n\":%d,\"cols\":null}\n", n)
		} else {
			fmt.Fprintf(e.Stdout, "no solution for n = %d\n", n)
		}
		return cli.ExitFail
	case errors.Is(err, solutions.ErrNodeLimit):
		e.Errorf("the search gave up after %d placed queens; raise --max-nodes or use --method construct", *maxNodes)
		return cli.ExitFail
	case ctx.Err() != nil:
		e.Errorf("interrupted")
		return cli.ExitInterrupted
	case err != nil:
		e.Errorf("%v", err)
		return cli.ExitFail
	}
	if o.svg != "" {
		if err := writeSVG(o.svg, cols); err != nil {
			e.Errorf("writing %s: %v", o.svg, err)
			return cli.ExitFail
		}
	}
	p := solutions.NewPrinter(e.Stdout, format, o.ascii)
	if err := p.Print(cols); err != nil {
		return outputExit(e, err)
	}
	if err := p.Flush(); err != nil {
		return outputExit(e, err)
	}
	return cli.ExitOK
}

// traceSolve runs the search with its trace on stderr. For Auto, a search
// that hits the node limit falls back to the construction, as Solve does.
func traceSolve(ctx context.Context, e *cli.Env, n int, m solutions.Method, maxNodes uint64, traceLimit int) ([]int, error) {
	if maxNodes == 0 && m == solutions.Auto {
		maxNodes = solutions.DefaultNodeLimit
	}
	t := newTracer(e.Stderr, traceLimit)
	var cols []int
	var nodes uint64
	var err error
	terr := solutions.Trace(n, 1, func(ev solutions.Event) bool {
		if ctx.Err() != nil {
			err = ctx.Err()
			return false
		}
		t.line(ev.String())
		switch ev.Kind {
		case solutions.Found:
			cols = append([]int(nil), ev.Cols...)
		case solutions.Place:
			if nodes++; nodes == maxNodes {
				err = solutions.ErrNodeLimit
				return false
			}
		}
		return true
	})
	if terr != nil {
		err = terr
	}
	if err == nil && cols == nil {
		err = solutions.ErrNoSolution
	}
	if err == solutions.ErrNodeLimit && m == solutions.Auto {
		t.line(fmt.Sprintf("search gave up after %d placed queens: constructing a solution instead", nodes))
		cols, err = solutions.Construct(n)
	}
	t.close()
	if err != nil {
		return nil, err
	}
	if verr := solutions.Verify(cols); verr != nil {
		return nil, fmt.Errorf("internal error: solution fails verification: %v", verr)
	}
	return cols, nil
}
