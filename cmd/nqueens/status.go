package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "status", Summary: "show a queued job's progress, workers, problems and, when complete, its total", Run: runStatus})
}

func runStatus(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "status", "JOB --server URL [flags]")
	var (
		sf      serverFlags
		jsonOut bool
	)
	sf.add(fs)
	fs.BoolVar(&jsonOut, "json", false, "print the status as one JSON object")
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	id, ok := oneJob(e, "status", pos)
	if !ok {
		return cli.ExitUsage
	}
	ctx, cancelOp := sf.op(ctx)
	defer cancelOp()
	c, code := sf.connect(ctx, e, "status", false)
	if c == nil {
		return code
	}
	defer c.Close()
	s, err := c.Status(ctx, id)
	if err != nil {
		e.Errorf("%v", err)
		return cli.ExitFail
	}
	if jsonOut {
		err = json.NewEncoder(e.Stdout).Encode(s)
	} else {
		err = printStatus(e.Stdout, s)
	}
	if err != nil {
		e.Errorf("writing result: %v", err)
		return cli.ExitFail
	}
	return statusExit(e, s)
}

// statusExit says loudly what is wrong with a job: conflicts and a total
// that disagrees with the OEIS fail (exit 1).
func statusExit(e *cli.Env, s *client.Status) int {
	if len(s.Conflicts) > 0 {
		e.Errorf("CONFLICT: %d tasks have different results from different workers: a worker is wrong, so no total is given until a third worker's recount settles them by majority (see the conflicts in --json)", len(s.Conflicts))
		return cli.ExitFail
	}
	if s.Mismatch() {
		e.Errorf("the total disagrees with the OEIS: a worker's results are wrong (results from %d workers; submit the job again with --verify 100, or count it on a machine you trust, to find which)", s.Contributors)
		return cli.ExitFail
	}
	return cli.ExitOK
}

func printStatus(w io.Writer, s *client.Status) error {
	var err error
	p := func(format string, args ...any) {
		if err == nil {
			_, err = fmt.Fprintf(w, format, args...)
		}
	}
	p("job %s: n = %d, %s, depth %d", s.Job, s.N, s.Method, s.Depth)
	if s.Units > 0 {
		p(", the plan's %d tasks in %d units", s.PlanTasks, s.Tasks)
	}
	p("\n")
	p("%s%s\n", client.Summary(s), timing(s))
	stopped := len(s.Workers) - s.Active
	p("workers: %d active, %d on this job", s.Active, s.Working)
	if stopped > 0 {
		p(", %d stopped or silent", stopped)
	}
	p("; results from %d\n", s.Contributors)
	if s.Verify.Stalled > 0 {
		p("unverified: no second worker: %d tasks chosen for verification wait for a worker other than the one that counted them; start another 'nqueens work'\n", s.Verify.Stalled)
	}
	for _, c := range s.Conflicts {
		p("CONFLICT task %d:", c.Task)
		for _, r := range c.Results {
			p(" %s %s says %d (%d nodes);", r.Kind, queue.Printable(r.Worker), r.Count, r.Nodes)
		}
		p("\n")
	}
	for _, w := range s.Workers {
		if w.SetAside != "" {
			p("worker %s set itself aside: %s\n", queue.Printable(w.ID), queue.Printable(w.SetAside))
		}
	}
	for _, d := range s.Distrusted {
		p("DISTRUSTED worker %s: outvoted on task %d (it says %d, %s say %d): its results are left out and counted again by others\n", queue.Printable(d.Worker), d.Task, d.Count, queue.Printable(strings.Join(d.Agree, ", ")), d.Majority)
	}
	for _, g := range groupFailures(s.Failed) {
		aside := "retrying"
		if g.setAside {
			aside = "set aside"
		}
		if len(g.tasks) == 1 {
			p("failed task %d (%s, delivery %d, %s): %s\n", g.tasks[0], queue.Printable(g.worker), g.delivery, aside, queue.Printable(g.cause))
			continue
		}
		p("%d tasks failed (%s; %s): %s: tasks %s\n", len(g.tasks), aside, g.workers(), queue.Printable(g.cause), taskList(g.tasks, 10))
	}
	for _, r := range s.Refused {
		p("refused a record of task %d from %s: %s\n", r.Task, queue.Printable(r.Worker), queue.Printable(r.Reason))
	}
	if s.Complete {
		check := " (no published value to compare with)"
		if s.Matches != nil {
			check = " (matches OEIS A000170)"
			if !*s.Matches {
				check = fmt.Sprintf(" (MISMATCH: OEIS A000170 says %d)", *s.Known)
			}
		}
		p("complete: n = %d: %s solutions%s; unique up to symmetry: %s\n", s.N, s.Total, check, s.Unique)
	}
	return err
}

// timing is ", time 1.234 s, 915.7 k nodes/s" for a job done, and
// ", running 1m12s, 1.20 G nodes/s now, ETA 3m12s" while it runs.
func timing(s *client.Status) string {
	if s.Started == nil {
		return ""
	}
	if s.Finished != nil {
		return fmt.Sprintf(", time %s, %s nodes/s", seconds(s.Elapsed), cli.Rate(s.NodesPerSec))
	}
	t := fmt.Sprintf(", running %s", seconds(s.Elapsed))
	if s.NodesPerSec > 0 {
		t += fmt.Sprintf(", %s nodes/s now", cli.Rate(s.NodesPerSec))
	}
	if s.ETA != nil && *s.ETA > 0 {
		t += ", ETA " + seconds(*s.ETA)
	}
	return t
}

// seconds is "0.438 s" under a minute, "1h2m3s" above.
func seconds(x float64) string {
	if x < 60 {
		return fmt.Sprintf("%.3f s", x)
	}
	return (time.Duration(x) * time.Second).Round(time.Second).String()
}

// failureGroup is the failed tasks of one cause: the same error, set
// aside or not.
type failureGroup struct {
	cause     string
	setAside  bool
	tasks     []int
	worker    string // the first task's
	delivery  uint64 // the first task's
	byWorker  map[string]bool
	workerIDs []string
}

func (g *failureGroup) workers() string {
	if len(g.workerIDs) == 1 {
		return "worker " + queue.Printable(g.workerIDs[0])
	}
	return fmt.Sprintf("%d workers", len(g.workerIDs))
}

// groupFailures groups failures by cause, in the order of their first
// task: 48 tasks refused the same way are one line, not 48.
func groupFailures(fs []queue.Failure) []*failureGroup {
	var out []*failureGroup
	index := map[string]*failureGroup{}
	for _, f := range fs {
		key := fmt.Sprintf("%t\x00%s", f.SetAside, f.Error)
		g := index[key]
		if g == nil {
			g = &failureGroup{cause: f.Error, setAside: f.SetAside, worker: f.Worker, delivery: f.Delivery, byWorker: map[string]bool{}}
			index[key] = g
			out = append(out, g)
		}
		g.tasks = append(g.tasks, f.Task)
		if !g.byWorker[f.Worker] {
			g.byWorker[f.Worker] = true
			g.workerIDs = append(g.workerIDs, f.Worker)
		}
	}
	return out
}

// taskList writes up to most task ids, then how many more.
func taskList(ids []int, most int) string {
	var b strings.Builder
	for i, id := range ids {
		if i == most {
			fmt.Fprintf(&b, " and %d more", len(ids)-most)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d", id)
	}
	return b.String()
}
