package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/solutions"
	"github.com/nqcount/nqcount/internal/cli"
)

// maxList is the largest board 'solutions' lists: the counter's range.
const maxList = queens.MaxN

func init() {
	app.Register(&cli.Command{
		Name:    "solutions",
		Summary: "list the solutions (all, --limit K, or --unique), in cols, coords, board or json",
		Run:     runSolutions,
	})
}

func runSolutions(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "solutions", "N [--limit K] [--unique] [--format F] [--ascii] [--svg FILE] [--trace]",
		fmt.Sprintf("Lists the solutions for an N×N board, N from 1 to %d, in lexicographic order.", maxList))
	var o showFlags
	o.add(fs, string(solutions.Cols))
	limit := fs.Int("limit", 0, "list at most `K` solutions (0: all)")
	unique := fs.Bool("unique", false, "list one solution per symmetry class: the lexicographically smallest of its 8 images")
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if len(pos) != 1 {
		e.Errorf("solutions takes one board size, e.g. 'nqueens solutions 8' (got %d arguments)", len(pos))
		return cli.ExitUsage
	}
	n, err := parseN(pos[0], 1, maxList)
	if err != nil {
		if big, aerr := strconv.Atoi(strings.TrimSpace(pos[0])); aerr == nil && big > maxList {
			e.Errorf("solutions lists boards up to n = %d (the counter's range; there are far too many beyond); use 'nqueens solve %d' for one solution", maxList, big)
		} else {
			e.Errorf("%v", err)
		}
		return cli.ExitUsage
	}
	format, err := o.check(n)
	if err != nil {
		e.Errorf("%v", err)
		return cli.ExitUsage
	}
	switch {
	case *limit < 0:
		e.Errorf("--limit must be 0 (all) or more, not %d", *limit)
		return cli.ExitUsage
	case o.trace && *limit == 0:
		e.Errorf("--trace needs --limit K: the trace of a whole enumeration is far too long")
		return cli.ExitUsage
	case o.trace && *unique:
		e.Errorf("--trace shows the plain search; it cannot be combined with --unique")
		return cli.ExitUsage
	}
	if *limit == 0 && n >= 18 {
		warnHuge(e, n, *unique)
	}
	p := solutions.NewPrinter(e.Stdout, format, o.ascii)
	svgDone := false
	emit := func(cols []int) error {
		if o.svg != "" && !svgDone {
			svgDone = true
			if err := writeSVG(o.svg, cols); err != nil {
				return svgError{err}
			}
		}
		return p.Print(cols)
	}

	var stopped bool
	if o.trace {
		stopped, err = traceSolutions(ctx, e, n, *limit, o.traceLimit, p, emit)
	} else {
		stopped, err = listSolutions(ctx, n, *limit, *unique, emit)
	}
	if err == nil {
		err = p.Flush()
	}
	if se, ok := err.(svgError); ok {
		p.Flush()
		e.Errorf("writing %s: %v", o.svg, se.err)
		return cli.ExitFail
	}
	if err != nil {
		return outputExit(e, err)
	}
	if stopped {
		e.Errorf("interrupted after %d %s", p.Count(), cli.Plural(p.Count(), "solution", "solutions"))
		return cli.ExitInterrupted
	}
	if o.svg != "" && !svgDone {
		e.Errorf("n = %d has no solution: nothing drawn in %s", n, o.svg)
		return cli.ExitFail
	}
	return cli.ExitOK
}

// svgError marks a failure to write the --svg file, which is not an
// output error.
type svgError struct{ err error }

func (s svgError) Error() string { return s.err.Error() }

// listSolutions streams the solutions to emit; stopped reports an
// interruption.
func listSolutions(ctx context.Context, n, limit int, unique bool, emit func([]int) error) (stopped bool, err error) {
	newEnum := solutions.NewEnumerator
	if unique {
		newEnum = solutions.NewUniqueEnumerator
	}
	en, err := newEnum(n)
	if err != nil {
		return false, err
	}
	defer context.AfterFunc(ctx, en.Stop)()
	for k := 0; en.Next(); {
		if err := emit(en.Cols()); err != nil {
			return false, err
		}
		if k++; k == limit {
			return false, nil
		}
	}
	return en.Err() != nil, nil
}

// traceSolutions runs the traced search up to limit solutions: the trace
// on stderr, the solutions through emit.
func traceSolutions(ctx context.Context, e *cli.Env, n, limit, traceLimit int, p *solutions.Printer, emit func([]int) error) (stopped bool, err error) {
	t := newTracer(e.Stderr, traceLimit)
	defer t.close()
	terr := solutions.Trace(n, limit, func(ev solutions.Event) bool {
		if ctx.Err() != nil {
			stopped = true
			return false
		}
		t.line(ev.String())
		if ev.Kind == solutions.Found {
			t.flush()
			if err = emit(ev.Cols); err == nil {
				err = p.Flush()
			}
			return err == nil
		}
		return true
	})
	if err == nil {
		err = terr
	}
	return stopped, err
}

// warnHuge tells the user, on stderr, how long a full listing is.
func warnHuge(e *cli.Env, n int, unique bool) {
	total, ok := queens.Known(n)
	what := "solutions"
	if unique {
		total, ok = queens.KnownUnique(n)
		what = "unique solutions"
	}
	if ok {
		e.Errorf("note: n = %d has %s %s; listing them all takes a long time (use --limit K)", n, groupDigits(total), what)
	} else {
		e.Errorf("note: the number of solutions for n = %d is not known (more than 10^17); listing them all would never end (use --limit K)", n)
	}
}

// groupDigits writes x with thousands separators.
func groupDigits(x uint64) string {
	s := strconv.FormatUint(x, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
