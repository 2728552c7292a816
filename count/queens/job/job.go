package job

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/journal"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/shard"
	"github.com/nqcount/nqcount/internal/atomicfile"
)

// Config is a count as nqueens count runs it.
type Config struct {
	// Spec says what to count; its Workers and Kernel are the
	// Execution's (so they are ignored here): without a checkpoint or a
	// shard the workers tune the automatic depth; with one, the plan is
	// the same on every machine (queens.StableWorkers).
	queens.Spec
	// Execution says how this machine counts (resolved by Open). It does
	// not change the plan: a checkpoint resumes under any memory, kernel
	// or number of workers.
	Execution queens.Execution
	// Unique also gives the count up to symmetry. Whole counts only: the
	// unique count needs the whole total (merge shards with unique).
	Unique bool
	// Checkpoint, if not empty, is the journal to resume from and record
	// to (see package journal): a regular file, or a link to one.
	Checkpoint string
	// Shard, if its K is not 0, counts only that shard of the plan; Out is
	// then the result file to write, for Merge. Both refuse anything but a
	// regular file (a link to one is written through).
	Shard shard.Index
	Out   string
	// Program is the version of the program, recorded in journals and
	// shard files for information.
	Program string
	// OnResult, if set, is called for each task finished by this run,
	// after it was recorded in the checkpoint, from the worker that
	// counted it. An error from it stops the count.
	OnResult func(id int, r count.Result) error
}

// Job is a count opened for running: planned, its files checked, its
// checkpoint open and locked. Run counts it; Progress may be read from any
// goroutine meanwhile.
type Job struct {
	cfg      Config // its Execution resolved
	start    time.Time
	plan     *queens.Plan
	ids      []int // the tasks of this run (the shard's, or all)
	todo     []int // those not resumed
	jr       *journal.Journal
	resumed  count.Totals
	results  []count.Result // per task id, for the shard file
	tracker  *Tracker
	warnings []string
	ran      bool
}

// Open plans the count and checks everything a long run could trip on at
// its end, before any counting: the kernel, the shard (K at most the
// number of tasks), the result file (a regular file or a new one in a
// folder that accepts files) and the checkpoint, which it opens and
// locks. Errors caused by the configuration wrap queens.ErrInvalid; others
// (a journal of another run, locked, damaged; a folder not writable) do
// not.
func Open(cfg Config) (*Job, error) {
	return OpenContext(context.Background(), cfg)
}

// OpenContext is Open that stops when ctx is done, with ctx's error:
// planning a large count takes seconds (the join's task estimates at
// n = 22), and Ctrl-C must not wait for it.
func OpenContext(ctx context.Context, cfg Config) (*Job, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	cfg.Execution = cfg.Execution.Resolve()
	j := &Job{cfg: cfg, start: time.Now()}
	spec := cfg.Spec
	spec.Workers, spec.Kernel = cfg.Execution.Workers, cfg.Execution.Kernel
	if cfg.Checkpoint != "" || cfg.Shard.K > 0 {
		spec.Workers = queens.StableWorkers // the tasks must not depend on this machine
	}
	p, err := queens.NewPlan(spec)
	if err != nil {
		return nil, err
	}
	j.plan = p
	// The kernel and the memory are checked now, with the workers that
	// will count: a count that cannot run is refused before any work.
	if _, err := p.Fit(cfg.Execution); err != nil {
		return nil, invalid(err)
	}
	if _, err := p.EstimatesContext(ctx); err != nil {
		return nil, err
	}
	j.ids = count.All(p.Len())
	if cfg.Shard.K > 0 {
		if j.ids, err = p.Shard(cfg.Shard); err != nil {
			return nil, err
		}
		if err := j.checkOut(); err != nil {
			return nil, err
		}
		j.results = make([]count.Result, p.Len())
	}
	j.tracker = NewTracker(p, j.ids)
	j.todo = j.ids
	if cfg.Checkpoint != "" {
		if err := j.openJournal(); err != nil {
			return nil, err
		}
	}
	return j, nil
}

// check validates the configuration and the files, before planning.
func (cfg *Config) check() error {
	if cfg.Shard.K > 0 {
		if cfg.Shard.I < 0 || cfg.Shard.I >= cfg.Shard.K {
			return invalid(fmt.Errorf("shard %s: want I/K with 0 <= I < K", cfg.Shard))
		}
		if cfg.Out == "" {
			return invalid(errors.New("a shard needs a result file to write, for merging"))
		}
		if cfg.Unique {
			return invalid(errors.New("the unique count needs the whole total: ask for it when merging the shards, not from a shard"))
		}
	} else if cfg.Out != "" {
		return invalid(errors.New("a result file goes with a shard"))
	}
	if cfg.Out != "" {
		if err := atomicfile.Check(cfg.Out); err != nil {
			return fileError("result file", err)
		}
		// Before planning, refuse a file that is no result at all; once
		// the plan is known, Open refuses another run's or shard's
		// (checkOut).
		if err := shard.CheckTarget(cfg.Out, nil); err != nil {
			return fileError("result file", err)
		}
	}
	if cfg.Checkpoint != "" {
		// journal.Open checks again, safely; this gives the error before
		// planning, which takes a while at large n.
		if fi, err := os.Stat(cfg.Checkpoint); err == nil && !fi.Mode().IsRegular() {
			return fileError("checkpoint", atomicfile.NotRegular(cfg.Checkpoint, fi.Mode()))
		}
		if cfg.Out != "" && sameFile(cfg.Checkpoint, cfg.Out) {
			return invalid(fmt.Errorf("the checkpoint %s and the result file %s are the same file: give two names", cfg.Checkpoint, cfg.Out))
		}
	}
	return nil
}

// fileError says which file an error is about; a special file is a usage
// error.
func fileError(what string, err error) error {
	err = fmt.Errorf("%s: %w", what, err)
	if errors.Is(err, atomicfile.ErrNotRegular) || errors.Is(err, shard.ErrRefused) {
		return invalid(err)
	}
	return err
}

// sameFile reports whether two paths name one file, existing or not.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	if !errors.Is(errA, fs.ErrNotExist) || !errors.Is(errB, fs.ErrNotExist) {
		return false
	}
	aa, err1 := filepath.Abs(a)
	ab, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == ab
}

// header is the journal header of the job: the plan's pin, and the shard.
func (j *Job) header() journal.Header {
	meta := j.plan.Pin()
	if j.cfg.Shard.K > 0 {
		meta["shard"] = j.cfg.Shard.String()
	}
	h := journal.Header{Hash: j.plan.Hash(), Tasks: j.plan.Len(), Meta: meta}
	if j.cfg.Program != "" {
		h.Info = map[string]string{"program": j.cfg.Program}
	}
	return h
}

// acceptLegacy takes a journal written before the algorithm version was
// pinned: it pinned the program version instead (usually "(devel)", so
// pinning nothing), and its tasks were counted by algorithm 1.
func acceptLegacy(want journal.Header) func(journal.Header) bool {
	return func(found journal.Header) bool {
		if queens.AlgorithmVersion != 1 || found.Hash != want.Hash || found.Tasks != want.Tasks {
			return false
		}
		if _, ok := found.Meta["version"]; !ok {
			return false
		}
		if _, ok := found.Meta["algorithm"]; ok {
			return false
		}
		a, b := maps.Clone(found.Meta), maps.Clone(want.Meta)
		delete(a, "version")
		delete(b, "algorithm")
		return maps.Equal(a, b)
	}
}

// openJournal opens the checkpoint and takes its records as resumed.
func (j *Job) openJournal() error {
	h := j.header()
	jr, err := journal.Open(j.cfg.Checkpoint, h, journal.Options{Accept: acceptLegacy(h)})
	if err != nil {
		return fileError("checkpoint", err)
	}
	if b := jr.Repaired(); b > 0 {
		j.warnings = append(j.warnings, fmt.Sprintf("%s: dropped a torn last record (%d bytes, from a crash); that task is counted again", j.cfg.Checkpoint, b))
	}
	mine := make([]bool, j.plan.Len())
	for _, id := range j.ids {
		mine[id] = true
	}
	done := make([]bool, j.plan.Len())
	for _, r := range jr.Records() {
		if !mine[r.ID] {
			jr.Close()
			return fmt.Errorf("checkpoint: %s records task %d, which is not in this run: refusing to mix it in", j.cfg.Checkpoint, r.ID)
		}
		done[r.ID] = true
		res := count.Result{Count: r.Count, Nodes: r.Nodes}
		j.resumed.Add(res)
		if j.results != nil {
			j.results[r.ID] = res
		}
		j.tracker.Resumed(r.ID)
	}
	if j.resumed.Tasks > 0 {
		j.todo = make([]int, 0, len(j.ids)-j.resumed.Tasks)
		for _, id := range j.ids {
			if !done[id] {
				j.todo = append(j.todo, id)
			}
		}
	}
	j.jr = jr
	return nil
}

// Plan returns the job's plan.
func (j *Job) Plan() *queens.Plan { return j.plan }

// Tasks returns the ids of the tasks this job covers: the shard's, or all.
func (j *Job) Tasks() []int { return j.ids }

// Resumed returns the number of tasks read from the checkpoint, finished
// by an earlier run.
func (j *Job) Resumed() int { return j.resumed.Tasks }

// Warnings returns what Open noticed and repaired (a torn journal record).
func (j *Job) Warnings() []string { return j.warnings }

// Progress returns a snapshot of the job's progress; safe to call from any
// goroutine, during Run or after.
func (j *Job) Progress() Progress { return j.tracker.Progress() }

// Outcome is a finished count: the object nqueens count --json prints.
// Totals are JSON numbers with every digit exact; read them as big
// integers, not float64.
type Outcome struct {
	// Result covers every task of the job, resumed ones included; for a
	// shard, Total is the shard's partial total.
	queens.Result
	// Check compares a whole count with the OEIS (empty for a shard).
	Check
	NodesPerSec  float64  `json:"nodes_per_second"` // nodes counted by this run over its time
	ResumedTasks int      `json:"resumed_tasks"`
	Shard        string   `json:"shard,omitempty"` // "I/K"
	Out          string   `json:"out,omitempty"`   // the shard's result file
	Warnings     []string `json:"warnings,omitempty"`
}

// Run counts the job's tasks not resumed, recording each in the checkpoint
// as it finishes, and returns the outcome: for a whole count the checked
// total (with the unique count if asked), for a shard its partial total,
// written to the result file. The checkpoint is closed when Run returns.
//
// If ctx is cancelled, Run returns ctx's error and no outcome: the tasks
// recorded in the checkpoint stay (Progress().Done counts them), the
// others are counted again on resume. If the count finished but the result
// file could not be written, Run returns the outcome and the error.
func (j *Job) Run(ctx context.Context) (*Outcome, error) {
	if j.ran {
		return nil, errors.New("job: Run called twice")
	}
	j.ran = true
	defer j.Close()
	j.tracker.Start()
	jr := j.jr
	res, err := queens.Count(ctx, j.plan, j.cfg.Execution, j.todo, queens.Options{
		OnDone: func(id int, r count.Result) error {
			if err := j.record(jr, id, r); err != nil {
				return err
			}
			j.tracker.Done(id, r)
			return nil
		},
		OnProgress: j.tracker.Partial, // the running tasks' nodes, slice by slice
	})
	// A checkpoint that is gone outranks an interruption: the tasks it
	// holds cannot be resumed, and the caller must not say they can. A
	// count that finished does not need it.
	warnings := j.warnings
	cerr := j.Close()
	switch {
	case cerr == nil:
	case err == nil && errors.Is(cerr, journal.ErrRemoved):
		warnings = append(slices.Clip(warnings), fmt.Sprintf("%v; the count finished, so its total is complete without it", cerr))
	case err == nil || errors.Is(cerr, journal.ErrRemoved):
		err = fmt.Errorf("checkpoint: %w", cerr)
	}
	if err != nil {
		return nil, err
	}
	out := &Outcome{ResumedTasks: j.resumed.Tasks, Warnings: warnings}
	out.Result = res
	out.Total = j.resumed.Count.Add(res.Total)
	out.Nodes = j.resumed.Nodes.Add(res.Nodes)
	out.Tasks = len(j.ids)
	out.Seconds = time.Since(j.start).Seconds()
	if out.Seconds > 0 {
		nodes, _ := res.Nodes.Big().Float64()
		out.NodesPerSec = nodes / out.Seconds
	}
	if j.cfg.Shard.K == 0 {
		if j.cfg.Unique {
			u := queens.UniqueFrom(out.N, out.Total)
			out.Unique = &u
		}
		out.Check = CheckTotal(out.N, out.Total, out.Unique)
		return out, nil
	}
	out.Shard, out.Out = j.cfg.Shard.String(), j.cfg.Out
	if err := j.writeShard(out.Seconds); err != nil {
		return out, fmt.Errorf("result file: %w", err)
	}
	return out, nil
}

// record is called for each task finished by Run.
func (j *Job) record(jr *journal.Journal, id int, r count.Result) error {
	if jr != nil {
		if err := jr.Append(journal.Record{ID: id, Count: r.Count, Nodes: r.Nodes}); err != nil {
			return fmt.Errorf("checkpoint: %w", err)
		}
	}
	if j.results != nil {
		j.results[id] = r // each id once, from one worker
	}
	if j.cfg.OnResult != nil {
		return j.cfg.OnResult(id, r)
	}
	return nil
}

// shardFile is the shard's result file, without its results.
func (j *Job) shardFile() *shard.File {
	return &shard.File{
		Run: j.plan.Pin(), Hash: j.plan.Hash(), Tasks: j.plan.Len(),
		Shard: j.cfg.Shard.I, Shards: j.cfg.Shard.K, Program: j.cfg.Program,
	}
}

// checkOut checks, before counting, that the shard's result fits in a
// result file and may replace what the file holds (shard.CheckTarget: an
// empty file, or a result of the same run and shard).
func (j *Job) checkOut() error {
	if n := len(j.ids); n > shard.MaxResults {
		return invalid(fmt.Errorf("shard %s has %d tasks, more than a result file holds (%d): split the count into at least %d shards, or choose a smaller depth",
			j.cfg.Shard, n, shard.MaxResults, (j.plan.Len()+shard.MaxResults-1)/shard.MaxResults+1))
	}
	if err := shard.CheckTarget(j.cfg.Out, j.shardFile()); err != nil {
		return fileError("result file", err)
	}
	return nil
}

// writeShard writes the shard's result file. If the file came to hold
// something else while the shard was counted, the result goes beside it
// rather than be lost, and the error says where.
func (j *Job) writeShard(seconds float64) error {
	f := j.shardFile()
	f.Seconds = seconds
	f.Results = make([]shard.TaskResult, len(j.ids))
	for i, id := range j.ids {
		r := j.results[id]
		f.Results[i] = shard.TaskResult{ID: id, Count: r.Count, Nodes: r.Nodes}
	}
	err := shard.Write(j.cfg.Out, f)
	if errors.Is(err, shard.ErrRefused) {
		alt := fmt.Sprintf("%s.shard-%d-of-%d", j.cfg.Out, j.cfg.Shard.I, j.cfg.Shard.K)
		if werr := shard.Write(alt, f); werr == nil {
			return fmt.Errorf("%w; the result was written to %s instead", err, alt)
		}
	}
	return err
}

// Close closes the checkpoint, if Run has not; it is safe to call twice.
func (j *Job) Close() error {
	if j.jr == nil {
		return nil
	}
	err := j.jr.Close()
	j.jr = nil
	return err
}
