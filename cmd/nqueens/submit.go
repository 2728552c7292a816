package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/job"
	"github.com/nqcount/nqcount/count/queue"
)

func init() {
	register(&command{Name: "submit", Summary: "put a count on the work queue as a job; prints its id", Run: runSubmit})
}

func runSubmit(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "submit", "N --server URL [flags]")
	var (
		sf      serverFlags
		method  string
		depth   int
		opt     queue.SubmitOptions
		jsonOut bool
	)
	sf.add(fs)
	fs.StringVar(&method, "method", string(queens.Constellations), "counting method: constellations, halving or join (each worker uses its fastest kernel of the method)")
	fs.IntVar(&depth, "depth", 0, fmt.Sprintf("split depth, 1 to %d (0: automatic)", queens.MaxDepth))
	fs.Float64Var(&opt.Verify, "verify", 0, "count this `PERCENT` of the tasks (chosen at random) a second time on another worker")
	fs.Uint64Var(&opt.Seed, "seed", 0, "seed that chooses the tasks to verify (0: random; printed)")
	fs.BoolVar(&jsonOut, "json", false, `print {"job": ..., "tasks": ...} as JSON`)
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 1 {
		e.Errorf("submit takes one board size, got %d arguments (usage: nqueens submit N --server URL)", len(pos))
		return exitUsage
	}
	n, err := parseN(pos[0], 1, queens.MaxN)
	if err != nil {
		e.Errorf("%v", err)
		return exitUsage
	}
	m, err := queens.ParseMethod(method)
	if err != nil {
		e.Errorf("--method: %v", err)
		return exitUsage
	}
	if opt.Verify < 0 || opt.Verify > 100 {
		e.Errorf("--verify %g: choose a percentage from 0 to 100", opt.Verify)
		return exitUsage
	}
	if _, err := job.NewPlan(job.Spec{N: n, Method: m, Depth: depth}); err != nil {
		e.Errorf("%v", err)
		return errExit(err)
	}
	c, code := sf.connect(ctx, e, "submit", false)
	if c == nil {
		return code
	}
	defer c.Close()
	opt.Program = programVersion()
	sub, err := c.Submit(ctx, job.Spec{N: n, Method: m, Depth: depth}, opt)
	if err != nil {
		e.Errorf("%v", err)
		return errExit(err)
	}
	if !sub.New {
		e.Errorf("job %s was submitted before (%s): nothing added; its options stay", sub.Job, sub.Info.Submitted.Format("2006-01-02 15:04:05 UTC"))
	}
	if sub.Info.Verify > 0 {
		e.Errorf("%d tasks will be counted twice (verify %g%%, seed %d)", sub.VerifyTasks, sub.Info.Verify, sub.Info.Seed)
	}
	if jsonOut {
		if err := json.NewEncoder(e.Stdout).Encode(sub); err != nil {
			e.Errorf("writing result: %v", err)
			return exitFail
		}
		return exitOK
	}
	if _, err := fmt.Fprintln(e.Stdout, sub.Job); err != nil {
		e.Errorf("writing result: %v", err)
		return exitFail
	}
	e.Errorf("%d tasks (%d added); follow with 'nqueens status %s', or 'nqueens wait %s'", sub.Tasks, sub.Added, sub.Job, sub.Job)
	return exitOK
}
