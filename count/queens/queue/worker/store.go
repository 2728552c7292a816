package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
)

// store publishes what a worker's counts give: result records (then it
// acknowledges the task, and publishes its verify task if it is chosen for
// one) and failures.
type store struct {
	c          *conn
	worker     string // the worker's id
	program    string
	maxDeliver int
	logf       func(string, ...any)
	tally      *tally
	verify     *verifier
	jobs       *jobCache
	// settle compares a verify record, once stored, with the task's
	// others (worker.settle).
	settle func(context.Context, *task)
	// setAside ends the worker (ErrSetAside) saying why.
	setAside func(why string)
	// finishing counts the results being stored.
	finishing sync.WaitGroup
}

// wait waits for the results being stored.
func (s *store) wait() { s.finishing.Wait() }

// result publishes the record of t's count r and, once the server has it,
// acknowledges t; done is called then. It returns at once: the slot counts
// its next task meanwhile.
func (s *store) result(ctx context.Context, t *task, r count.Result, done func()) {
	rec := queue.Record{
		Job: t.m.ID, Hash: t.plan.Hash(), Algorithm: queens.AlgorithmVersion, Task: t.m.Task, Tasks: t.tasks,
		Count: r.Count, Nodes: r.Nodes, Kind: t.kind, Worker: s.worker, Program: s.program,
		Seconds: time.Since(t.started).Seconds(), Time: time.Now().UTC(),
	}
	rec.Seal()
	body, _ := json.Marshal(rec)
	prefix := layout.ResultPrefix
	if t.kind == queue.KindVerify {
		prefix = layout.VerifiedPrefix
	}
	subj := layout.Subject(prefix, t.m.ID, t.m.Task)
	msgID := fmt.Sprintf("%s.%d.%s.%s.%d", t.m.ID, t.m.Task, t.kind, s.worker, t.delivery)
	f, err := s.c.js.PublishAsync(subj, body, jetstream.WithMsgID(msgID))
	s.finishing.Add(1)
	go func() {
		defer s.finishing.Done()
		defer done()
		s.finish(ctx, t, subj, body, msgID, f, err)
	}()
}

// finish waits for the result to be stored (publishing it again if the
// first try failed: a lost connection), publishes the verify task if the
// task was chosen for one, and acknowledges the task.
func (s *store) finish(ctx context.Context, t *task, subj string, body []byte, msgID string, f jetstream.PubAckFuture, err error) {
	// Publishing goes on for a while after an interrupt: the count is
	// done, and storing it saves counting it again.
	// Not when the worker gives up on its server, though.
	pubCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		if errors.Is(context.Cause(ctx), client.ErrUnreachable) {
			cancel()
		}
	})
	defer stop()
	if err == nil {
		select {
		case <-f.Ok():
		case err = <-f.Err():
		case <-pubCtx.Done():
			err = pubCtx.Err()
		}
	}
	if err != nil {
		err = s.c.Publish(pubCtx, ctx, subj, body, jetstream.WithMsgID(msgID))
	}
	if err != nil {
		s.logf("%s: the result could not be stored: %v (the task will be handed out again)", t.msg.Subject(), err)
		t.msg.Nak()
		return
	}
	d, named, err := s.distrusted(pubCtx, t.m.ID)
	if err != nil {
		s.logf("%s: reading whether the job distrusts this worker: %v (the task will be handed out again)", t.msg.Subject(), err)
		t.msg.Nak()
		return
	}
	if named {
		// Named outvoted on the job: every reader leaves this record out.
		// The distrust's own pass had what this worker counted recounted
		// as far as it read; this record may have come after it.
		if err := s.c.RecountDistrusted(pubCtx, t.m.ID, s.verify.recount); err != nil {
			s.logf("%s: outvoted on the job; asking for a recount of its results: %v (the task will be handed out again)", t.msg.Subject(), err)
			t.msg.Nak()
		} else {
			t.msg.Ack()
		}
		s.jobs.outvotedOnce(t.m.ID, d, s.setAsideOutvoted)
		return
	}
	if t.kind == queue.KindCount && !s.jobs.isCancelled(t.m.ID) {
		if err := s.verify.publish(pubCtx, t.m, s.worker, t.plan); err != nil {
			s.logf("%s: %v", t.msg.Subject(), err)
			t.msg.Nak()
			return
		}
	}
	t.msg.Ack()
	s.tally.add(func(st *Stats) {
		s.tally.failStreak = 0
		if t.kind == queue.KindCount {
			st.Counted++
		} else {
			st.Verified++
		}
	})
	if t.kind == queue.KindVerify && s.settle != nil {
		s.settle(pubCtx, t)
	}
}

// distrusted reports whether job id names this worker outvoted (and
// how), read after the worker's record is stored (see Client's
// recountDistrusted).
func (s *store) distrusted(ctx context.Context, id string) (queue.Distrust, bool, error) {
	ds, err := s.c.DistrustRecords(ctx, id)
	if err != nil {
		return queue.Distrust{}, false, err
	}
	d, named := queue.DistrustOf(ds, s.worker)
	return d, named, nil
}

// setAsideOutvoted ends the worker: job id names it outvoted.
func (s *store) setAsideOutvoted(id string, d queue.Distrust) {
	s.setAside(fmt.Sprintf("outvoted on task %d of job %s (it said %d, %s say %d): its results are left out and counted again by others; check this machine (memory, overclocking, the program) before starting it again", d.Task, id, d.Count, strings.Join(d.Agree, ", "), d.Majority))
}

// hasCount reports whether a valid count of t is stored, by a worker the
// job does not distrust, and which worker counted it.
func (s *store) hasCount(ctx context.Context, t *task) (string, bool) {
	rs, err := s.c.js.Stream(ctx, queue.ResultsStream)
	if err != nil {
		return "", false
	}
	last, err := rs.GetLastMsgForSubject(ctx, layout.Subject(layout.ResultPrefix, t.m.ID, t.m.Task))
	if err != nil {
		return "", false
	}
	var r queue.Record
	if json.Unmarshal(last.Data, &r) != nil || r.Check(t.m.ID, t.plan) != nil || r.Task != t.m.Task {
		return "", false
	}
	if ds, err := s.c.DistrustRecords(ctx, t.m.ID); err != nil || queue.Distrusts(ds, r.Worker) {
		return "", false
	}
	return r.Worker, true
}

// failed records a failed or refused task and hands it back for later, or
// sets it aside at its last delivery.
func (s *store) failed(ctx context.Context, t *task, err error, refused bool) {
	last := s.maxDeliver > 0 && t.delivery >= uint64(s.maxDeliver)
	if !refused {
		streak := s.tally.failed()
		if streak >= failLimit && s.setAside != nil {
			s.setAside(fmt.Sprintf("its last %d counts failed (the last: %v): it takes no more tasks; check this machine before starting it again", streak, err))
		}
	}
	f := queue.Failure{Job: t.m.ID, Task: t.m.Task, Kind: t.kind, Worker: s.worker, Error: err.Error(), Delivery: t.delivery, SetAside: last, Time: time.Now().UTC()}
	body, _ := json.Marshal(f)
	pubCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if perr := s.c.Publish(pubCtx, ctx, layout.Subject(layout.FailPrefix, t.m.ID, t.m.Task), body); perr != nil {
		s.logf("%s: recording the failure: %v", t.msg.Subject(), perr)
	}
	if last {
		s.logf("%s: %v; delivered %d times: set aside (see nqueens status %s; nqueens requeue %s puts it back)", t.msg.Subject(), err, t.delivery, t.m.ID, t.m.ID)
		t.msg.TermWithReason(err.Error())
		return
	}
	if !refused {
		s.logf("%s: %v (delivery %d; retried later)", t.msg.Subject(), err, t.delivery)
	}
	t.msg.NakWithDelay(retryDelay(t.delivery))
}

// retryDelay is the wait before a failed task is handed out again, after
// its delivery-th failure.
func retryDelay(delivery uint64) time.Duration {
	d := time.Second << min(delivery, 6)
	return min(d, time.Minute)
}
