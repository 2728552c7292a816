package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
)

// reader follows the records of one job.
type reader struct {
	c    *Client
	info queue.JobInfo
	col  *collector
	iter jetstream.MessagesContext
	read uint64 // messages taken
	// skew is the server's clock less this machine's, as last seen.
	skew time.Duration
}

// now is the server's time now, as far as this reader knows it.
func (r *reader) now() time.Time { return time.Now().Add(r.skew) }

func (c *Client) reader(ctx context.Context, id string) (*reader, error) {
	info, p, err := c.jobPlan(ctx, id)
	if err != nil {
		return nil, err
	}
	// The unique count of a complete job needs the board's symmetric
	// solutions, a search of its own (tenths of a second at n = 17): it
	// runs now, while the job does, and is kept for when it completes.
	go queens.UniqueFrom(info.N, count.Uint128{})
	cons, err := c.js.OrderedConsumer(ctx, queue.ResultsStream, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{layout.ResultPrefix + "." + id + ".>", layout.VerifiedPrefix + "." + id + ".>", layout.FailPrefix + "." + id + ".>"},
	})
	if err != nil {
		return nil, fmt.Errorf("reading the results: %w", err)
	}
	iter, err := cons.Messages()
	if err != nil {
		return nil, fmt.Errorf("reading the results: %w", err)
	}
	return &reader{c: c, info: *info, col: newCollector(*info, p), iter: iter}, nil
}

// jobPlan returns the record and plan of job id: those this client
// submitted it with, or the record read and planned (JobInfo.Plan).
func (c *Client) jobPlan(ctx context.Context, id string) (*queue.JobInfo, *queue.Plan, error) {
	if j, ok := c.submitted.Load(id); ok {
		j := j.(*submittedJob)
		info := j.info
		return &info, j.plan, nil
	}
	info, err := c.Job(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	p, err := info.Plan()
	return info, p, err
}

func (r *reader) stop() { r.iter.Stop() }

// take adds one message of the results stream.
func (r *reader) take(m jetstream.Msg) {
	r.read++
	if strings.HasPrefix(m.Subject(), layout.FailPrefix+".") {
		var f queue.Failure
		if json.Unmarshal(m.Data(), &f) == nil {
			r.col.fail(f)
		}
		return
	}
	var rec queue.Record
	if err := json.Unmarshal(m.Data(), &rec); err != nil {
		_, task, _ := layout.ParseSubject(m.Subject())
		r.col.refused = append(r.col.refused, Refusal{Task: task, Reason: "not a result record: " + err.Error()})
		return
	}
	var at time.Time
	if meta, err := m.Metadata(); err == nil {
		at = meta.Timestamp
	}
	r.col.add(rec, at)
}

// stored returns the number of the job's messages in the results stream.
func (r *reader) stored(ctx context.Context) (uint64, error) {
	rs, err := r.c.js.Stream(ctx, queue.ResultsStream)
	if err != nil {
		return 0, err
	}
	asked := time.Now()
	info, err := rs.Info(ctx, jetstream.WithSubjectFilter("nqcount.*."+r.info.ID+".>"))
	if err != nil {
		return 0, err
	}
	if !info.TimeStamp.IsZero() {
		r.skew = info.TimeStamp.Sub(asked.Add(time.Since(asked) / 2))
	}
	var n uint64
	for _, c := range info.State.Subjects {
		n += c
	}
	return n, nil
}

// catchUp reads every record stored when it is called.
func (r *reader) catchUp(ctx context.Context) error {
	want, err := r.stored(ctx)
	if err != nil {
		return err
	}
	for r.read < want {
		m, err := r.iter.Next(jetstream.NextMaxWait(10 * time.Second))
		if err != nil {
			return err
		}
		r.take(m)
	}
	return nil
}

// follow reads the records that arrive within wait, and returns early
// once every task has a count: the job may be complete, and a caller
// waiting for that should not wait out the rest of the second.
func (r *reader) follow(wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return nil
		}
		m, err := r.iter.Next(jetstream.NextMaxWait(left))
		if errors.Is(err, nats.ErrTimeout) || errors.Is(err, context.DeadlineExceeded) {
			return nil
		}
		if err != nil {
			return err
		}
		r.take(m)
		if r.col.done == len(r.col.recs) {
			return nil
		}
	}
}

// extras reads what is not in the records: the workers' reports, the
// tasks the server gave up on, and whether the job was cancelled.
func (r *reader) extras(ctx context.Context) ([]layout.Report, error) {
	reps, _, err := layout.ReadReports(ctx, r.c.js)
	if err != nil && !errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, err
	}
	info, err := r.c.Job(ctx, r.info.ID)
	if err != nil {
		return nil, err
	}
	r.col.info.Cancelled = info.Cancelled
	lost, err := r.c.lostTasks(ctx, r.info.ID)
	if err != nil {
		return nil, err
	}
	for id, d := range lost {
		if id >= 0 && id < len(r.col.recs) {
			r.col.lost[id] = d
		}
	}
	return reps, nil
}

// lostTasks reads the max-deliveries advisories of the workers' consumer
// and returns the job's tasks they name, with their deliveries.
func (c *Client) lostTasks(ctx context.Context, id string) (map[int]uint64, error) {
	es, err := c.js.Stream(ctx, queue.EventsStream)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	info, err := es.Info(ctx)
	if err != nil || info.State.Msgs == 0 {
		return nil, err
	}
	ts, err := c.js.Stream(ctx, queue.TasksStream)
	if err != nil {
		return nil, err
	}
	cons, err := es.OrderedConsumer(ctx, jetstream.OrderedConsumerConfig{})
	if err != nil {
		return nil, err
	}
	out := map[int]uint64{}
	for left := info.State.Msgs; left > 0; {
		b, err := cons.Fetch(int(min(left, 1000)), jetstream.FetchMaxWait(2*time.Second))
		if err != nil {
			return nil, err
		}
		got := 0
		for m := range b.Messages() {
			got++
			var adv struct {
				Consumer   string `json:"consumer"`
				StreamSeq  uint64 `json:"stream_seq"`
				Deliveries uint64 `json:"deliveries"`
			}
			if json.Unmarshal(m.Data(), &adv) != nil || adv.Consumer != queue.WorkConsumer {
				continue
			}
			tm, err := ts.GetMsg(ctx, adv.StreamSeq)
			if err != nil {
				continue
			}
			if j, task, ok := layout.ParseSubject(tm.Subject); ok && j == id {
				out[task] = adv.Deliveries
			}
		}
		if got == 0 {
			break
		}
		left -= uint64(got)
	}
	return out, nil
}

// Status reads every record of job id and returns its state: the exact
// total once complete.
func (c *Client) Status(ctx context.Context, id string) (s *Status, err error) {
	err = c.retry(ctx, "reading the job's status", func(ctx context.Context) error { s, _, err = c.read(ctx, id, true); return err })
	return s, err
}

// read reads every record of job id stored now and returns the job's
// state, with the collector that read them; with extras, the workers'
// reports and the tasks the server gave up on are read too.
func (c *Client) read(ctx context.Context, id string, extras bool) (*Status, *collector, error) {
	r, err := c.reader(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	defer r.stop()
	if err := r.catchUp(ctx); err != nil {
		return nil, nil, fmt.Errorf("reading the results of %s: %w", id, err)
	}
	var reps []layout.Report
	if extras {
		if reps, err = r.extras(ctx); err != nil {
			return nil, nil, err
		}
	}
	return r.col.status(r.now(), reps), r.col, nil
}

// ErrUnverified is wrapped by Wait's error for a job whose tasks are all
// counted but some of those chosen for verification have no worker to
// count them again: every active worker counted them, or none is active.
// Start another worker (nqueens work) and wait again.
var ErrUnverified = errors.New("unverified: no second worker")

// ErrNoQuorum is wrapped by Wait's error for a job with results that
// disagree when no worker is left that could count them again: every
// active worker has a result of them. Start another worker (nqueens work)
// and wait again.
var ErrNoQuorum = errors.New("no quorum")

// unverifiedGrace is how long Wait waits for a second worker before it
// returns ErrUnverified (tests shorten it).
var unverifiedGrace = 30 * time.Second

// extrasEvery is how often Wait reads the workers' reports.
const extrasEvery = 2 * time.Second

// Wait follows the records of job id until it is complete, calling
// progress (if not nil) with its state every interval, and returns the
// complete state. A conflict does not end it (a recount may settle it);
// progress sees it. A job whose verifications no worker can do
// (ErrUnverified) ends it after unverifiedGrace, with the state.
func (c *Client) Wait(ctx context.Context, id string, interval time.Duration, progress func(*Status)) (*Status, error) {
	var r *reader
	rctx, cancel := c.patient(ctx)
	err := c.retry(rctx, "wait", func(ctx context.Context) (err error) { r, err = c.reader(bounded(ctx), id); return err })
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	if interval <= 0 {
		interval = 10 * time.Second
	}
	defer func() { r.stop() }()
	var (
		failures        int       // reads that failed in a row
		failingSince    time.Time // the first of them
		reps            []layout.Report
		lastExtras      time.Time
		lastReport      time.Time
		caughtUp        bool
		stalled         time.Time // since when no worker can verify what is left
		reportedStalled bool
	)
	for {
		var err error
		if !caughtUp {
			err = r.catchUp(bounded(ctx))
			caughtUp = err == nil
		} else {
			err = r.follow(time.Second)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			if failures == 0 {
				failingSince = time.Now()
				c.logf("reading the results of %s: %v (retrying%s)", id, err, patienceText(c.patience))
			}
			if c.patience > 0 && time.Since(failingSince) >= c.patience {
				return nil, noAnswer("wait "+id, time.Since(failingSince), err)
			}
			time.Sleep(time.Second)
			if failures++; failures%3 == 0 {
				// The consumer that reads them may be gone with its
				// server: read them again from the start.
				if nr, err := c.reader(bounded(ctx), id); err == nil {
					r.stop()
					r, caughtUp = nr, false
				}
			}
			continue
		}
		if failures > 0 {
			c.logf("reading the results of %s again, after %v", id, time.Since(failingSince).Round(time.Second))
		}
		failures = 0
		if time.Since(lastExtras) >= extrasEvery {
			if x, err := r.extras(bounded(ctx)); err == nil {
				reps = x
			}
			if _, err := r.stored(bounded(ctx)); err != nil { // the server's clock
				c.logf("reading the results of %s: %v", id, err)
			}
			lastExtras = time.Now()
		}
		s := r.col.status(r.now(), reps)
		if s.Complete {
			// The workers report every second: reports read within
			// extrasEvery will do, and the caller has its total at once.
			if time.Since(lastExtras) >= extrasEvery {
				if x, err := r.extras(bounded(ctx)); err == nil {
					s = r.col.status(r.now(), x)
				}
			}
			return s, nil
		}
		if s.Cancelled != nil {
			return s, fmt.Errorf("job %s was %w on %s ('nqueens requeue %s' resumes it)", id, ErrCancelled, s.Cancelled.Format("2006-01-02 15:04:05 UTC"), id)
		}
		if s.Stuck && len(s.Conflicts) == 0 {
			return s, fmt.Errorf("job %s: %w: nothing more can finish: %s set aside (%s); see why with 'nqueens status %s', put them back with 'nqueens requeue %s'", id, ErrFailed, plural(s.SetAside, "task", "tasks"), failedList(s.Failed), id, id)
		}
		noQuorum := len(s.Conflicts) > 0 && s.Unsettled == len(s.Conflicts)
		if noQuorum || s.Done == s.Tasks && len(s.Conflicts) == 0 && s.Verify.Pending > 0 && s.Verify.Stalled == s.Verify.Pending {
			if stalled.IsZero() {
				stalled = time.Now()
			}
			if time.Since(stalled) >= unverifiedGrace && noQuorum {
				return s, fmt.Errorf("job %s: %w: %s; no other worker is active to count them again (start another 'nqueens work', then wait again)", id, ErrNoQuorum, conflictList(s.Conflicts))
			}
			if time.Since(stalled) >= unverifiedGrace {
				return s, fmt.Errorf("job %s: %w: %d of the %d tasks chosen for verification wait for a worker other than the one that counted them (start another 'nqueens work', then wait again)", id, ErrUnverified, s.Verify.Stalled, s.Verify.Selected)
			}
			if !reportedStalled && progress != nil {
				progress(s) // say so at once
				reportedStalled, lastReport = true, time.Now()
			}
		} else {
			stalled, reportedStalled = time.Time{}, false
		}
		if time.Since(lastReport) >= interval && progress != nil {
			progress(s)
			lastReport = time.Now()
		}
	}
}

// conflictList says what the workers say of the conflicting tasks, the
// first three.
func conflictList(cs []Conflict) string {
	var parts []string
	for i, c := range cs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more tasks", len(cs)-3))
			break
		}
		says := map[[2]uint64][]string{}
		var order [][2]uint64
		for _, r := range c.Results {
			k := [2]uint64{r.Count, r.Nodes}
			if _, ok := says[k]; !ok {
				order = append(order, k)
			}
			if !slices.Contains(says[k], r.Worker) {
				says[k] = append(says[k], r.Worker)
			}
		}
		var p []string
		for _, k := range order {
			p = append(p, fmt.Sprintf("%s says %d", strings.Join(says[k], ", "), k[0]))
		}
		parts = append(parts, fmt.Sprintf("task %d: %s", c.Task, strings.Join(p, ", ")))
	}
	return strings.Join(parts, "; ")
}

// bounded returns ctx bounded by attemptWait, for one step of Wait: a
// request that a cluster without quorum never answers must not hold Wait
// for its whole context (cancelled when ctx is, or after attemptWait: the
// step's requests are done by then).
func bounded(ctx context.Context) context.Context {
	b, cancel := context.WithTimeout(ctx, attemptWait)
	context.AfterFunc(b, cancel)
	return b
}

// patient returns ctx bounded by the client's patience, if any.
func (c *Client) patient(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.patience > 0 {
		return context.WithTimeout(ctx, c.patience)
	}
	return context.WithCancel(ctx)
}

func patienceText(d time.Duration) string {
	if d > 0 {
		return fmt.Sprintf(" for up to %v", d)
	}
	return ""
}

// failedList names the set-aside tasks of failed, the first ten.
func failedList(failed []queue.Failure) string {
	var ids []string
	for _, f := range failed {
		if !f.SetAside {
			continue
		}
		if len(ids) == 10 {
			ids = append(ids, "...")
			break
		}
		name := fmt.Sprintf("task %d", f.Task)
		if f.Kind == queue.KindVerify {
			name += " (verification)"
		}
		ids = append(ids, name)
	}
	return strings.Join(ids, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Summary says in one line how far a job is and what is wrong with it.
func Summary(s *Status) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d/%d tasks (%.1f%%)", s.Done, s.Tasks, 100*s.Fraction)
	if s.Verify.Selected > 0 {
		fmt.Fprintf(&b, ", %d/%d verified", s.Verify.Verified, s.Verify.Selected)
		if s.Verify.Stalled > 0 {
			fmt.Fprintf(&b, " (%d unverified: no second worker)", s.Verify.Stalled)
		}
	}
	if n := len(s.Conflicts); n > 0 {
		fmt.Fprintf(&b, ", %d CONFLICTING", n)
		if s.Unsettled > 0 {
			fmt.Fprintf(&b, " (%d without a worker to count them again: no quorum)", s.Unsettled)
		}
	}
	if n := len(s.Distrusted); n > 0 {
		fmt.Fprintf(&b, ", %d %s outvoted and distrusted", n, map[bool]string{true: "worker", false: "workers"}[n == 1])
	}
	if n := len(s.Failed); n > 0 {
		fmt.Fprintf(&b, ", %d failed", n)
		if s.SetAside > 0 {
			fmt.Fprintf(&b, " (%d set aside: nqueens requeue)", s.SetAside)
		}
	}
	if s.Cancelled != nil && !s.Complete {
		b.WriteString(", CANCELLED")
	}
	if n := len(s.Refused); n > 0 {
		fmt.Fprintf(&b, ", %d records refused", n)
	}
	if !s.Complete && s.Active == 0 && s.Cancelled == nil && !s.Stuck {
		b.WriteString(", no worker active: start one with nqueens work")
	}
	return b.String()
}
