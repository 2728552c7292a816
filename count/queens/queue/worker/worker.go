// Package worker is the queue's worker: Work counts the tasks a queue's
// server hands it, through a client's connection (package client), and
// publishes their results. A front end that only submits or reads links
// none of it; it links no NATS server.
package worker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/count/queens/kernel"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/internal/clientconn"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
)

// A worker (Work) is made of small parts, each with one job and at
// most one lock:
//
//   - puller (pull.go) fetches count tasks ahead of the free slots;
//   - dispatcher (dispatch.go) gives each free slot a task, and when none
//     comes looks for verify tasks and, with ExitWhenIdle, for the end;
//   - the handling of one task (handle.go) checks it, counts its unit
//     (unitCounter, unit.go, with the jobs' plans from jobCache,
//     jobcache.go) and hands the result to the store (store.go), which
//     publishes it and acknowledges the task;
//   - verifier (verify.go) hands verify tasks to other workers and takes
//     over those whose addressee is gone;
//   - heart (beat.go) keeps every held task alive while it makes progress;
//   - tally (tally.go) keeps the counts and the held tasks that the
//     worker's reports (reports.go) and its stats say.

// Config configures Work.
type Config struct {
	// Execution is how the worker counts: Workers tasks at once (0:
	// runtime.GOMAXPROCS(0)); Kernel names the kernel ("" or "auto": the
	// fastest), a backtracking kernel (count/queens/kernel) for the jobs
	// counted by backtracking, a join kernel (count/queens/join) for the
	// jobs counted by the join, the other kind getting its fastest;
	// Memory bounds what its counts may take (0: the same default as
	// nqueens count), so that a join job whose tables leave room for
	// fewer tasks than Workers is counted that many at a time and one
	// whose tables alone do not fit is refused, for a worker with more
	// memory. Path must be "" or "auto": each job's plan chooses its own.
	queens.Execution
	// ID names the worker in results and status; "" makes one from the
	// host name, the process id and a random suffix.
	ID string
	// Program is this program's version, recorded in each result.
	Program string
	// ExitWhenIdle returns once no task is left to hand out nor held by
	// any worker (one that dies would leave its tasks to this one), but
	// tasks this worker cannot count in its memory.
	ExitWhenIdle bool
	// GiveUpAfter, with ExitWhenIdle, ends Work with client.ErrUnreachable once
	// no server has been reachable for that long (0: never), so that a
	// batch job does not spend its time waiting for a server that is
	// gone.
	GiveUpAfter time.Duration
	// Finish makes a cancelled Work finish the tasks it holds (and
	// publish them) before returning; without it they are handed back
	// at once (Nak), for another worker.
	Finish bool
	// Logf, if set, reports what a person running the worker should know:
	// refused and failed tasks, lost connections.
	Logf func(format string, args ...any)

	// Test hooks: tamper changes a result before it is published; fail
	// makes a count fail; countTask, if set, counts in the kernel's place
	// (through the engine, as a kernel does).
	tamper    func(jobID string, task int, kind string, r count.Result) count.Result
	fail      func(jobID string, task int) error
	countTask func(ctx context.Context, jobID string, task int, progress func(nodes uint64)) (count.Result, error)
}

// Stats sums up what Work did.
type Stats struct {
	ID       string `json:"worker"`
	Counted  int    `json:"counted"`  // tasks counted and published
	Verified int    `json:"verified"` // verify tasks counted and published
	Skipped  int    `json:"skipped"`  // redelivered tasks found already done
	Returned int    `json:"returned"` // tasks handed back (interrupted)
	Failed   int    `json:"failed"`   // counts that failed
	Refused  int    `json:"refused"`  // tasks of a job this program plans differently, or that do not fit in memory
	// Cancelled counts the tasks dropped because their job was
	// cancelled.
	Cancelled int `json:"cancelled"`
	// Abandoned counts the tasks given up because they stopped making
	// progress (a hung kernel): the server hands them to another worker.
	Abandoned int `json:"abandoned"`
	// Rescued counts the verify tasks taken over from workers that were
	// gone (or never were).
	Rescued int    `json:"rescued"`
	Nodes   uint64 `json:"nodes"` // the counted tasks' nodes
	// MineToVerify counts the verify tasks this worker left at exit for
	// a second worker: it counted them, and no other worker was there.
	MineToVerify int `json:"left_to_verify"`
	// Conflicts counts this worker's verifications that disagreed with
	// another worker's result (each asked a recount).
	Conflicts int `json:"conflicts,omitempty"`
	// SetAside says why the worker set itself aside (ErrSetAside).
	SetAside string `json:"set_aside,omitempty"`
	// Unfit counts the tasks left in the queue at exit that this worker
	// cannot count in its memory (ExitWhenIdle): for a worker with more.
	Unfit int `json:"left_unfit,omitempty"`
}

// ErrSetAside is wrapped by Work's error when the worker set itself
// aside: outvoted on a task (its results disagreed with a majority of
// other workers'), or its counts failed too often in a row.
var ErrSetAside = errors.New("worker set aside")

// conn is the client's connection, as package client lends it.
type conn struct {
	clientconn.Conn
	nc *nats.Conn
	js jetstream.JetStream
}

// worker is one Work: its parts (see above).
type worker struct {
	c     *conn
	cfg   Config
	logf  func(string, ...any)
	token string // this worker's name in subjects

	tasks  jetstream.Consumer // the count tasks, shared by every worker
	tally  *tally
	heart  *heart
	jobs   *jobCache
	units  *unitCounter
	store  *store
	verify *verifier
	// refusals paces the fetches while the tasks do not fit.
	refusals refusals
}

// Work counts tasks from the queue of c until ctx is done (or, with
// ExitWhenIdle, until the queue is empty), cfg.Workers at a time. Each task
// is counted with this machine's kernels, its Record published, and then
// acknowledged; a task is never acknowledged before its result is stored.
// A cancelled Work hands its tasks back (or, with Finish, finishes them)
// and returns ctx's error with the stats.
func Work(ctx context.Context, c *client.Client, cfg Config) (*Stats, error) {
	cc := clientconn.Of(c)
	nc, js := cc.NATS()
	w, err := (&conn{Conn: cc, nc: nc, js: js}).newWorker(ctx, cfg)
	if err != nil {
		return nil, err
	}
	runCtx, giveUp := context.WithCancelCause(ctx)
	defer giveUp(nil)
	w.store.setAside = func(why string) {
		w.tally.add(func(s *Stats) { s.SetAside = why })
		giveUp(fmt.Errorf("%w: %s", ErrSetAside, why))
	}
	if w.cfg.ExitWhenIdle && w.cfg.GiveUpAfter > 0 {
		go w.watchConnection(runCtx, giveUp)
	}
	go w.jobs.watch(runCtx, w.cancelJob, w.store.setAsideOutvoted)
	err = w.run(runCtx)
	if cause := context.Cause(runCtx); errors.Is(cause, client.ErrUnreachable) || errors.Is(cause, ErrSetAside) {
		err = cause
	}
	return w.tally.result(), err
}

// newWorker checks cfg and makes the worker's parts.
func (c *conn) newWorker(ctx context.Context, cfg Config) (*worker, error) {
	k, err := kernel.Lookup(cfg.Kernel)
	jk, jerr := join.Lookup(cfg.Kernel)
	switch {
	case err != nil && jerr != nil:
		return nil, fmt.Errorf("%w: %v; %v", queens.ErrInvalid, err, jerr)
	case err != nil:
		k = kernel.Best()
	case jerr != nil:
		jk = join.Best()
	}
	if cfg.Path != "" && cfg.Path != "auto" {
		return nil, fmt.Errorf("%w: a worker's path is each job's plan's to choose, not %q", queens.ErrInvalid, cfg.Path)
	}
	cfg.Execution = cfg.Execution.Resolve() // count's defaults
	if cfg.ID == "" {
		cfg.ID = defaultWorkerID()
	} else if err := queue.CheckWorkerID(cfg.ID); err != nil {
		return nil, fmt.Errorf("%w: %v", queens.ErrInvalid, err)
	}
	w := &worker{c: c, cfg: cfg, token: queue.WorkerToken(cfg.ID), logf: cfg.Logf}
	if w.logf == nil {
		w.logf = func(string, ...any) {}
	}
	if err := c.Setup(ctx, queue.Settings{}, false); err != nil {
		return nil, err
	}
	if w.tasks, err = c.js.Consumer(ctx, queue.TasksStream, queue.WorkConsumer); err != nil {
		return nil, fmt.Errorf("consumer %s: %w", queue.WorkConsumer, err)
	}
	cc := w.tasks.CachedInfo().Config
	wait := cc.AckWait
	if len(cc.BackOff) > 0 {
		wait = min(wait, cc.BackOff[0])
	}
	workers, err := c.js.KeyValue(ctx, queue.WorkersBucket)
	if err != nil {
		return nil, fmt.Errorf("bucket %s: %w", queue.WorkersBucket, err)
	}
	w.tally = newTally(cfg.ID, workers)
	w.heart = newHeart(wait/3, wait+wait/3, cfg.Workers, w.logf)
	w.jobs = newJobCache(c, cfg.ID)
	w.units = &unitCounter{kernel: k.Name, joinKernel: jk.Name, slots: cfg.Workers, memory: cfg.Memory, countTask: cfg.countTask}
	w.verify = &verifier{c: c, token: w.token, tasks: w.tasks, slots: cfg.Workers, cfg: verifyConsumer(w.token, cc), logf: w.logf, tally: w.tally, cannot: w.units.cannot, refusedInARow: w.refusals.inARow}
	w.store = &store{c: c, worker: cfg.ID, program: cfg.Program, maxDeliver: cc.MaxDeliver, logf: w.logf, tally: w.tally, verify: w.verify, jobs: w.jobs, settle: w.settle}
	if err := w.verify.ensure(ctx); err != nil {
		return nil, err
	}
	return w, nil
}

// run counts tasks until ctx is done or, with ExitWhenIdle, nothing is
// left: the puller fetches them, the dispatcher hands them to the slots;
// on the way out, tasks not started go back and the others end.
func (w *worker) run(ctx context.Context) error {
	countCtx := ctx
	if w.cfg.Finish {
		countCtx = context.WithoutCancel(ctx)
	}
	var handlers sync.WaitGroup
	stopReports := w.reports(ctx)
	beatCtx, stopBeats := context.WithCancel(context.WithoutCancel(ctx))
	go w.heart.run(beatCtx)
	p := newPuller(w.tasks, 3*w.cfg.Workers, w.cfg.Workers, w.newHeld, w.giveBack, w.logf)
	p.pause = w.refusals.pause
	pulled := p.start(ctx)
	d := &dispatcher{
		slots: w.cfg.Workers, in: p.in, verify: w.verify, exitWhenIdle: w.cfg.ExitWhenIdle, logf: w.logf,
		newHeld: w.newHeld,
		start: func(h held, done func()) {
			handlers.Go(func() {
				defer done()
				defer p.done(h)
				w.handle(ctx, countCtx, h)
			})
		},
	}
	err := d.run(ctx)
	// Tasks that arrived but were not started go back at once.
	p.stop()
	<-pulled
	for h := range p.in {
		w.giveBack(h)
	}
	handlers.Wait()
	w.store.wait()
	stopBeats()
	stopReports()
	return err
}

// watchConnection ends Work (giveUp with client.ErrUnreachable) once the client
// has been without a server for GiveUpAfter.
func (w *worker) watchConnection(ctx context.Context, giveUp context.CancelCauseFunc) {
	t := time.NewTicker(min(time.Second, w.cfg.GiveUpAfter/4+time.Millisecond))
	defer t.Stop()
	var lost time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		switch {
		case w.c.nc.IsConnected():
			lost = time.Time{}
		case lost.IsZero():
			lost = time.Now()
		case time.Since(lost) >= w.cfg.GiveUpAfter:
			giveUp(fmt.Errorf("%w for %v (--exit-when-idle gives up; the tasks this worker held go to others)", client.ErrUnreachable, w.cfg.GiveUpAfter))
			return
		}
	}
}

// cancelJob stops the counts of a job that was cancelled.
func (w *worker) cancelJob(id string) {
	if n := w.tally.cancelJob(id); n > 0 {
		w.logf("job %s was cancelled: stopped %d running tasks", id, n)
	}
}

// defaultWorkerID is host-pid-random: unique even for containers whose
// processes all have pid 1.
func defaultWorkerID() string {
	host, _ := os.Hostname()
	host = strings.Map(func(r rune) rune {
		if queue.WorkerIDChar(r) {
			return r
		}
		return '-'
	}, host)
	if host == "" {
		host = "worker"
	}
	var b [3]byte
	rand.Read(b[:])
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b[:]))
}

// held is a task message this worker holds, kept alive until stop.
type held struct {
	msg  jetstream.Msg
	beat *beat
	stop func()
	// pulled: fetched ahead by the puller, which may fetch another when
	// this one is done.
	pulled bool
}

func (w *worker) newHeld(m jetstream.Msg, pulled bool) held {
	b, stop := w.heart.hold(m)
	return held{m, b, stop, pulled}
}

// giveBack hands a task that was not started back, for another worker.
// A count task is published afresh in its own place, as passOn does, so
// that a task no worker began spends none of its deliveries (under
// --max-deliver 1 a Nak set the tasks a worker had pulled ahead aside
// when it stopped); a verify task, or one whose publication fails within
// handBackWait, is handed back by Nak.
func (w *worker) giveBack(h held) {
	h.stop()
	if !republish(w.c.js, h.msg) {
		h.msg.Nak()
	}
	w.tally.add(func(s *Stats) { s.Returned++ })
}

// handBackWait bounds the publication of a task handed back: a worker
// stopping on a signal does not wait long on a server that does not
// answer.
const handBackWait = 500 * time.Millisecond

// republish publishes a count task's message afresh in its own place
// (delivered 0 times) and acknowledges the one held; false, with the
// message still held, for a verify task or when that fails.
func republish(js jetstream.JetStream, msg jetstream.Msg) bool {
	if strings.HasPrefix(msg.Subject(), layout.VerifyPrefix+".") {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), handBackWait)
	defer cancel()
	if publishAfresh(ctx, js, msg) != nil {
		return false
	}
	msg.Ack()
	return true
}

// publishAfresh publishes a count task's message again on its subject,
// replacing the one held (the stream keeps one message a task): the new
// one is at the end of the queue, delivered 0 times. The caller
// acknowledges the one held.
func publishAfresh(ctx context.Context, js jetstream.JetStream, msg jetstream.Msg) error {
	meta, err := msg.Metadata()
	if err != nil {
		return err
	}
	_, err = js.Publish(ctx, msg.Subject(), msg.Data(), jetstream.WithExpectLastSequencePerSubject(meta.Sequence.Stream))
	return err
}
