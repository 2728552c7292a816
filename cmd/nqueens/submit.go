package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "submit", Summary: "put a count on the work queue as a job; prints its id", Run: runSubmit})
}

// maxUnits bounds --units: more units than that is one task each for any
// plan (and the plan's estimates are summed in 64 bits).
const maxUnits = 1 << 24

func runSubmit(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "submit", "N --server URL [flags]")
	var (
		sf      serverFlags
		method  string
		depth   int
		opt     client.SubmitOptions
		jsonOut bool
		units   string
		wait    bool
		every   time.Duration
		memory  string
	)
	sf.add(fs)
	fs.StringVar(&method, "method", string(queens.Auto), "counting method: auto (the fastest for N, as count picks it), constellations, halving or join (each worker uses its fastest kernel of the method)")
	fs.StringVar(&units, "units", "auto", "group the tasks into about `U` units of full size, one message each (auto: by N; off: one message per task)")
	fs.IntVar(&depth, "depth", 0, fmt.Sprintf("split depth, 1 to %d (0: automatic)", queens.MaxDepth))
	fs.StringVar(&memory, "memory", "", "memory each worker has for a join job's tables and lists, e.g. 8GiB (default: as count's, this machine's; see 'nqueens cpu'): with the automatic depth it picks a cut that fits")
	fs.Float64Var(&opt.Verify, "verify", 0, "count this `PERCENT` of the tasks (chosen at random) a second time on another worker")
	fs.Uint64Var(&opt.Seed, "seed", 0, "seed that chooses the tasks to verify (0: random; printed)")
	fs.BoolVar(&jsonOut, "json", false, `print {"job": ..., "tasks": ...} as JSON (with --wait: what wait --json prints)`)
	fs.BoolVar(&wait, "wait", false, "then wait for the job to complete and print its total, as wait does (the job id goes to stderr)")
	fs.DurationVar(&every, "progress-every", 10*time.Second, "with --wait: interval of the progress lines on stderr (0: none)")
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	n, ok := boardArg(e, pos, "submit", "nqueens submit N --server URL")
	if !ok {
		return cli.ExitUsage
	}
	m, err := queens.ParseMethod(method)
	if err != nil {
		e.Errorf("--method: %v", err)
		return cli.ExitUsage
	}
	switch units {
	case "auto":
	case "off", "0":
		opt.Units = -1
	default:
		u, err := strconv.Atoi(units)
		if err != nil || u < 1 || u > maxUnits {
			e.Errorf("--units %q: give auto, off or a number of units from 1 to %d", units, maxUnits)
			return cli.ExitUsage
		}
		opt.Units = u
	}
	if opt.Verify < 0 || opt.Verify > 100 {
		e.Errorf("--verify %g: choose a percentage from 0 to 100", opt.Verify)
		return cli.ExitUsage
	}
	var workerMemory uint64
	if memory != "" {
		if workerMemory, err = parseBytes(memory); err != nil {
			e.Errorf("--memory: %v", err)
			return cli.ExitUsage
		}
	}
	plan, err := queens.NewPlan(queens.Spec{N: n, Method: m, Depth: depth})
	if err != nil {
		e.Errorf("%v", err)
		return errExit(err)
	}
	// A job no worker with that memory could count is refused now, not
	// by every worker that takes it.
	if _, err := plan.Fit(queens.Execution{Workers: 1, Memory: workerMemory}); err != nil {
		e.Errorf("--memory: %v", err)
		return errExit(queens.Usage(err))
	}
	// The submit is bounded by --timeout; a wait after it is not (its
	// outages are).
	octx, cancelOp := sf.op(ctx)
	defer cancelOp()
	c, code := sf.connect(octx, e, "submit", false)
	if c == nil {
		return code
	}
	defer c.Close()
	opt.Program = programVersion()
	sub, err := c.SubmitPlan(octx, plan, opt)
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
	if wait {
		e.Errorf("job %s: %d tasks (%d added); waiting for it", sub.Job, sub.Tasks, sub.Added)
		return waitJob(ctx, e, c, sub.Job, every, jsonOut)
	}
	if jsonOut {
		if err := json.NewEncoder(e.Stdout).Encode(sub); err != nil {
			e.Errorf("writing result: %v", err)
			return cli.ExitFail
		}
		return cli.ExitOK
	}
	if _, err := fmt.Fprintln(e.Stdout, sub.Job); err != nil {
		e.Errorf("writing result: %v", err)
		return cli.ExitFail
	}
	grouped := ""
	if sub.Info.Units > 0 {
		grouped = fmt.Sprintf(", units of the plan's %d", sub.Info.PlanTasks)
	}
	e.Errorf("%d tasks%s (%d added); follow with 'nqueens status %s', or 'nqueens wait %s'", sub.Tasks, grouped, sub.Added, sub.Job, sub.Job)
	return cli.ExitOK
}
