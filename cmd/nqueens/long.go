package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/job"
	"github.com/nqcount/nqcount/count/shard"
	"github.com/nqcount/nqcount/internal/cli"
)

// programVersion is the version recorded in journals and shard files, for
// information only (the plan hash and queens.AlgorithmVersion pin what
// decides the counts); a variable so that tests can pretend to be
// another build.
var programVersion = cli.Version

// longOptions are count's flags for long runs: checkpoints, progress and
// shards.
type longOptions struct {
	checkpoint string
	progress   string
	every      time.Duration
	shardFlag  string
	shards     int
	out        string
	args       []string // count's arguments, to print the resume command

	shard shard.Index // resolved from shardFlag; K == 0: no shard
}

// addFlags defines the flags on fs.
func (lo *longOptions) addFlags(fs *flag.FlagSet) {
	fs.StringVar(&lo.checkpoint, "checkpoint", "", "record finished tasks in `FILE` (a regular file, or a link to one, written through); rerunning the same command resumes from it")
	fs.StringVar(&lo.progress, "progress", "auto", "progress on stderr: auto (a live line on a terminal, else a line every --progress-every on long runs), on or off")
	fs.DurationVar(&lo.every, "progress-every", 10*time.Second, "interval of the progress lines when stderr is not a terminal")
	fs.StringVar(&lo.shardFlag, "shard", "", "count only shard `I/K` (I from 0 to K-1, K at most the number of tasks), or 'env' to read it from SLURM_ARRAY_TASK_ID/COUNT/MIN or JOB_COMPLETION_INDEX")
	fs.IntVar(&lo.shards, "shards", 0, "number of shards K, with --shard env when the environment does not say (Kubernetes)")
	fs.StringVar(&lo.out, "out", "", "with --shard: write the shard's result to `FILE`, for 'nqueens merge': a new file, an empty one or an earlier shard result; a link to one is written through; FIFOs, devices and other files are refused")
}

// check validates the flags and resolves --shard; set tells which flags
// were given (an empty --checkpoint is a mistake, not "no checkpoint").
func (lo *longOptions) check(set map[string]bool, unique bool, getenv func(string) string) error {
	switch lo.progress {
	case "auto", "on", "off":
	default:
		return fmt.Errorf("--progress %q: choose auto, on or off", lo.progress)
	}
	if lo.every <= 0 {
		return fmt.Errorf("--progress-every %v: must be positive", lo.every)
	}
	if set["checkpoint"] && lo.checkpoint == "" {
		return errors.New("--checkpoint '': give the journal's file name (or leave the flag out)")
	}
	if set["out"] && lo.out == "" {
		return errors.New("--out '': give the result file's name")
	}
	if set["shard"] && lo.shardFlag == "" {
		return errors.New("--shard '': want I/K with 0 <= I < K (shards are numbered from 0), or env")
	}
	if lo.shards < 0 {
		return fmt.Errorf("--shards %d: need at least 1", lo.shards)
	}
	if lo.shardFlag == "" {
		if lo.shards != 0 || lo.out != "" {
			return errors.New("--shards and --out go with --shard I/K or --shard env")
		}
		return nil
	}
	var err error
	if lo.shardFlag == "env" {
		lo.shard, err = shard.FromEnv(getenv, lo.shards)
		if errors.Is(err, shard.ErrCountUnknown) {
			return fmt.Errorf("--shard env: %v: give the number of shards with --shards K", err)
		}
		if err != nil {
			return fmt.Errorf("--shard env: %v", err)
		}
	} else {
		if lo.shard, err = shard.Parse(lo.shardFlag); err != nil {
			return fmt.Errorf("--shard %q: want I/K with 0 <= I < K (shards are numbered from 0), or env", lo.shardFlag)
		}
		if lo.shards != 0 && lo.shards != lo.shard.K {
			return fmt.Errorf("--shard %s and --shards %d disagree", lo.shardFlag, lo.shards)
		}
	}
	if unique {
		return errors.New("--unique needs the whole total: give it to 'nqueens merge' (merge --unique), not to a shard")
	}
	if lo.out == "" {
		return errors.New("--shard needs --out FILE, the result file that 'nqueens merge' reads")
	}
	return nil
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

// errExit is the exit code for an error from the library: a usage error
// (bad flags or files given) or a failure.
func errExit(err error) int {
	if errors.Is(err, queens.ErrInvalid) {
		return cli.ExitUsage
	}
	return cli.ExitFail
}

// countLong runs count through package job: the whole plan or one shard,
// resuming from and recording to a checkpoint journal, with progress
// reports. It only prints; the library decides.
func countLong(ctx context.Context, e0 *cli.Env, cfg job.Config, lo longOptions, jsonOut bool) int {
	terminal := isTerminal(e0.Stderr)
	e := &cli.Env{Prog: e0.Prog, Stdin: e0.Stdin, Stdout: e0.Stdout, Stderr: &syncWriter{w: e0.Stderr}}
	cfg.Checkpoint, cfg.Shard, cfg.Out, cfg.Program = lo.checkpoint, lo.shard, lo.out, programVersion()
	j, err := job.OpenContext(ctx, cfg)
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			e.Errorf("interrupted: stopped while planning, nothing was counted")
			return cli.ExitInterrupted
		}
		e.Errorf("%v", err)
		return errExit(err)
	}
	defer j.Close()
	for _, w := range j.Warnings() {
		e.Errorf("warning: %s", w)
	}
	if r := j.Resumed(); r > 0 {
		e.Errorf("resuming from %s: %d of %d %s already counted", lo.checkpoint, r, len(j.Tasks()), cli.Plural(len(j.Tasks()), "task", "tasks"))
	}

	prog := newProgress(lo.progress, e.Stderr, terminal, lo.every, j.Progress)
	noticeDone := make(chan struct{})
	stopNotice := context.AfterFunc(ctx, func() {
		defer close(noticeDone)
		prog.pause()
		if lo.checkpoint != "" {
			e.Errorf("stopping: finished tasks are recorded in %s; the running ones are abandoned and counted again on resume. Ctrl-C again quits at once (the checkpoint stays valid)", lo.checkpoint)
		} else {
			e.Errorf("stopping: without --checkpoint nothing is kept. Ctrl-C again quits at once")
		}
	})
	prog.begin()
	out, err := j.Run(ctx)
	prog.end()
	if !stopNotice() && ctx.Err() != nil {
		<-noticeDone
	}
	if err != nil && out == nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			if lo.checkpoint != "" {
				p := j.Progress()
				e.Errorf("interrupted: %d of %d tasks are recorded in %s (the running ones were abandoned: they are counted again on resume); resume with:\n  %s",
					p.Done, p.Tasks, lo.checkpoint, resumeCommand(lo.args))
			} else {
				e.Errorf("interrupted: no total printed, since finished tasks alone would give a wrong one (count with --checkpoint FILE to be able to resume)")
			}
			return cli.ExitInterrupted
		}
		e.Errorf("%v", err)
		return errExit(err)
	}
	if err != nil {
		// The count finished but its result file could not be written.
		keep := "count with --checkpoint FILE to keep the tasks when this happens"
		if lo.checkpoint != "" {
			keep = fmt.Sprintf("every task is recorded in %s: rerun the same command to write the file again", lo.checkpoint)
		}
		e.Errorf("%v; shard %s's partial total was %s over %d tasks (%s)", err, out.Shard, out.Total, out.Tasks, keep)
		return cli.ExitFail
	}
	for _, w := range out.Warnings[len(j.Warnings()):] {
		e.Errorf("warning: %s", w)
	}
	if jsonOut {
		if err := json.NewEncoder(e.Stdout).Encode(out); err != nil && e.OutputErr() == nil {
			e.Errorf("writing result: %v", err)
			return cli.ExitFail
		}
	} else if out.Shard != "" {
		fmt.Fprintf(e.Stdout, "shard %s (numbered from 0) of n = %d: %d of %d %s, partial total %s; written to %s\n",
			out.Shard, out.N, out.Tasks, j.Plan().Len(), cli.Plural(j.Plan().Len(), "task", "tasks"), out.Total, out.Out)
		fmt.Fprintf(e.Stdout, "time %.3f s, %d %s, kernel %s, %s nodes/s; merge all %d shards with 'nqueens merge'\n",
			out.Seconds, out.Workers, cli.Plural(out.Workers, "worker", "workers"), out.Kernel, cli.Rate(out.NodesPerSec), lo.shard.K)
	} else {
		printHuman(e, out)
		if out.ResumedTasks > 0 {
			fmt.Fprintf(e.Stdout, "%d of the %d %s resumed from %s\n", out.ResumedTasks, out.Tasks,
				cli.Plural(out.ResumedTasks, "task was", "tasks were"), lo.checkpoint)
		}
	}
	if out.Mismatch() {
		if out.ResumedTasks > 0 {
			// A journal edited consistently (its checksums redone) passes
			// every check it carries.
			e.Errorf("the count disagrees with the OEIS: %d of its tasks were resumed from %s, which may have been edited; count again with a new checkpoint to tell (if that disagrees too, this is a bug, please report it)", out.ResumedTasks, lo.checkpoint)
		} else {
			e.Errorf("the count disagrees with the OEIS: this is a bug, please report it")
		}
		return cli.ExitFail
	}
	return cli.ExitOK
}

// resumeCommand is the command line that resumes this run.
func resumeCommand(args []string) string {
	cwd, _ := os.Getwd()
	bi, _ := debug.ReadBuildInfo()
	q := []string{commandName(os.Args[0], cwd, bi), "count"}
	for _, a := range args {
		q = append(q, shellQuote(a))
	}
	return strings.Join(q, " ")
}

// commandName is how to start this program again: the name it was started
// by, quoted for a shell; or, under 'go run' (whose binary lies in a build
// cache folder deleted when go run ends), a go run command that works from
// the current folder cwd.
func commandName(arg0, cwd string, bi *debug.BuildInfo) string {
	if !underGoRun(arg0) || bi == nil || bi.Path == "" {
		return shellQuote(arg0)
	}
	sep := string(filepath.Separator)
	pkg, mod := bi.Path, bi.Main.Path
	if root := moduleRoot(cwd, mod); root != "" && (pkg == mod || strings.HasPrefix(pkg, mod+"/")) {
		dir := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(pkg, mod)))
		if rel, err := filepath.Rel(cwd, dir); err == nil && !strings.HasPrefix(rel, "..") {
			if rel != "." {
				rel = "." + sep + rel
			}
			return "go run " + shellQuote(rel)
		}
		return "go run " + shellQuote(pkg)
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return "go run " + shellQuote(pkg+"@"+v)
	}
	return "go run " + shellQuote(pkg)
}

// underGoRun reports whether the binary path arg0 is one that go run
// built: in the build cache (GOCACHE/xx/<64 hex digits>-d/NAME, Go 1.24
// and later) or in a temporary work folder (.../go-buildNNN/b001/exe/NAME).
func underGoRun(arg0 string) bool {
	dir := filepath.Dir(arg0)
	if filepath.Base(dir) == "exe" && strings.Contains(arg0, string(filepath.Separator)+"go-build") {
		return true
	}
	h, ok := strings.CutSuffix(filepath.Base(dir), "-d")
	if !ok || len(h) != 64 || strings.Trim(h, "0123456789abcdef") != "" {
		return false
	}
	return len(filepath.Base(filepath.Dir(dir))) == 2
}

// moduleRoot returns the folder at or above dir whose go.mod declares
// module mod, or "".
func moduleRoot(dir, mod string) string {
	if dir == "" || mod == "" {
		return ""
	}
	for {
		if f, err := os.Open(filepath.Join(dir, "go.mod")); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module"); ok && strings.Trim(strings.TrimSpace(rest), `"`) == mod {
					f.Close()
					return dir
				}
			}
			f.Close()
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
