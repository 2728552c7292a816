package main

import (
	"context"
	"errors"
	"runtime"
	"time"

	"github.com/nqcount/nqcount/count/queens/queue"
)

func init() {
	register(&command{Name: "work", Summary: "count tasks from the work queue until stopped (or idle)", Run: runWork})
}

func runWork(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "work", "--server URL [flags]")
	var (
		sf     serverFlags
		cfg    queue.WorkerConfig
		memory string
	)
	sf.add(fs)
	fs.IntVar(&cfg.Workers, "workers", runtime.GOMAXPROCS(0), "number of tasks counted at once")
	fs.StringVar(&cfg.Kernel, "kernel", "auto", "kernel to count with (see 'nqueens cpu')")
	fs.StringVar(&cfg.ID, "id", "", "this worker's name in results and status (default: host-pid-random)")
	fs.BoolVar(&cfg.ExitWhenIdle, "exit-when-idle", false, "stop once no task is left to hand out nor held by any worker")
	fs.BoolVar(&cfg.Finish, "finish", false, "on Ctrl-C, finish and publish the tasks held instead of handing them back")
	fs.DurationVar(&cfg.GiveUpAfter, "give-up-after", 5*time.Minute, "with --exit-when-idle: stop (exit 1) once no server has been reachable this long (0: never)")
	fs.StringVar(&memory, "memory", "", "memory this worker's counts may take, e.g. 8GiB (default: as count's, see 'nqueens cpu'); a join job whose tables leave room for fewer tasks is counted fewer at a time")
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
	if memory != "" {
		if cfg.Memory, err = parseBytes(memory); err != nil {
			e.Errorf("--memory: %v", err)
			return exitUsage
		}
	}
	if cfg.GiveUpAfter < 0 {
		e.Errorf("--give-up-after %v: need 0 (never) or more", cfg.GiveUpAfter)
		return exitUsage
	}
	retryFor := time.Duration(0)
	if cfg.ExitWhenIdle {
		retryFor = cfg.GiveUpAfter
	}
	c, code := sf.connectFor(ctx, e, "work", true, retryFor)
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
		if st.Cancelled > 0 {
			e.Errorf("%d tasks of cancelled jobs dropped", st.Cancelled)
		}
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
