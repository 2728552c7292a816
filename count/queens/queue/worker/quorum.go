package worker

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/internal/clientconn"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
)

// settle is a worker's part in a quorum, once it has stored a verify
// record of t: results that disagree are counted again by a worker
// without one of them; once one stands, the outvoted workers are
// distrusted for the job and what they counted is counted again. Only
// workers that can count the task (in their memory) are asked.
func (w *worker) settle(ctx context.Context, t *task) {
	v, info, err := w.c.TaskVerdict(ctx, t.m.ID, t.m.Task, t.plan)
	if err != nil {
		w.logf("%s: reading the task's results to compare them: %v", t.msg.Subject(), err)
		return
	}
	switch {
	case v.Conflict:
		w.tally.add(func(s *Stats) { s.Conflicts++ })
		var says []string
		for _, o := range v.Opinions {
			says = append(says, fmt.Sprintf("%s says %d", strings.Join(o.Workers, ", "), o.Count))
		}
		to, err := w.verify.recount(ctx, t.m.ID, t.m.Task, t.plan, w.token, resulted(v, info))
		if err != nil {
			w.logf("task %d of %s: results disagree (%s); asking for a recount: %v", t.m.Task, t.m.ID, strings.Join(says, "; "), err)
			return
		}
		w.logf("task %d of %s: results disagree (%s): a recount is asked of %s", t.m.Task, t.m.ID, strings.Join(says, "; "), to)
	case v.Agree() == 1 && len(info.Distrusted) > 0 && t.m.Task < info.Tasks && info.Chosen()[t.m.Task]:
		// A task chosen for verification whose other results are a
		// distrusted worker's: the distrust's recount asks two workers
		// for it, but when fewer were live it asked any one, and the
		// record that worker stores closes the look for workers gone
		// (rescue). The job would wait for ever for a second count:
		// ask for it here, unless a live worker is asked already.
		asked, err := w.verify.asked(ctx, t.m.ID, t.m.Task, v)
		if err != nil {
			w.logf("task %d of %s: reading its verify tasks to ask for a second count: %v", t.m.Task, t.m.ID, err)
			return
		}
		if asked {
			return
		}
		if _, err := w.verify.recount(ctx, t.m.ID, t.m.Task, t.plan, w.token, resulted(v, info)); err != nil {
			w.logf("task %d of %s: asking for a second count of a task its distrusted worker counted: %v", t.m.Task, t.m.ID, err)
		}
	case len(v.Outvoted) > 0:
		var ds []queue.Distrust
		for _, o := range v.Outvoted {
			for _, wk := range o.Workers {
				ds = append(ds, queue.Distrust{Worker: wk, Task: t.m.Task, Count: o.Count, Majority: v.Standing.Count, Agree: v.Standing.Workers, Time: time.Now().UTC()})
			}
		}
		if err := w.c.Distrust(ctx, t.m.ID, ds, w.verify.recount); err != nil {
			w.logf("task %d of %s: %v", t.m.Task, t.m.ID, err)
		}
	}
}

// resulted lists the workers a recount of a task is not asked of: those
// with a result of it (v's opinions) and the job's distrusted ones.
func resulted(v clientconn.Verdict, info *queue.JobInfo) []string {
	var ws []string
	for _, o := range v.Opinions {
		ws = append(ws, o.Workers...)
	}
	for _, d := range info.Distrusted {
		ws = append(ws, d.Worker)
	}
	return ws
}

// asked reports whether a verify task of task is addressed to a live
// worker other than this one without a result of it (v: the task's
// verdict).
func (v *verifier) asked(ctx context.Context, jobID string, task int, vd clientconn.Verdict) (bool, error) {
	subjects, err := v.taskSubjects(ctx, jobID, task)
	if err != nil {
		return false, err
	}
	live, err := v.liveTokens(ctx, time.Second)
	if err != nil {
		return false, err
	}
	for subj := range subjects {
		_, _, _, to, ok := layout.ParseVerifySubject(subj)
		if !ok || to == v.token {
			continue
		}
		if l := live[to]; l.ID != "" && !vd.Has(l.ID) {
			return true, nil
		}
	}
	return false, nil
}

// recount publishes a verify task of task, from the worker with token
// from, addressed to a live worker that is not among exclude (worker
// ids: those with a result of the task, the distrusted), or to any worker
// when none is live; it returns the addressee's id ("any").
func (v *verifier) recount(ctx context.Context, jobID string, task int, p *queue.Plan, from string, exclude []string) (string, error) {
	live, err := v.liveTokens(ctx, time.Second)
	if err != nil {
		v.logf("reading the workers bucket: %v (the recount of %s.%d goes to any worker)", err, jobID, task)
	}
	ex := map[string]bool{from: true}
	for _, w := range exclude {
		ex[queue.WorkerToken(w)] = true
	}
	var cands []string
	for t, l := range live {
		if !ex[t] && l.CanCount(p) {
			cands = append(cands, t)
		}
	}
	rand.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	cands = append(cands, layout.AnyWorker)
	body, _ := json.Marshal(queue.TaskMsg{ID: jobID, Task: task})
	for _, to := range cands {
		_, err := v.c.js.Publish(ctx, layout.VerifySubject(jobID, task, from, to), body, jetstream.WithExpectLastSequencePerSubject(0))
		if layout.AlreadyThere(err) {
			continue
		}
		if err != nil {
			return "", err
		}
		if l := live[to]; l.ID != "" {
			return l.ID, nil
		}
		return to, nil
	}
	return layout.AnyWorker, nil
}
