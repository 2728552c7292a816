package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/internal/clientconn"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
)

// Conflicts are settled by quorum, as volunteer-computing projects settle
// them: a task whose results disagree is counted again by a third worker
// (a recount: a verify task addressed to a worker without a record of
// it), and again until one result is held by at least two workers and by
// more workers than any other. That result stands; the workers that said
// otherwise are distrusted for the job (JobInfo.Distrusted): none of their
// records is taken, and the tasks they counted or verified are counted
// again by others. Until then the task is a conflict and no total is
// given; when no worker is left that could count it again, Wait says so
// (ErrNoQuorum).

// opinion is one result of a task and the workers that gave it.
type opinion struct {
	count, nodes uint64
	workers      []string     // distinct, in the order of their first records
	first        time.Time    // when its first record was stored
	second       time.Time    // when a second worker's record was
	rec          queue.Record // its first record
}

// opinions groups the records of a task (stored at ats) by result,
// leaving out those of distrusted workers.
func opinions(rs []queue.Record, ats []time.Time, distrusted func(string) bool) []*opinion {
	var ops []*opinion
	for i, r := range rs {
		if distrusted(r.Worker) {
			continue
		}
		var at time.Time
		if i < len(ats) {
			at = ats[i]
		}
		i := slices.IndexFunc(ops, func(o *opinion) bool { return o.count == r.Count && o.nodes == r.Nodes })
		if i < 0 {
			ops = append(ops, &opinion{count: r.Count, nodes: r.Nodes, first: at, rec: r})
			i = len(ops) - 1
		}
		o := ops[i]
		if !slices.Contains(o.workers, r.Worker) {
			o.workers = append(o.workers, r.Worker)
			if len(o.workers) == 2 {
				o.second = at
			}
		}
		if !at.IsZero() && (o.first.IsZero() || at.Before(o.first)) {
			o.first = at
		}
	}
	return ops
}

// verdict is what a task's opinions come to.
type verdict struct {
	// standing is the result that stands (nil: no result, or a conflict
	// not settled); outvoted are the others once settled.
	standing *opinion
	outvoted []*opinion
	conflict bool
	ops      []*opinion
}

// agree is the number of workers behind the standing result.
func (v verdict) agree() int {
	if v.standing == nil {
		return 0
	}
	return len(v.standing.workers)
}

// has reports whether worker gave one of the task's results.
func (v verdict) has(worker string) bool {
	for _, o := range v.ops {
		if slices.Contains(o.workers, worker) {
			return true
		}
	}
	return false
}

// judge settles a task's opinions: one alone stands; of several, one
// held by at least two workers and by more than any other stands, and
// the others are outvoted; else they conflict.
func judge(ops []*opinion) verdict {
	v := verdict{ops: ops}
	switch len(ops) {
	case 0:
		return v
	case 1:
		v.standing = ops[0]
		return v
	}
	sorted := slices.Clone(ops)
	slices.SortStableFunc(sorted, func(a, b *opinion) int { return len(b.workers) - len(a.workers) })
	if len(sorted[0].workers) >= 2 && len(sorted[0].workers) > len(sorted[1].workers) {
		v.standing, v.outvoted = sorted[0], sorted[1:]
		return v
	}
	v.conflict = true
	return v
}

// judgeAll judges every task of the job; a worker outvoted on one task
// is distrusted on all (its records left out everywhere), so the tasks are
// judged again until no worker is newly distrusted. It returns the
// verdicts and every distrusted worker: the job's record's, then the newly
// outvoted.
func (c *collector) judgeAll() ([]verdict, []queue.Distrust) {
	ds := slices.Clone(c.info.Distrusted)
	for _, d := range c.distrusted {
		if !queue.Distrusts(ds, d.Worker) {
			ds = append(ds, d)
		}
	}
	out := make([]verdict, len(c.recs))
	distrusted := func(w string) bool { return queue.Distrusts(ds, w) }
	for range len(c.byWorker) + 1 {
		added := false
		for id := range c.recs {
			v := judge(opinions(c.recs[id], c.ats[id], distrusted))
			for _, o := range v.outvoted {
				for _, w := range o.workers {
					if !distrusted(w) {
						ds = append(ds, queue.Distrust{Worker: w, Task: id, Count: o.count, Majority: v.standing.count, Agree: slices.Clone(v.standing.workers), Time: o.first})
						added = true
					}
				}
			}
			out[id] = v
		}
		if !added {
			break
		}
	}
	return out, ds
}

// taskRecords reads every accepted record of one task of job id (planned
// as p): its count and verify records, with the server's times.
func (c *Client) taskRecords(ctx context.Context, id string, task int, p *queue.Plan) ([]queue.Record, []time.Time, error) {
	rs, err := c.js.Stream(ctx, queue.ResultsStream)
	if err != nil {
		return nil, nil, err
	}
	subjects := []string{layout.Subject(layout.ResultPrefix, id, task), layout.Subject(layout.VerifiedPrefix, id, task)}
	// One request per record (a task has a few), none of them a
	// consumer for the server to keep.
	var recs []queue.Record
	var ats []time.Time
	for _, subj := range subjects {
		for seq := uint64(1); ; {
			m, err := rs.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subj))
			if errors.Is(err, jetstream.ErrMsgNotFound) {
				break
			}
			if err != nil {
				return nil, nil, err
			}
			seq = m.Sequence + 1
			var r queue.Record
			if json.Unmarshal(m.Data, &r) != nil || r.Check(id, p) != nil || r.Task != task {
				continue
			}
			recs, ats = append(recs, r), append(ats, m.Time)
		}
	}
	return recs, ats, nil
}

// taskVerdict judges one task of job id from its records, with the job's
// record's distrusted workers left out.
func (c *Client) taskVerdict(ctx context.Context, id string, task int, p *queue.Plan) (verdict, *queue.JobInfo, error) {
	info, err := c.Job(ctx, id)
	if err != nil {
		return verdict{}, nil, err
	}
	recs, ats, err := c.taskRecords(ctx, id, task, p)
	if err != nil {
		return verdict{}, nil, err
	}
	named, err := c.distrustRecords(ctx, id)
	if err != nil {
		return verdict{}, nil, err
	}
	for _, d := range named {
		if !queue.Distrusts(info.Distrusted, d.Worker) {
			info.Distrusted = append(info.Distrusted, d)
		}
	}
	return judge(opinions(recs, ats, func(w string) bool { return queue.Distrusts(info.Distrusted, w) })), info, nil
}

// distrustSubject is where the workers outvoted on a task of job id are
// named (KindDistrust failure records): one subject a job, task -1.
func distrustSubject(id string) string { return layout.Subject(layout.FailPrefix, id, -1) }

// distrustRecords reads the workers named outvoted on job id's distrust
// subject.
func (c *Client) distrustRecords(ctx context.Context, id string) ([]queue.Distrust, error) {
	rs, err := c.js.Stream(ctx, queue.ResultsStream)
	if err != nil {
		return nil, err
	}
	var out []queue.Distrust
	for seq := uint64(1); ; {
		m, err := rs.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(distrustSubject(id)))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		seq = m.Sequence + 1
		var f queue.Failure
		if json.Unmarshal(m.Data, &f) == nil && f.Kind == queue.KindDistrust && f.Distrust != nil && queue.CheckWorkerID(f.Distrust.Worker) == nil {
			out = append(out, *f.Distrust)
		}
	}
}

// distrust records the outvoted workers in job id's record and has what
// they counted or verified counted again by others (verify tasks
// addressed to live workers without a result of the task, published by
// the worker's recount).
func (c *Client) distrust(ctx context.Context, id string, ds []queue.Distrust, recount clientconn.Recount) error {
	// A record on the job's failure subjects names them for every
	// reader; the job's record too, where this client may write it (not
	// a worker's on a server with roles), for the workers watching it.
	for _, d := range ds {
		f, _ := json.Marshal(queue.Failure{Job: id, Task: d.Task, Kind: queue.KindDistrust, Worker: d.Worker, Error: "outvoted", Distrust: &d, Time: time.Now().UTC()})
		if _, err := c.js.Publish(ctx, distrustSubject(id), f, jetstream.WithMsgID("distrust."+id+"."+d.Worker)); err != nil {
			return fmt.Errorf("naming the outvoted workers: %w", err)
		}
	}
	var added []string
	if c.user != queue.WorkerUser {
		if _, err := c.updateJob(ctx, id, func(j *queue.JobInfo) bool {
			added = added[:0]
			for _, d := range ds {
				if !queue.Distrusts(j.Distrusted, d.Worker) {
					j.Distrusted = append(j.Distrusted, d)
					added = append(added, d.Worker)
				}
			}
			return len(added) > 0
		}); err != nil {
			return fmt.Errorf("naming the outvoted workers: %w", err)
		}
	}
	for _, d := range ds {
		if c.user == queue.WorkerUser || slices.Contains(added, d.Worker) {
			c.logf("job %s: worker %s is outvoted on task %d (it says %d, %s say %d): its results are left out and counted again", id, d.Worker, d.Task, d.Count, strings.Join(d.Agree, ", "), d.Majority)
		}
	}
	return c.recountDistrusted(ctx, id, recount)
}

// recountDistrusted has what job id's distrusted workers counted or
// verified counted again by others, where the others' records do not
// settle the task yet. A distrusted worker that stores a record after
// the distrust's own pass calls it too (Conn.RecountDistrusted): each
// record is stored before the distrust is read or after it is named, so
// one of the two passes sees it.
func (c *Client) recountDistrusted(ctx context.Context, id string, recount clientconn.Recount) error {
	_, col, err := c.read(ctx, id, false)
	if err != nil {
		return fmt.Errorf("reading the results to recount the outvoted workers': %w", err)
	}
	verdicts, distrusted := col.judgeAll()
	for task, vd := range verdicts {
		from := ""
		var exclude []string
		for _, r := range col.recs[task] {
			exclude = append(exclude, r.Worker)
			if from == "" && queue.Distrusts(distrusted, r.Worker) {
				from = queue.WorkerToken(r.Worker)
			}
		}
		need := 1
		if col.chosen[task] {
			need = 2
		}
		if from == "" || vd.conflict || vd.agree() >= need {
			continue
		}
		for _, d := range distrusted {
			exclude = append(exclude, d.Worker)
		}
		for range need - vd.agree() {
			if _, err := recount(ctx, id, task, col.plan, from, exclude); err != nil {
				return fmt.Errorf("asking for a recount of task %d: %w", task, err)
			}
		}
	}
	return nil
}
