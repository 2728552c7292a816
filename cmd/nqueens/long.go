package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/journal"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/kernel"
	"github.com/nqcount/nqcount/count/shard"
)

// version is the program version written into journals and shard files
// (and checked when they are read back). Release builds set it with
// -ldflags "-X main.version=v1.2.3"; otherwise the module version from the
// build information is used.
var version = ""

func programVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// longOptions are count's flags for long runs: checkpoints, progress and
// shards.
type longOptions struct {
	checkpoint string
	progress   string
	every      time.Duration
	shard      string
	shards     int
	out        string
	args       []string // count's arguments, to print the resume command

	index, k int // the shard, 0 <= index < k; k == 0: no shard
}

// check validates the flags and resolves --shard.
func (lo *longOptions) check(getenv func(string) string) error {
	switch lo.progress {
	case "auto", "on", "off":
	default:
		return fmt.Errorf("--progress %q: choose auto, on or off", lo.progress)
	}
	if lo.every <= 0 {
		return fmt.Errorf("--progress-every %v: must be positive", lo.every)
	}
	if lo.shards < 0 {
		return fmt.Errorf("--shards %d: need at least 1", lo.shards)
	}
	if lo.shard == "" {
		if lo.shards != 0 || lo.out != "" {
			return errors.New("--shards and --out go with --shard I/K or --shard env")
		}
		return nil
	}
	var err error
	if lo.index, lo.k, err = parseShard(lo.shard, lo.shards, getenv); err != nil {
		return err
	}
	if lo.out == "" {
		return errors.New("--shard needs --out FILE, the result file that 'nqueens merge' reads")
	}
	return nil
}

// parseShard reads "I/K" (0 <= I < K) or "env": Slurm's
// SLURM_ARRAY_TASK_ID, less SLURM_ARRAY_TASK_MIN, of
// SLURM_ARRAY_TASK_COUNT (so both --array=0-7 and --array=1-8 give shards
// 0..7 of 8), or Kubernetes' JOB_COMPLETION_INDEX of shards (--shards).
func parseShard(spec string, shards int, getenv func(string) string) (i, k int, err error) {
	if spec != "env" {
		a, b, ok := strings.Cut(spec, "/")
		i, err1 := strconv.Atoi(a)
		k, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || k < 1 || i < 0 || i >= k {
			return 0, 0, fmt.Errorf("--shard %q: want I/K with 0 <= I < K (shards are numbered from 0), or env", spec)
		}
		if shards != 0 && shards != k {
			return 0, 0, fmt.Errorf("--shard %s and --shards %d disagree", spec, shards)
		}
		return i, k, nil
	}
	num := func(name string) (int, bool, error) {
		s := getenv(name)
		if s == "" {
			return 0, false, nil
		}
		v, err := strconv.Atoi(s)
		if err != nil || v < 0 {
			return 0, true, fmt.Errorf("--shard env: %s=%q is not a whole number", name, s)
		}
		return v, true, nil
	}
	if id, ok, err := num("SLURM_ARRAY_TASK_ID"); ok || err != nil {
		if err != nil {
			return 0, 0, err
		}
		lo, _, err1 := num("SLURM_ARRAY_TASK_MIN")
		hi, hasHi, err2 := num("SLURM_ARRAY_TASK_MAX")
		cnt, hasCnt, err3 := num("SLURM_ARRAY_TASK_COUNT")
		if err := errors.Join(err1, err2, err3); err != nil {
			return 0, 0, err
		}
		k = shards
		if hasCnt {
			if shards != 0 && shards != cnt {
				return 0, 0, fmt.Errorf("--shards %d but SLURM_ARRAY_TASK_COUNT=%d", shards, cnt)
			}
			k = cnt
		}
		if k == 0 {
			return 0, 0, errors.New("--shard env: SLURM_ARRAY_TASK_COUNT is not set; give the number of shards with --shards K")
		}
		if hasHi && hi-lo+1 != k {
			return 0, 0, fmt.Errorf("--shard env: the Slurm array %d-%d has %d tasks, not a contiguous range (use --array=0-%d)", lo, hi, k, k-1)
		}
		i = id - lo
		if i < 0 || i >= k {
			return 0, 0, fmt.Errorf("--shard env: SLURM_ARRAY_TASK_ID=%d is outside %d..%d", id, lo, lo+k-1)
		}
		return i, k, nil
	}
	if idx, ok, err := num("JOB_COMPLETION_INDEX"); ok || err != nil {
		if err != nil {
			return 0, 0, err
		}
		if shards < 1 {
			return 0, 0, errors.New("--shard env with JOB_COMPLETION_INDEX needs --shards K (the Job's completions)")
		}
		if idx >= shards {
			return 0, 0, fmt.Errorf("--shard env: JOB_COMPLETION_INDEX=%d is not below --shards %d", idx, shards)
		}
		return idx, shards, nil
	}
	return 0, 0, errors.New("--shard env: neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set")
}

// syncWriter serialises writes from the goroutines that report (progress,
// the interrupt notice) with the main one.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}

// countLong runs count: the whole plan or one shard, resuming from and
// recording to a checkpoint journal, with progress reports.
func countLong(ctx context.Context, e0 *env, n int, opt queens.Options, lo longOptions, jsonOut bool) int {
	start := time.Now()
	terminal := isTerminal(e0.Stderr)
	e := &env{Stdout: e0.Stdout, Stderr: &syncWriter{w: e0.Stderr}}
	if _, err := kernel.Lookup(opt.Kernel); err != nil {
		e.Errorf("%v", err)
		return exitUsage
	}
	planWorkers := opt.Workers
	if lo.checkpoint != "" || lo.k > 0 {
		// The task list must not depend on this machine's --workers.
		planWorkers = queens.StableWorkers
	}
	p, err := queens.NewPlan(n, opt.Method, opt.Depth, planWorkers)
	if err != nil {
		e.Errorf("%v", err)
		if errors.Is(err, queens.ErrInvalid) {
			return exitUsage
		}
		return exitFail
	}
	var est []uint64
	if lo.k > 0 || lo.progress != "off" {
		est = p.Estimates()
	}
	ids := count.All(len(p.Tasks))
	if lo.k > 0 {
		ids = shard.Assign(est, lo.k)[lo.index]
	}
	meta := map[string]string{
		"n": strconv.Itoa(n), "method": string(p.Method), "depth": strconv.Itoa(p.Depth),
		"version": programVersion(),
	}
	shardName := ""
	if lo.k > 0 {
		shardName = fmt.Sprintf("%d/%d", lo.index, lo.k)
		meta["shard"] = shardName
	}

	var (
		results  []count.Result // per task, for the shard file
		finished []bool
		resumed  count.Totals
		warnings []string
		j        *journal.Journal
	)
	if lo.k > 0 {
		results = make([]count.Result, len(p.Tasks))
		finished = make([]bool, len(p.Tasks))
	}
	todo := ids
	if lo.checkpoint != "" {
		j, err = journal.Open(lo.checkpoint, journal.Header{Hash: p.Hash(), Tasks: len(p.Tasks), Meta: meta}, journal.Options{})
		if err != nil {
			e.Errorf("--checkpoint: %v", err)
			return exitFail
		}
		defer j.Close()
		if b := j.Repaired(); b > 0 {
			w := fmt.Sprintf("%s: dropped a torn last record (%d bytes, from a crash); that task is counted again", lo.checkpoint, b)
			warnings = append(warnings, w)
			e.Errorf("warning: %s", w)
		}
		mine := make([]bool, len(p.Tasks))
		for _, id := range ids {
			mine[id] = true
		}
		done := make([]bool, len(p.Tasks))
		for _, r := range j.Records() {
			if !mine[r.ID] {
				e.Errorf("--checkpoint: %s records task %d, which is not in this run: refusing to mix it in", lo.checkpoint, r.ID)
				return exitFail
			}
			done[r.ID] = true
			resumed.Add(count.Result{Count: r.Count, Nodes: r.Nodes})
			if results != nil {
				results[r.ID], finished[r.ID] = count.Result{Count: r.Count, Nodes: r.Nodes}, true
			}
		}
		if resumed.Tasks > 0 {
			todo = make([]int, 0, len(ids)-resumed.Tasks)
			for _, id := range ids {
				if !done[id] {
					todo = append(todo, id)
				}
			}
			fmt.Fprintf(e.Stderr, "nqueens: resuming from %s: %d of %d tasks already counted\n", lo.checkpoint, resumed.Tasks, len(ids))
		}
	}

	var prog *progress
	if lo.progress != "off" {
		prog = newProgress(lo.progress, e.Stderr, terminal, lo.every, est, ids)
		if j != nil {
			for _, r := range j.Records() {
				prog.resumed(r.ID)
			}
		}
	}
	var newDone atomic.Int64
	if prog != nil {
		opt.OnProgress = prog.addNodes
	}
	opt.OnDone = func(id int, r count.Result) error {
		if j != nil {
			if err := j.Append(journal.Record{ID: id, Count: r.Count, Nodes: r.Nodes}); err != nil {
				return err
			}
		}
		if results != nil {
			results[id], finished[id] = r, true
		}
		newDone.Add(1)
		prog.add(id, r)
		return nil
	}
	noticeDone := make(chan struct{})
	stopNotice := context.AfterFunc(ctx, func() {
		defer close(noticeDone)
		if j != nil {
			e.Errorf("stopping: the running tasks are abandoned and counted again on resume; Ctrl-C again quits at once (the checkpoint stays valid)")
		} else {
			e.Errorf("stopping: the running tasks are abandoned; Ctrl-C again quits at once")
		}
	})
	prog.begin()
	res, err := queens.CountTasks(ctx, p, todo, opt)
	prog.end()
	if !stopNotice() && ctx.Err() != nil {
		<-noticeDone
	}
	if j != nil {
		if cerr := j.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("--checkpoint: %w", cerr)
		}
	}
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			if j != nil {
				e.Errorf("interrupted: %d of %d tasks are recorded in %s; resume with:\n  %s",
					resumed.Tasks+int(newDone.Load()), len(ids), lo.checkpoint, resumeCommand(lo.args))
			} else {
				e.Errorf("interrupted: no total printed, since finished tasks alone would give a wrong one (count with --checkpoint FILE to be able to resume)")
			}
			return exitInterrupted
		}
		e.Errorf("%v", err)
		if errors.Is(err, queens.ErrInvalid) {
			return exitUsage
		}
		return exitFail
	}

	qres := res
	qres.Total = resumed.Count.Add(res.Total)
	qres.Nodes = resumed.Nodes.Add(res.Nodes)
	qres.Tasks = len(ids)
	qres.Workers = opt.Workers
	qres.Seconds = time.Since(start).Seconds()
	var rep countReport
	if lo.k == 0 {
		if opt.Unique {
			u := queens.UniqueFrom(n, qres.Total)
			qres.Unique = &u
		}
		rep = report(qres)
	} else {
		rep = countReport{Result: qres, Shard: shardName}
		f := &shard.File{
			Run:  map[string]string{"n": meta["n"], "method": meta["method"], "depth": meta["depth"], "version": meta["version"]},
			Hash: p.Hash(), Tasks: len(p.Tasks), Shard: lo.index, Shards: lo.k, Seconds: qres.Seconds,
		}
		for _, id := range ids {
			if !finished[id] {
				e.Errorf("internal error: task %d of shard %s has no result", id, shardName)
				return exitFail
			}
			f.Results = append(f.Results, shard.TaskResult{ID: id, Count: results[id].Count, Nodes: results[id].Nodes})
		}
		if err := shard.Write(lo.out, f); err != nil {
			e.Errorf("--out: %v", err)
			return exitFail
		}
	}
	rep.ResumedTasks = resumed.Tasks
	rep.Warnings = warnings
	if res.Seconds > 0 {
		nodes, _ := res.Nodes.Big().Float64()
		rep.NodesPerSec = nodes / qres.Seconds
	}
	if jsonOut {
		if err := json.NewEncoder(e.Stdout).Encode(rep); err != nil {
			e.Errorf("writing result: %v", err)
			return exitFail
		}
	} else if lo.k > 0 {
		fmt.Fprintf(e.Stdout, "shard %s (numbered from 0) of n = %d: %d of %d tasks, partial total %s; written to %s\n",
			shardName, n, len(ids), len(p.Tasks), qres.Total, lo.out)
		fmt.Fprintf(e.Stdout, "time %.3f s, %d workers, kernel %s, %s nodes/s; merge all %d shards with 'nqueens merge'\n",
			qres.Seconds, qres.Workers, qres.Kernel, humanRate(rep.NodesPerSec), lo.k)
	} else {
		printHuman(e, rep)
		if rep.ResumedTasks > 0 {
			fmt.Fprintf(e.Stdout, "%d of the %d tasks were resumed from %s\n", rep.ResumedTasks, rep.Tasks, lo.checkpoint)
		}
	}
	if rep.Matches != nil && !*rep.Matches {
		e.Errorf("the count disagrees with the OEIS: this is a bug, please report it")
		return exitFail
	}
	return exitOK
}

// resumeCommand is the command line that resumes this run.
func resumeCommand(args []string) string {
	q := []string{shellQuote(os.Args[0]), "count"}
	for _, a := range args {
		q = append(q, shellQuote(a))
	}
	return strings.Join(q, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
