package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
)

// task is a task message a worker has read and accepted.
type task struct {
	msg      jetstream.Msg
	m        queue.TaskMsg
	kind     string // KindCount or KindVerify
	delivery uint64 // the how-manieth time it is handed out
	plan     *queue.Plan
	units    int   // the job's units, as its record says
	tasks    []int // the plan's tasks the unit holds
	key      string
	started  time.Time // when its count started
}

// handle counts one task and has the store publish its result and
// acknowledge it: read and check it, skip it if it was done before, count
// its unit, store.
func (w *worker) handle(ctx, countCtx context.Context, h held) {
	t, ok := w.accept(ctx, h.msg)
	if !ok {
		h.stop()
		return
	}
	unhold := w.tally.hold(t.key)
	if w.doneBefore(ctx, t) {
		unhold()
		h.stop()
		return
	}
	r, err := w.countUnit(ctx, countCtx, t, h)
	if err != nil {
		unhold()
		h.stop()
		return
	}
	// The result is stored, and the task acknowledged, while the slot
	// counts the next task: small tasks do not wait for the round trips.
	w.store.result(ctx, t, r, func() { unhold(); h.stop() })
}

// accept reads what a task message asks and checks it against its job;
// a message it refuses it has dealt with (set aside, or handed back for
// a worker that can take it).
func (w *worker) accept(ctx context.Context, msg jetstream.Msg) (*task, bool) {
	meta, err := msg.Metadata()
	if err != nil {
		w.logf("a message without metadata on %s: %v", msg.Subject(), err)
		msg.Term()
		return nil, false
	}
	m, kind, err := w.read(msg)
	if err != nil {
		w.logf("%s: not a task for this worker (%v): set aside", msg.Subject(), err)
		msg.TermWithReason("not a task: " + err.Error())
		return nil, false
	}
	t := &task{msg: msg, m: m, kind: kind, delivery: meta.NumDelivered, key: m.ID + "." + strconv.Itoa(m.Task)}
	if w.jobs.isCancelled(m.ID) {
		w.dropCancelled(t)
		return nil, false
	}
	jp, err := w.jobs.plan(ctx, m.ID)
	if err == nil {
		t.plan, t.units = jp.Plan, jp.units
		err = w.units.fits(m.ID, jp.Plan)
	}
	switch {
	case err != nil:
	case m.Task < 0 || m.Task >= t.units:
		err = fmt.Errorf("task %d is not in the plan of job %s (0 to %d)", m.Task, m.ID, t.units-1)
	case len(m.Tasks) > 0 && t.plan.Units == 0:
		err = fmt.Errorf("the message lists tasks, but job %s is not grouped into units", m.ID)
	}
	var noFit *noFitError
	if errors.As(err, &noFit) {
		w.tally.add(func(s *Stats) { s.Refused++ })
		w.passOn(ctx, t, noFit)
		return nil, false
	}
	if err != nil {
		w.tally.add(func(s *Stats) { s.Refused++ })
		w.logf("refusing %s: %v", msg.Subject(), err)
		w.store.failed(ctx, t, err, true)
		return nil, false
	}
	// The unit's tasks, as its message lists them (the result record
	// says which were counted, and readers check them against the
	// units); a message without them (a verify task handed out again)
	// has the worker cut the units itself.
	t.tasks = m.Tasks
	if len(t.tasks) == 0 && t.plan.Units > 0 {
		t.tasks = t.plan.Tasks(m.Task)
	}
	return t, true
}

// read reads what a task message asks: its job and task from the subject
// (the body of a count task says whether it is chosen for verification;
// a verify task's subject names the worker that counted it).
func (w *worker) read(msg jetstream.Msg) (m queue.TaskMsg, kind string, err error) {
	subj := msg.Subject()
	if strings.HasPrefix(subj, layout.VerifyPrefix+".") {
		jobID, task, from, to, ok := layout.ParseVerifySubject(subj)
		switch {
		case !ok || queue.CheckJobID(jobID) != nil:
			return m, "", errors.New("not a verify task subject")
		case to != w.token:
			return m, "", fmt.Errorf("addressed to %s, not to this worker (%s)", to, w.token)
		case from == w.token:
			return m, "", errors.New("addressed to the worker that counted it")
		}
		return queue.TaskMsg{ID: jobID, Task: task}, queue.KindVerify, nil
	}
	if err := json.Unmarshal(msg.Data(), &m); err != nil {
		return m, "", err
	}
	jobID, task, ok := layout.ParseSubject(subj)
	if !ok || queue.CheckJobID(m.ID) != nil || jobID != m.ID || task != m.Task {
		return m, "", errors.New("its body does not match its subject")
	}
	return m, queue.KindCount, nil
}

// doneBefore reports whether the task was done before (and so is
// acknowledged): a count task handed out again whose worker published the
// result and died before acknowledging it, a verify task verified.
func (w *worker) doneBefore(ctx context.Context, t *task) bool {
	switch {
	case t.kind == queue.KindCount && t.delivery > 1:
		counter, ok := w.store.hasCount(ctx, t)
		if !ok {
			return false
		}
		var err error
		if t.m.Verify {
			var there bool
			if there, err = w.verify.hasTask(ctx, t.m.ID, t.m.Task); err == nil && !there {
				err = w.verify.publish(ctx, t.m, counter, t.plan)
			}
		}
		if err != nil {
			w.logf("%s: %v", t.msg.Subject(), err)
			t.msg.Nak()
			return true
		}
	case t.kind == queue.KindVerify:
		// A task this worker has a result of already (a recount
		// taken over), or whose result stands on two workers, needs
		// no count from it.
		v, _, err := w.c.TaskVerdict(ctx, t.m.ID, t.m.Task, t.plan)
		if err != nil || !v.Has(w.cfg.ID) && (v.Standing == nil || v.Agree() < 2) {
			return false
		}
	default:
		return false
	}
	w.tally.add(func(s *Stats) { s.Skipped++ })
	t.msg.Ack()
	return true
}

// countUnit counts the task's unit, at most as many of its job's at once
// as the worker's memory allows; a count that failed or was stopped it has
// dealt with (retried later, handed back, dropped).
func (w *worker) countUnit(ctx, countCtx context.Context, t *task, h held) (count.Result, error) {
	release, err := w.units.acquire(countCtx, t.m.ID)
	if err != nil {
		w.returned(t)
		return count.Result{}, err
	}
	defer release()
	taskCtx, cancel := context.WithCancel(countCtx)
	defer cancel()
	run := w.tally.startTask(t.m.ID, cancel)
	t.started = time.Now()
	if w.cfg.fail != nil {
		err = w.cfg.fail(t.m.ID, t.m.Task)
	}
	var r count.Result
	if err == nil {
		h.beat.task.Store(run)
		r, err = w.units.count(taskCtx, t, run)
		h.beat.task.Store(nil)
	}
	w.tally.endTask(run)
	switch {
	case err == nil:
		w.refusals.counting()
		w.tally.nodes.Add(r.Nodes)
		if w.cfg.tamper != nil {
			r = w.cfg.tamper(t.m.ID, t.m.Task, t.kind, r)
		}
		return r, nil
	case run.cancelled.Load():
		w.dropCancelled(t)
	case run.abandoned.Load():
		// The server hands it out again: its ack wait has passed
		// without a heartbeat.
		w.tally.add(func(s *Stats) { s.Abandoned++ })
	case countCtx.Err() != nil:
		w.returned(t)
	default:
		w.store.failed(ctx, t, err, false)
	}
	return count.Result{}, err
}

// returned hands a task back, for another worker at once.
func (w *worker) returned(t *task) {
	w.tally.add(func(s *Stats) { s.Returned++ })
	t.msg.Nak()
}

// dropCancelled sets aside a task of a cancelled job (nqueens requeue
// puts its job's tasks back).
func (w *worker) dropCancelled(t *task) {
	w.tally.add(func(s *Stats) { s.Cancelled++ })
	t.msg.TermWithReason("job cancelled")
}

// passOn hands a task this worker cannot count in its memory to the
// others without spending a delivery: a count task is published afresh in
// its own place (the new message replaces the one held, at the end of the
// queue, delivered 0 times), a verify task is addressed to a live worker
// that can count it. The worker pulls less for a while (refusals), so
// that a queue of tasks it cannot count does not keep it busy.
func (w *worker) passOn(ctx context.Context, t *task, why error) {
	w.refusals.refused()
	if w.refusals.first(t.m.ID) {
		w.logf("%v", why)
	}
	_, err := t.msg.Metadata()
	if err == nil && t.kind == queue.KindCount {
		err = publishAfresh(ctx, w.c.js, t.msg)
	} else if err == nil {
		err = w.verify.readdress(ctx, t)
	}
	if err != nil {
		// A server whose stream refuses a second message on the
		// subject (one set up by an older version): a delivery it is.
		w.logf("%s: passing it on: %v (handed back)", t.msg.Subject(), err)
		t.msg.NakWithDelay(5 * time.Second)
		return
	}
	t.msg.Ack()
}
