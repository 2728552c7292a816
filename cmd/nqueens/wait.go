package main

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/nqcount/nqcount/count/queens/job"
	"github.com/nqcount/nqcount/count/queens/queue/client"
)

func init() {
	register(&command{Name: "wait", Summary: "wait for a queued job to complete and print its total as count does", Run: runWait})
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

func runWait(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "wait", "JOB --server URL [flags]")
	var (
		sf      serverFlags
		jsonOut bool
		every   time.Duration
	)
	sf.add(fs)
	fs.BoolVar(&jsonOut, "json", false, "print the result as one JSON object")
	fs.DurationVar(&every, "progress-every", 10*time.Second, "interval of the progress lines on stderr (0: none)")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	id, ok := oneJob(e, "wait", pos)
	if !ok {
		return exitUsage
	}
	c, code := sf.connect(ctx, e, "wait", true)
	if c == nil {
		return code
	}
	defer c.Close()
	return waitJob(ctx, e, c, id, every, jsonOut)
}

// waitJob waits for job id and prints its result (wait, submit --wait).
func waitJob(ctx context.Context, e *env, c *client.Client, id string, every time.Duration, jsonOut bool) int {
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
		return exitInterrupted
	}
	if err != nil {
		e.Errorf("%v", err)
		if (errors.Is(err, client.ErrUnverified) || errors.Is(err, client.ErrFailed) || errors.Is(err, client.ErrNoQuorum)) && !jsonOut {
			if err := printStatus(e.Stdout, s); err != nil {
				e.Errorf("writing result: %v", err)
			}
		}
		return exitFail
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
		return exitFail
	}
	return statusExit(e, s)
}
