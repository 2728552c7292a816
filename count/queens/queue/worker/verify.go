package worker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
)

// The hand-off of verify tasks (--verify): a task chosen for a second
// count must be counted again by another worker than the one that
// counted it first, and a worker must never be handed its own task back
// and forth. So a verify task is addressed:
//
//	nqcount.verify.JOB.ID.FROM.TO
//
// where FROM is the token (see token) of the worker that counted the task
// and TO that of a live worker other than FROM, chosen at random from the
// workers bucket when the count is published ("any" when there was none).
// Each worker pulls only the verify tasks addressed to it, through its
// own durable consumer "verify-TOKEN" (filter nqcount.verify.*.*.*.TOKEN,
// removed by the server after verifyInactive without a pull).
//
// An addressee may die, or there may have been none. A worker with a free
// slot and no count task to do looks, now and then (rescueEvery), at the
// verify tasks without a verified record: one whose addressees have all
// stopped reporting, and that it did not count, it takes over by
// addressing a copy to itself (the stream refuses a second message on a
// subject, so a copy is made once per addressee). Two workers that take
// over the same task both count it: harmless, the records agree. A task
// whose counter is the only live worker waits for a second one; status
// says "unverified: no second worker", wait gives up after
// unverifiedGrace, and a worker started later takes it over.
const (
	verifyInactive = 24 * time.Hour
)

// rescueEvery is how often an idle worker looks for verify tasks left by
// workers that are gone (tests shorten it); it takes over at most
// rescueLimit per slot at a time, and looks again once they are counted.
var rescueEvery = 2 * time.Second

const rescueLimit = 8

// verifier does a worker's part in verification: it addresses the
// verify tasks of its counts to other live workers, pulls those addressed
// to it, and takes over the ones whose addressees are gone. Its one lock
// guards its view of the live workers.
type verifier struct {
	c     *conn
	token string             // this worker's
	tasks jetstream.Consumer // the count tasks (to tell when all are done)
	cfg   jetstream.ConsumerConfig
	mine  jetstream.Consumer // the verify tasks addressed to this worker
	slots int
	logf  func(string, ...any)
	tally *tally
	// cannot reports the jobs this worker cannot count (its memory);
	// refusedInARow the tasks it refused since it last counted one.
	cannot        func(jobID string) bool
	refusedInARow func() int

	mu     sync.Mutex
	live   map[string]layout.LiveWorker // the live workers by token
	liveAt time.Time

	// The dispatcher's goroutine only:
	lastRescue time.Time
	rescued    bool // the last rescue took tasks over
}

// verifyConsumer returns the configuration of the consumer of the verify
// tasks addressed to the worker with token tok; like is the workers
// consumer's, whose ack wait, back-off and deliveries it takes.
func verifyConsumer(tok string, like jetstream.ConsumerConfig) jetstream.ConsumerConfig {
	return jetstream.ConsumerConfig{
		Durable:           "verify-" + tok,
		Description:       "n-queens verify tasks addressed to one worker",
		FilterSubject:     layout.VerifyPrefix + ".*.*.*." + tok,
		AckPolicy:         jetstream.AckExplicitPolicy,
		DeliverPolicy:     jetstream.DeliverAllPolicy,
		AckWait:           like.AckWait,
		MaxDeliver:        like.MaxDeliver,
		BackOff:           like.BackOff,
		MaxAckPending:     1000,
		InactiveThreshold: verifyInactive,
	}
}

// ensure creates (or finds) this worker's verify consumer.
func (v *verifier) ensure(ctx context.Context) error {
	c, err := v.c.js.CreateOrUpdateConsumer(ctx, queue.TasksStream, v.cfg)
	if err != nil {
		return fmt.Errorf("consumer %s: %w", v.cfg.Durable, err)
	}
	v.mine = c
	return nil
}

// liveTokens returns the tokens of the workers that reported recently
// and have not stopped, from a view of the bucket at most maxAge old.
func (v *verifier) liveTokens(ctx context.Context, maxAge time.Duration) (map[string]layout.LiveWorker, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.live != nil && time.Since(v.liveAt) <= maxAge {
		return v.live, nil
	}
	reps, now, err := layout.ReadReports(ctx, v.c.js)
	if err != nil {
		return nil, err
	}
	live := map[string]layout.LiveWorker{}
	for i := range reps {
		if reps[i].Active(now) {
			live[queue.WorkerToken(reps[i].ID)] = layout.LiveWorker{ID: reps[i].ID, Memory: reps[i].Memory}
		}
	}
	v.live, v.liveAt = live, time.Now()
	return live, nil
}

// publish publishes the verify task of a task chosen for one, addressed
// to a live worker other than its counter; counter is the worker whose
// count was stored.
func (v *verifier) publish(ctx context.Context, m queue.TaskMsg, counter string, p *queue.Plan) error {
	if !m.Verify {
		return nil
	}
	from := queue.WorkerToken(counter)
	to := layout.AnyWorker
	// A view of the bucket a few seconds old will do, unless it shows no
	// other worker: then one that started since is looked for.
	for _, maxAge := range []time.Duration{5 * time.Second, time.Second} {
		live, err := v.liveTokens(ctx, maxAge)
		if err != nil {
			v.logf("reading the workers bucket: %v (the verify task of %s.%d goes to any worker)", err, m.ID, m.Task)
			break
		}
		var others []string
		for t, l := range live {
			if t != from && l.CanCount(p) {
				others = append(others, t)
			}
		}
		if len(others) > 0 {
			to = others[rand.IntN(len(others))]
			break
		}
	}
	body, _ := json.Marshal(queue.TaskMsg{ID: m.ID, Task: m.Task, CountedBy: counter})
	if err := v.c.Publish(ctx, ctx, layout.VerifySubject(m.ID, m.Task, from, to), body, jetstream.WithExpectLastSequencePerSubject(0)); err != nil {
		return fmt.Errorf("publishing the verify task: %w", err)
	}
	return nil
}

// hasTask reports whether a verify task of the task was published before
// (by a counter that died before acknowledging its task).
func (v *verifier) hasTask(ctx context.Context, jobID string, task int) (bool, error) {
	subjects, err := v.taskSubjects(ctx, jobID, task)
	return len(subjects) > 0, err
}

// taskSubjects returns the subjects of the verify tasks of the task.
func (v *verifier) taskSubjects(ctx context.Context, jobID string, task int) (map[string]uint64, error) {
	ts, err := v.c.js.Stream(ctx, queue.TasksStream)
	if err != nil {
		return nil, err
	}
	info, err := ts.Info(ctx, jetstream.WithSubjectFilter(fmt.Sprintf("%s.%s.%d.>", layout.VerifyPrefix, jobID, task)))
	if err != nil {
		return nil, err
	}
	return info.State.Subjects, nil
}

// verifyLeft is what rescue found among the verify tasks not verified.
type verifyLeft struct {
	claimed int // taken over by this worker now
	waiting int // addressed to another live worker, or left for later
	mine    int // counted by this worker, with no live addressee
}

// rescue takes over, up to limit, the verify tasks not yet verified whose
// addressees have all stopped (or that had none), unless this worker
// counted them.
func (v *verifier) rescue(ctx context.Context, limit int) (verifyLeft, error) {
	var left verifyLeft
	ts, err := v.c.js.Stream(ctx, queue.TasksStream)
	if err != nil {
		return left, err
	}
	ti, err := ts.Info(ctx, jetstream.WithSubjectFilter(layout.VerifyPrefix+".>"))
	if err != nil || len(ti.State.Subjects) == 0 {
		return left, err
	}
	rs, err := v.c.js.Stream(ctx, queue.ResultsStream)
	if err != nil {
		return left, err
	}
	ri, err := rs.Info(ctx, jetstream.WithSubjectFilter(layout.VerifiedPrefix+".>"))
	if err != nil {
		return left, err
	}
	live, err := v.liveTokens(ctx, 0)
	if err != nil {
		return left, err
	}
	type open struct {
		job       string
		task      int
		from      string
		addressed bool // to a live worker other than this one
	}
	tasks := map[string]*open{} // by their verified records' subject, as senders
	// A task's verify subjects have as many senders as counts were
	// asked of it (its counter's, then a recount's); copies taken over
	// keep their sender. A task with fewer verify records than senders
	// is open.
	senders := map[string]map[string]bool{}
	for subj := range ti.State.Subjects {
		if jobID, task, from, _, ok := layout.ParseVerifySubject(subj); ok {
			k := layout.Subject(layout.VerifiedPrefix, jobID, task)
			if senders[k] == nil {
				senders[k] = map[string]bool{}
			}
			senders[k][from] = true
		}
	}
	for subj := range ti.State.Subjects {
		jobID, task, from, to, ok := layout.ParseVerifySubject(subj)
		sk := layout.Subject(layout.VerifiedPrefix, jobID, task)
		if !ok || ri.State.Subjects[sk] >= uint64(len(senders[sk])) {
			continue
		}
		o := tasks[sk]
		if o == nil {
			o = &open{job: jobID, task: task, from: from}
			tasks[sk] = o
		}
		// A task addressed to this worker and not verified was set
		// aside by it (its consumer holds nothing when rescue runs):
		// it does not wait for anyone. Nor does it wait for a sender:
		// a worker that asked for a count of the task has a result of
		// it already (the one that took over the first ask, say).
		if to != v.token && live[to].ID != "" && !senders[sk][to] {
			o.addressed = true
		}
	}
	for sk, o := range tasks {
		switch {
		case o.addressed:
			left.waiting++
		case senders[sk][v.token]: // this worker asked for a count of it: it has a result
			left.mine++
		case v.cannot != nil && v.cannot(o.job):
			// For a worker that can count it.
		case left.claimed >= limit:
			left.waiting++
		default:
			body, _ := json.Marshal(queue.TaskMsg{ID: o.job, Task: o.task})
			_, err := v.c.js.Publish(ctx, layout.VerifySubject(o.job, o.task, o.from, v.token), body, jetstream.WithExpectLastSequencePerSubject(0))
			if layout.AlreadyThere(err) {
				continue // this worker had it, and set it aside
			}
			if err != nil {
				return left, err
			}
			left.claimed++
		}
	}
	if left.claimed > 0 {
		v.tally.add(func(s *Stats) { s.Rescued += left.claimed })
	}
	return left, nil
}

// errIdle ends Work with ExitWhenIdle.
var errIdle = errors.New("idle")

// other pulls up to n verify tasks addressed to this worker when no count
// task came; now and then it takes over verify tasks left by workers that
// are gone; with allFree (no task held) and exitWhenIdle it returns
// errIdle when nothing is left for this worker to do.
func (v *verifier) other(ctx context.Context, n int, allFree, exitWhenIdle bool) ([]jetstream.Msg, error) {
	b, err := v.mine.FetchNoWait(n)
	var msgs []jetstream.Msg
	if err == nil {
		for m := range b.Messages() {
			msgs = append(msgs, m)
		}
		err = b.Error()
	}
	if len(msgs) > 0 {
		return msgs, nil
	}
	if err != nil && !errors.Is(err, jetstream.ErrNoMessages) && !errors.Is(err, nats.ErrTimeout) {
		// The server removes a consumer after verifyInactive without
		// a pull: make it again (it redelivers what it had).
		if _, ierr := v.mine.Info(ctx); errors.Is(ierr, jetstream.ErrConsumerNotFound) {
			return nil, v.ensure(ctx)
		}
		return nil, err
	}
	idleCheck := exitWhenIdle && allFree
	if !idleCheck && !v.rescued && time.Since(v.lastRescue) < rescueEvery {
		return nil, nil
	}
	if idleCheck {
		// Count tasks first: while any is left or held, this worker
		// may get it (or one a dying worker held).
		ti, err := v.tasks.Info(ctx)
		if err != nil {
			return nil, err
		}
		// Tasks waiting that this worker refused, every one of them
		// in a row (each passed on to the end of the queue), are for
		// workers with more memory: not this worker's to wait for.
		unfit := v.refusedInARow != nil && ti.NumPending > 0 && uint64(v.refusedInARow()) >= ti.NumPending
		if ti.NumPending > 0 && !unfit || ti.NumAckPending > 0 {
			return nil, nil
		}
		if unfit {
			v.tally.add(func(s *Stats) { s.Unfit = int(ti.NumPending) })
		}
		mi, err := v.mine.Info(ctx)
		if err != nil {
			return nil, err
		}
		if mi.NumPending > 0 || mi.NumAckPending > 0 {
			return nil, nil
		}
	}
	v.lastRescue = time.Now()
	left, err := v.rescue(ctx, rescueLimit*v.slots)
	if err != nil {
		return nil, err
	}
	v.rescued = left.claimed > 0 // look again once they are counted
	if idleCheck && left.claimed == 0 && left.waiting == 0 {
		v.tally.add(func(s *Stats) { s.MineToVerify = left.mine })
		return nil, errIdle
	}
	return nil, nil
}

// readdress hands a verify task addressed to this worker, which cannot
// count it (its memory), to a live worker that can: a copy addressed to
// it, or to any worker when none is live.
func (v *verifier) readdress(ctx context.Context, t *task) error {
	_, _, from, _, ok := layout.ParseVerifySubject(t.msg.Subject())
	if !ok {
		return errors.New("not a verify task subject")
	}
	live, err := v.liveTokens(ctx, time.Second)
	if err != nil {
		return err
	}
	var cands []string
	for tok, l := range live {
		if tok != from && tok != v.token && l.CanCount(t.plan) {
			cands = append(cands, tok)
		}
	}
	rand.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	body, _ := json.Marshal(queue.TaskMsg{ID: t.m.ID, Task: t.m.Task})
	for _, to := range append(cands, layout.AnyWorker) {
		_, err := v.c.js.Publish(ctx, layout.VerifySubject(t.m.ID, t.m.Task, from, to), body, jetstream.WithExpectLastSequencePerSubject(0))
		if err == nil || layout.AlreadyThere(err) && to == layout.AnyWorker {
			return nil
		}
		if !layout.AlreadyThere(err) {
			return err
		}
	}
	return nil
}
