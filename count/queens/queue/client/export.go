package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"time"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/job"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/shard"
	"github.com/nqcount/nqcount/internal/atomicfile"
)

// Export is a complete job's results as a file anyone can check: a shard
// result file holding every task (shard 0 of 1, so nqueens merge reads it
// as it is), with the job's id and every accepted record beside it, each
// with its worker, program and checksum.
type Export struct {
	shard.File
	Job     string         `json:"job"`
	Records []queue.Record `json:"records"`
}

// Export returns the results of a complete job; a job that is not (tasks
// missing, verifications pending, conflicts) is an error that says why.
func (c *Client) Export(ctx context.Context, id string) (e *Export, err error) {
	err = c.retry(ctx, "export", func(ctx context.Context) error { e, err = c.exportOnce(ctx, id); return err })
	return e, err
}

func (c *Client) exportOnce(ctx context.Context, id string) (*Export, error) {
	s, col, err := c.read(ctx, id, false)
	if err != nil {
		return nil, err
	}
	if !s.Complete {
		return nil, fmt.Errorf("job %s is not complete: %s", id, Summary(s))
	}
	return col.export(s, ""), nil
}

// export builds the file of a complete job.
func (c *collector) export(s *Status, program string) *Export {
	e := &Export{Job: c.info.ID}
	e.Run, e.Hash, e.Tasks = c.plan.Pin(), c.plan.Hash(), c.plan.Len()
	e.Shard, e.Shards, e.Seconds, e.Program = 0, 1, s.Elapsed, program
	verdicts, distrusted := c.judgeAll()
	e.Results = standingResults(verdicts)
	for _, rs := range c.recs {
		for _, r := range rs {
			// The distrusted workers' records are left out: the file
			// stands on the records of the workers that agree.
			if !queue.Distrusts(distrusted, r.Worker) {
				e.Records = append(e.Records, r)
			}
		}
	}
	e.Format = shard.Format
	e.Total = e.Sum()
	return e
}

// CheckExportTarget reports why an export of job id must not be written
// to path, or nil. The rule is nqueens count --out's: a new file, an empty
// one, or one it may replace (here an export of the same job, written
// again), or a link to one of these, written through; a FIFO, a device, a
// folder, a dangling link and any other file (notes, a journal, a shard
// result of a count or another job's export) are refused.
func CheckExportTarget(path, id string) error {
	if err := atomicfile.Check(path); err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil // absent (or unreadable: writing it will tell)
	}
	defer f.Close()
	var head struct {
		Format string `json:"format"`
		Job    string `json:"job"`
	}
	b, err := io.ReadAll(io.LimitReader(f, 64<<20))
	if err != nil {
		return err
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil
	}
	if json.Unmarshal(b, &head) == nil && head.Format == shard.Format && head.Job == id {
		return nil
	}
	what := "is not an export of job " + id
	if head.Format == shard.Format && head.Job != "" {
		what = "is the export of another job, " + head.Job
	} else if head.Format == shard.Format {
		what = "is a shard result file"
	}
	return fmt.Errorf("%s exists and %s: refusing to replace it (remove it, or choose another name)", path, what)
}

// WriteExport writes e to path atomically (a regular file, or a link to
// one, written through), under CheckExportTarget's rule.
func WriteExport(path string, e *Export) error {
	if err := CheckExportTarget(path, e.Job); err != nil {
		return err
	}
	e.Format = shard.Format
	e.Total = e.Sum()
	b, err := json.MarshalIndent(e, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(b, '\n'))
}

// ErrNotExport is wrapped by ReadExport's error for a shard file that is
// not an export of a queue's job (it has no records).
var ErrNotExport = errors.New("not an export of a queued job")

// ReadExport reads an export and checks it through: the shard file's own
// checks (shard.Read), then each record's checksum, plan and algorithm
// (Record.Check, with the plan made again from the file's run), that
// every task has a count record equal to its result and that no two
// records of a task disagree.
func ReadExport(path string) (*Export, error) {
	f, err := shard.Read(path)
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var e Export
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(&e); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if e.Job == "" && e.Records == nil {
		return nil, fmt.Errorf("%s: %w", path, ErrNotExport)
	}
	e.File = *f
	if err := e.check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &e, nil
}

func (e *Export) check() error {
	if err := queue.CheckJobID(e.Job); err != nil {
		return err
	}
	if e.Shards != 1 {
		return fmt.Errorf("an export holds every task (shard 0 of 1), not shard %d of %d", e.Shard, e.Shards)
	}
	var info queue.JobInfo
	info.ID, info.Hash, info.Tasks = e.Job, e.Hash, e.Tasks
	fmt.Sscan(e.Run["n"], &info.N)
	fmt.Sscan(e.Run["depth"], &info.Depth)
	fmt.Sscan(e.Run["algorithm"], &info.Algorithm)
	if u, ok := e.Run["units"]; ok {
		if _, err := fmt.Sscan(u, &info.Units); err != nil || info.Units < 1 {
			return fmt.Errorf("the run's units %q is not valid", u)
		}
	}
	info.Method = e.Run["method"]
	if info.Algorithm != queens.AlgorithmVersion {
		return fmt.Errorf("counted with algorithm version %s; this program's is %d: check it with a program of that version", e.Run["algorithm"], queens.AlgorithmVersion)
	}
	if _, err := queens.ParseMethod(info.Method); err != nil || info.N < 1 || info.N > queens.MaxN {
		return fmt.Errorf("the run's n %q or method %q is not valid", e.Run["n"], info.Method)
	}
	p, err := info.Plan()
	if err != nil {
		return err
	}
	if !maps.Equal(p.Pin(), e.Run) {
		return fmt.Errorf("the run %v is not the plan's %v", e.Run, p.Pin())
	}
	col := newCollector(info, p)
	for _, r := range e.Records {
		col.add(r, time.Time{})
	}
	if len(col.refused) > 0 {
		r := col.refused[0]
		return fmt.Errorf("%d records are not valid; the first, task %d from %s: %s", len(col.refused), r.Task, r.Worker, r.Reason)
	}
	verdicts, distrusted := col.judgeAll()
	if len(distrusted) > 0 {
		return fmt.Errorf("%w: worker %s is outvoted on task %d", job.ErrConflict, queue.Printable(distrusted[0].Worker), distrusted[0].Task)
	}
	var conflicts []int
	for id, v := range verdicts {
		if v.conflict {
			conflicts = append(conflicts, id)
		}
	}
	if len(conflicts) > 0 {
		return fmt.Errorf("%w: %d tasks have records that disagree, the first task %d", job.ErrConflict, len(conflicts), conflicts[0])
	}
	counted := 0
	for _, v := range verdicts {
		if v.standing != nil {
			counted++
		}
	}
	for _, res := range e.Results {
		if res.ID < 0 || res.ID >= len(verdicts) || verdicts[res.ID].standing == nil {
			return fmt.Errorf("task %d has a result but no record", res.ID)
		}
		r := verdicts[res.ID].standing
		if r.count != res.Count || r.nodes != res.Nodes {
			return fmt.Errorf("task %d: the result (%d, %d nodes) is not its records' (%d, %d nodes)", res.ID, res.Count, res.Nodes, r.count, r.nodes)
		}
	}
	if counted != e.Tasks {
		return fmt.Errorf("%w: %d of %d tasks have no record", job.ErrIncomplete, e.Tasks-counted, e.Tasks)
	}
	return nil
}
