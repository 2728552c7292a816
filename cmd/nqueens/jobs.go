package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "jobs", Summary: "list the queue's jobs (n, method, done/total, failed, state) and where its streams are kept", Run: runJobs})
	app.Register(&cli.Command{Name: "cancel", Summary: "cancel a queued job: its tasks leave the queue, its results stay (requeue resumes it)", Run: runCancel})
	app.Register(&cli.Command{Name: "requeue", Summary: "put a job's failed tasks back in the queue (saying why they failed), or resume a cancelled job", Run: runRequeue})
	app.Register(&cli.Command{Name: "remove-peer", Summary: "remove a server stopped for good from the cluster's JetStream quorum (operators, on servers with roles)", Run: runRemovePeer})
}

// jobsOut is what jobs --json prints.
type jobsOut struct {
	Jobs    []queue.JobLine      `json:"jobs"`
	Cluster *client.ClusterState `json:"cluster"`
}

func runJobs(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "jobs", "--server URL [flags]")
	var (
		sf      serverFlags
		jsonOut bool
	)
	sf.add(fs)
	fs.BoolVar(&jsonOut, "json", false, "print the jobs and the streams' replicas as one JSON object")
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if len(pos) != 0 {
		e.Errorf("jobs takes no arguments, got %q (usage: nqueens jobs --server URL)", pos)
		return cli.ExitUsage
	}
	ctx, cancelOp := sf.op(ctx)
	defer cancelOp()
	c, code := sf.connect(ctx, e, "jobs", false)
	if c == nil {
		return code
	}
	defer c.Close()
	jobs, err := c.Jobs(ctx)
	if err != nil {
		e.Errorf("%v", err)
		return cli.ExitFail
	}
	cl, err := c.Cluster(ctx)
	if err != nil {
		e.Errorf("%v", err)
		return cli.ExitFail
	}
	if jsonOut {
		err = json.NewEncoder(e.Stdout).Encode(jobsOut{Jobs: jobs, Cluster: cl})
	} else {
		err = printJobs(e.Stdout, jobs, cl)
	}
	if err != nil {
		e.Errorf("writing result: %v", err)
		return cli.ExitFail
	}
	return cli.ExitOK
}

// printJobs prints one line per job, then where the streams are kept.
func printJobs(w io.Writer, jobs []queue.JobLine, cl *client.ClusterState) error {
	var b strings.Builder
	width := 3
	for _, j := range jobs {
		width = max(width, len(j.ID))
	}
	if len(jobs) == 0 {
		b.WriteString("no jobs (nqueens submit N puts one on the queue)\n")
	} else {
		fmt.Fprintf(&b, "%-*s %3s %-15s %15s %7s %11s  %s\n", width, "JOB", "N", "METHOD", "COUNTED/TASKS", "FAILED", "VERIFIED", "STATE")
	}
	for _, j := range jobs {
		verified := "-"
		if j.Chosen > 0 {
			verified = fmt.Sprintf("%d/%d", j.Verified, j.Chosen)
		}
		fmt.Fprintf(&b, "%-*s %3d %-15s %15s %7d %11s  %s\n", width, j.ID, j.N, j.Method, fmt.Sprintf("%d/%d", j.Counted, j.Tasks), j.Failed, verified, j.State)
	}
	if len(jobs) > 0 {
		b.WriteString("(counts of the records stored; 'nqueens status JOB' checks every one and gives the total)\n")
	}
	b.WriteString(clusterLine(cl))
	_, err := io.WriteString(w, b.String())
	return err
}

// clusterLine says where the queue's streams are kept, and which servers'
// copies are behind (a server down, or catching up after it came back).
func clusterLine(cl *client.ClusterState) string {
	if cl.Cluster == "" {
		return "streams: on one server (no cluster)\n"
	}
	servers := map[string]bool{}
	type lag struct {
		streams int
		most    uint64
	}
	behind := map[string]*lag{}
	leaderless := 0
	for _, st := range cl.Streams {
		led := false
		for _, r := range st.Replicas {
			servers[r.Server] = true
			led = led || r.Leader
			if !r.Current || r.Offline {
				l := behind[r.Server]
				if l == nil {
					l = &lag{}
					behind[r.Server] = l
				}
				l.streams++
				l.most = max(l.most, r.Lag)
			}
		}
		if !led {
			leaderless++
		}
	}
	if cl.Current() {
		return fmt.Sprintf("streams: cluster %s, %d servers, every replica current\n", cl.Cluster, len(servers))
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(behind)) {
		l := behind[name]
		parts = append(parts, fmt.Sprintf("%s not current on %d streams (down, or catching up: up to %d operations behind)", name, l.streams, l.most))
	}
	if leaderless > 0 {
		parts = append(parts, fmt.Sprintf("%d streams without a leader", leaderless))
	}
	return fmt.Sprintf("streams: cluster %s, %d servers, NOT CURRENT: %s\n", cl.Cluster, len(servers), strings.Join(parts, "; "))
}

func runCancel(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "cancel", "JOB --server URL [flags]")
	var sf serverFlags
	sf.add(fs)
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	id, ok := oneJob(e, "cancel", pos)
	if !ok {
		return cli.ExitUsage
	}
	ctx, cancelOp := sf.op(ctx)
	defer cancelOp()
	c, code := sf.connect(ctx, e, "cancel", false)
	if c == nil {
		return code
	}
	defer c.Close()
	info, err := c.Cancel(ctx, id)
	if err != nil {
		e.Errorf("%v", err)
		return cli.ExitFail
	}
	if _, err := fmt.Fprintf(e.Stdout, "job %s cancelled on %s: its tasks are off the queue, its results kept; 'nqueens requeue %s' resumes it\n",
		id, info.Cancelled.Format("2006-01-02 15:04:05 UTC"), id); err != nil {
		e.Errorf("writing result: %v", err)
		return cli.ExitFail
	}
	return cli.ExitOK
}

func runRequeue(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "requeue", "JOB --server URL [flags]")
	var (
		sf      serverFlags
		jsonOut bool
	)
	sf.add(fs)
	fs.BoolVar(&jsonOut, "json", false, "print what was put back as one JSON object")
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	id, ok := oneJob(e, "requeue", pos)
	if !ok {
		return cli.ExitUsage
	}
	ctx, cancelOp := sf.op(ctx)
	defer cancelOp()
	c, code := sf.connect(ctx, e, "requeue", false)
	if c == nil {
		return code
	}
	defer c.Close()
	r, err := c.Requeue(ctx, id)
	if r != nil && !jsonOut {
		// Why they failed comes first: putting them back may only
		// make them fail again.
		for _, f := range r.Failed {
			what := "task"
			if f.Kind == queue.KindVerify {
				what = "verification of task"
			}
			fmt.Fprintf(e.Stdout, "%s %d had failed (%s, delivery %d): %s\n", what, f.Task, queue.Printable(f.Worker), f.Delivery, queue.Printable(f.Error))
		}
	}
	if err != nil {
		e.Errorf("%v", err)
		return cli.ExitFail
	}
	if jsonOut {
		err = json.NewEncoder(e.Stdout).Encode(r)
	} else {
		resumed := ""
		if r.Resumed {
			resumed = "resumed (it was cancelled); "
		}
		_, err = fmt.Fprintf(e.Stdout, "job %s: %s%d failed tasks put back, %d task messages added to the queue; follow with 'nqueens wait %s'\n", id, resumed, len(r.Failed), r.Added, id)
	}
	if err != nil {
		e.Errorf("writing result: %v", err)
		return cli.ExitFail
	}
	return cli.ExitOK
}

func runRemovePeer(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "remove-peer", "SERVER --server URL [flags]")
	var (
		sf      serverFlags
		jsonOut bool
	)
	sf.add(fs)
	fs.BoolVar(&jsonOut, "json", false, "print the server removed and the servers left as one JSON object")
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if len(pos) != 1 {
		e.Errorf("remove-peer takes one server's name (its --name), got %q (usage: nqueens remove-peer SERVER --server URL)", pos)
		return cli.ExitUsage
	}
	ctx, cancelOp := sf.op(ctx)
	defer cancelOp()
	c, code := sf.connect(ctx, e, "remove-peer", false)
	if c == nil {
		return code
	}
	defer c.Close()
	out, err := c.RemovePeer(ctx, pos[0])
	if err != nil {
		e.Errorf("%v", err)
		return cli.ExitFail
	}
	if jsonOut {
		err = json.NewEncoder(e.Stdout).Encode(out)
	} else {
		_, err = fmt.Fprintf(e.Stdout, "server %s removed from the cluster's JetStream meta group; its servers now: %s\n", out.Removed, strings.Join(out.Peers, ", "))
	}
	if err != nil {
		e.Errorf("writing result: %v", err)
		return cli.ExitFail
	}
	return cli.ExitOK
}
