package main

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/nqcount/nqcount/count/queens/queue/worker"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "work", Summary: "count tasks from the work queue until stopped (or idle)", Run: runWork})
}

func runWork(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "work", "--server URL [flags]")
	var (
		sf     serverFlags
		cfg    worker.Config
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
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if len(pos) != 0 {
		e.Errorf("work takes no arguments, got %q (usage: nqueens work --server URL)", pos)
		return cli.ExitUsage
	}
	if cfg.Workers < 1 {
		e.Errorf("--workers %d: need at least 1", cfg.Workers)
		return cli.ExitUsage
	}
	if memory != "" {
		if cfg.Memory, err = parseBytes(memory); err != nil {
			e.Errorf("--memory: %v", err)
			return cli.ExitUsage
		}
	}
	if cfg.GiveUpAfter < 0 {
		e.Errorf("--give-up-after %v: need 0 (never) or more", cfg.GiveUpAfter)
		return cli.ExitUsage
	}
	retryFor := time.Duration(0)
	if cfg.ExitWhenIdle {
		retryFor = cfg.GiveUpAfter
	}
	log := &workLog{e: e, every: logEvery}
	c, code := sf.connectLog(ctx, e, "work", true, retryFor, log.logf)
	if c == nil {
		return code
	}
	defer c.Close()
	cfg.Program = programVersion()
	cfg.Logf = log.logf
	st, err := worker.Work(ctx, c, cfg)
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
		if st.Unfit > 0 {
			e.Errorf("%d tasks left in the queue that this worker cannot count in its memory (--memory): for a worker with more", st.Unfit)
		}
		if st.MineToVerify > 0 {
			e.Errorf("unverified: no second worker: %d verify tasks wait for another worker (this one counted them)", st.MineToVerify)
		}
	}
	switch {
	case errors.Is(err, context.Canceled):
		return cli.ExitInterrupted
	case err != nil:
		e.Errorf("%v", err)
		return errExit(err)
	}
	return cli.ExitOK
}

// logEvery is how often a worker says a line that repeats.
const logEvery = 10 * time.Second

// workLog writes a worker's log on stderr, each line with the time (UTC),
// and a line that repeats (the same format: a retry, a task refused or
// failing the same way) at most once per every, saying how many were left
// out: a worker that loses its server for an hour writes a few hundred
// lines, not thousands. One lock.
type workLog struct {
	e     *cli.Env
	every time.Duration

	mu   sync.Mutex
	last map[string]time.Time
	left map[string]int
}

func (l *workLog) logf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	key := format
	if format == "%v" || format == "%s" {
		key = msg
	}
	now := time.Now()
	l.mu.Lock()
	if l.last == nil {
		l.last, l.left = map[string]time.Time{}, map[string]int{}
	}
	prev, ok := l.last[key]
	if ok && now.Sub(prev) < l.every {
		l.left[key]++
		l.mu.Unlock()
		return
	}
	n := l.left[key]
	l.last[key], l.left[key] = now, 0
	l.mu.Unlock()
	if n > 0 {
		msg += fmt.Sprintf(" (and %d more like it since %s)", n, prev.UTC().Format("15:04:05"))
	}
	l.e.Errorf("%s %s", now.UTC().Format("2006-01-02T15:04:05Z"), msg)
}
