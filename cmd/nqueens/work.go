package main

import (
	"context"
	"errors"
	"runtime"

	"github.com/nqcount/nqcount/count/queens/queue"
)

func init() {
	register(&command{Name: "work", Summary: "count tasks from the work queue until stopped (or idle)", Run: runWork})
}

func runWork(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "work", "--server URL [flags]")
	var (
		sf  serverFlags
		cfg queue.WorkerConfig
	)
	sf.add(fs)
	fs.IntVar(&cfg.Workers, "workers", runtime.GOMAXPROCS(0), "number of tasks counted at once")
	fs.StringVar(&cfg.Kernel, "kernel", "auto", "kernel to count with (see 'nqueens cpu')")
	fs.StringVar(&cfg.ID, "id", "", "this worker's name in results and status (default: host-pid-random)")
	fs.BoolVar(&cfg.ExitWhenIdle, "exit-when-idle", false, "stop once no task is left to hand out nor held by any worker")
	fs.BoolVar(&cfg.Finish, "finish", false, "on Ctrl-C, finish and publish the tasks held instead of handing them back")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 0 {
		e.Errorf("work takes no arguments, got %q (usage: nqueens work --server URL)", pos)
		return exitUsage
	}
	if cfg.Workers < 1 {
		e.Errorf("--workers %d: need at least 1", cfg.Workers)
		return exitUsage
	}
	c, code := sf.connect(ctx, e, "work", true)
	if c == nil {
		return code
	}
	defer c.Close()
	cfg.Program = programVersion()
	cfg.Logf = func(format string, args ...any) { e.Errorf(format, args...) }
	st, err := c.Work(ctx, cfg)
	if st != nil {
		e.Errorf("worker %s: %d tasks counted, %d verified, %d found done, %d handed back, %d failed, %d refused",
			st.ID, st.Counted, st.Verified, st.Skipped, st.Returned, st.Failed, st.Refused)
		if st.Rescued > 0 {
			e.Errorf("%d verify tasks taken over from workers that were gone", st.Rescued)
		}
		if st.Abandoned > 0 {
			e.Errorf("%d tasks stopped making progress and were abandoned (the server hands them to another worker)", st.Abandoned)
		}
		if st.MineToVerify > 0 {
			e.Errorf("unverified: no second worker: %d verify tasks wait for another worker (this one counted them)", st.MineToVerify)
		}
	}
	switch {
	case errors.Is(err, context.Canceled):
		return exitInterrupted
	case err != nil:
		e.Errorf("%v", err)
		return errExit(err)
	}
	return exitOK
}
