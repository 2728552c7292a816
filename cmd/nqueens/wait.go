package main

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/nqcount/nqcount/count/queens/job"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "wait", Summary: "wait for a queued job to complete and print its total as count does", Run: runWait})
}

// waited is what wait --json prints: count --json's fields (total,
// unique, tasks, nodes, the OEIS check) and the job's.
type waited struct {
	job.Total
	Job         string  `json:"job"`
	Complete    bool    `json:"complete"`
	Seconds     float64 `json:"seconds"`
	NodesPerSec float64 `json:"nodes_per_second"`
	Workers     int     `json:"workers"` // workers with results
	Verified    int     `json:"verified"`
	Duplicates  int     `json:"duplicates"`
	// The plan's tasks and the grouping, for a job counted in units
	// ("tasks" counts the units then).
	PlanTasks int `json:"plan_tasks,omitempty"`
	Units     int `json:"units,omitempty"`
}

func runWait(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "wait", "JOB --server URL [flags]")
	var (
		sf      serverFlags
		jsonOut bool
		every   time.Duration
	)
	sf.add(fs)
	fs.BoolVar(&jsonOut, "json", false, "print the result as one JSON object")
	fs.DurationVar(&every, "progress-every", 10*time.Second, "interval of the progress lines on stderr (0: none)")
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	id, ok := oneJob(e, "wait", pos)
	if !ok {
		return cli.ExitUsage
	}
	c, code := sf.connect(ctx, e, "wait", true)
	if c == nil {
		return code
	}
	defer c.Close()
	return waitJob(ctx, e, c, id, every, jsonOut)
}

// waitJob waits for job id and prints its result (wait, submit --wait).
func waitJob(ctx context.Context, e *cli.Env, c *client.Client, id string, every time.Duration, jsonOut bool) int {
	var progress func(*client.Status)
	if every > 0 {
		progress = func(s *client.Status) {
			e.Errorf("progress: %s", client.Summary(s))
			if len(s.Conflicts) > 0 {
				statusExit(e, s)
			}
		}
	}
	s, err := c.Wait(ctx, id, every, progress)
	if errors.Is(err, context.Canceled) {
		return cli.ExitInterrupted
	}
	if err != nil {
		e.Errorf("%v", err)
		if (errors.Is(err, client.ErrUnverified) || errors.Is(err, client.ErrFailed) || errors.Is(err, client.ErrNoQuorum)) && !jsonOut {
			if err := printStatus(e.Stdout, s); err != nil {
				e.Errorf("writing result: %v", err)
			}
		}
		return cli.ExitFail
	}
	t := s.Assembled()
	out := waited{Total: *t, Job: s.Job, Complete: s.Complete, Seconds: s.Elapsed, NodesPerSec: s.NodesPerSec,
		Workers: s.Contributors, Verified: s.Verify.Verified, Duplicates: s.Duplicates, PlanTasks: s.PlanTasks, Units: s.Units}
	if jsonOut {
		err = json.NewEncoder(e.Stdout).Encode(out)
	} else {
		err = printStatus(e.Stdout, s)
	}
	if err != nil {
		e.Errorf("writing result: %v", err)
		return cli.ExitFail
	}
	return statusExit(e, s)
}
