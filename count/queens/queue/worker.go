package queue

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/sync/singleflight"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/count/queens/kernel"
)

// WorkerConfig configures Client.Work.
type WorkerConfig struct {
	// Workers is the number of tasks counted at once; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// Kernel names the kernel; "" or "auto" picks the fastest. A
	// backtracking kernel (count/queens/kernel) is used for the jobs
	// counted by backtracking, a join kernel (count/queens/join) for the
	// jobs counted by the join; the other kind gets its fastest.
	Kernel string
	// ID names the worker in results and status; "" makes one from the
	// host name, the process id and a random suffix.
	ID string
	// Program is this program's version, recorded in each result.
	Program string
	// ExitWhenIdle returns once no task is left to hand out nor held by
	// any worker (one that dies would leave its tasks to this one).
	ExitWhenIdle bool
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

// WorkStats sums up what Work did.
type WorkStats struct {
	ID       string `json:"worker"`
	Counted  int    `json:"counted"`  // tasks counted and published
	Verified int    `json:"verified"` // verify tasks counted and published
	Skipped  int    `json:"skipped"`  // redelivered tasks found already done
	Returned int    `json:"returned"` // tasks handed back (interrupted)
	Failed   int    `json:"failed"`   // counts that failed
	Refused  int    `json:"refused"`  // tasks of a job this program plans differently
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
}

type worker struct {
	c          *Client
	cfg        WorkerConfig
	kernel     string // for the backtracking methods
	joinKernel string // for the join method
	token      string // this worker's name in subjects
	tasks      jetstream.Consumer
	mine       jetstream.Consumer // the verify tasks addressed to this worker
	mineCfg    jetstream.ConsumerConfig
	heartbeat  time.Duration // how often held tasks are reported alive
	stallAfter time.Duration // a task without progress this long is abandoned
	maxDeliver int
	workers    jetstream.KeyValue
	logf       func(string, ...any)

	planning singleflight.Group // one planning per job at a time
	mu       sync.Mutex
	plans    map[string]*jobPlan
	refusals map[string]error
	held     map[string]bool
	stats    WorkStats
	meters   map[string]*jobMeter
	// beating holds the messages kept alive by beats.
	beatMu  sync.Mutex
	beating map[jetstream.Msg]*beat
	// finishing counts the tasks whose results are being stored.
	finishing sync.WaitGroup
	// counters are the task functions of the jobs counted last.
	countersMu sync.Mutex
	counters   []jobCounter

	started time.Time
	nodes   atomic.Uint64 // the counted tasks' nodes
	visited atomic.Uint64 // every node visited

	liveMu     sync.Mutex
	live       map[string]bool // tokens of the live workers
	liveAt     time.Time
	lastRescue time.Time // run's goroutine only
	rescued    bool      // the last rescue took tasks over
}

// Work counts tasks from the queue until ctx is done (or, with
// ExitWhenIdle, until the queue is empty), cfg.Workers at a time. Each task
// is counted with this machine's kernels, its Record published, and then
// acknowledged; a task is never acknowledged before its result is stored.
// A cancelled Work hands its tasks back (or, with Finish, finishes them)
// and returns ctx's error with the stats.
func (c *Client) Work(ctx context.Context, cfg WorkerConfig) (*WorkStats, error) {
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
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	if cfg.ID == "" {
		cfg.ID = defaultWorkerID()
	} else if strings.ContainsFunc(cfg.ID, func(r rune) bool { return !keyChar(r) }) {
		return nil, fmt.Errorf("%w: worker id %q: use letters, digits and - _ = . /", queens.ErrInvalid, cfg.ID)
	}
	w := &worker{
		c: c, cfg: cfg, kernel: k.Name, joinKernel: jk.Name, token: token(cfg.ID), logf: cfg.Logf,
		plans: map[string]*jobPlan{}, refusals: map[string]error{}, held: map[string]bool{},
		meters: map[string]*jobMeter{}, beating: map[jetstream.Msg]*beat{},
		started: time.Now(),
	}
	w.stats.ID = cfg.ID
	if w.logf == nil {
		w.logf = func(string, ...any) {}
	}
	if err := c.Setup(ctx, Settings{}, false); err != nil {
		return nil, err
	}
	if w.tasks, err = c.js.Consumer(ctx, TasksStream, WorkConsumer); err != nil {
		return nil, fmt.Errorf("consumer %s: %w", WorkConsumer, err)
	}
	cc := w.tasks.CachedInfo().Config
	wait := cc.AckWait
	if len(cc.BackOff) > 0 {
		wait = min(wait, cc.BackOff[0])
	}
	w.heartbeat, w.maxDeliver = wait/3, cc.MaxDeliver
	w.stallAfter = wait + w.heartbeat
	w.mineCfg = verifyConsumer(w.token, cc)
	if err := w.ensureMine(ctx); err != nil {
		return nil, err
	}
	if w.workers, err = c.js.KeyValue(ctx, WorkersBucket); err != nil {
		return nil, fmt.Errorf("bucket %s: %w", WorkersBucket, err)
	}
	err = w.run(ctx)
	w.mu.Lock()
	defer w.mu.Unlock()
	st := w.stats
	st.Nodes = w.nodes.Load()
	return &st, err
}

func keyChar(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_=./", r)
}

// defaultWorkerID is host-pid-random: unique even for containers whose
// processes all have pid 1.
func defaultWorkerID() string {
	host, _ := os.Hostname()
	host = strings.Map(func(r rune) rune {
		if keyChar(r) {
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

func (w *worker) run(ctx context.Context) error {
	countCtx := ctx
	if w.cfg.Finish {
		countCtx = context.WithoutCancel(ctx)
	}
	// A puller keeps up to 2·Workers tasks ahead of the slots, so that
	// small tasks do not wait for a round trip each; tasks are held by
	// this worker from their arrival, and kept alive like the ones being
	// counted. It pulls Workers tasks at a time while some are still
	// waiting for a slot: each pull costs the server a subscription and
	// a request, so one per task would cost as much as the task's result.
	pullCtx, stopPull := context.WithCancel(ctx)
	defer stopPull()
	credit := make(chan struct{}, 3*w.cfg.Workers)
	for range cap(credit) {
		credit <- struct{}{}
	}
	in := make(chan held, cap(credit))
	pulled := make(chan struct{})
	go func() {
		defer close(pulled)
		for pullCtx.Err() == nil {
			select {
			case <-pullCtx.Done():
				return
			case <-credit:
			}
			n := 1
		more:
			for n < cap(credit) {
				select {
				case <-credit:
					n++
					continue
				default:
				}
				if n >= w.cfg.Workers || len(in) == 0 {
					break more
				}
				// Tasks are still waiting for a slot: wait for the
				// next one to finish rather than pull a few.
				select {
				case <-credit:
					n++
				case <-pullCtx.Done():
					return
				}
			}
			fctx, cancel := context.WithTimeout(pullCtx, pullWait)
			b, err := w.tasks.Fetch(n, jetstream.FetchContext(fctx))
			got := 0
			if err == nil {
				for m := range b.Messages() {
					got++
					h := w.newHeld(m, true)
					select {
					case in <- h:
					case <-pullCtx.Done():
						w.giveBack(h)
						credit <- struct{}{}
					}
				}
				err = b.Error()
			}
			cancel()
			for range n - got {
				credit <- struct{}{}
			}
			if err != nil && got == 0 && pullCtx.Err() == nil && !errors.Is(err, jetstream.ErrNoMessages) && !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, context.DeadlineExceeded) {
				w.logf("receiving tasks: %v (retrying)", err)
				select {
				case <-pullCtx.Done():
				case <-time.After(500 * time.Millisecond):
				}
			}
		}
	}()
	slots := make(chan struct{}, w.cfg.Workers)
	for range w.cfg.Workers {
		slots <- struct{}{}
	}
	var wg sync.WaitGroup
	stopReports := w.reports(ctx)
	beatCtx, stopBeats := context.WithCancel(context.WithoutCancel(ctx))
	go w.beats(beatCtx)
	defer func() {
		// Tasks that arrived but were not started go back at once.
		stopPull()
		<-pulled
		close(in)
		for h := range in {
			w.giveBack(h)
		}
		wg.Wait()
		w.finishing.Wait()
		stopBeats()
		stopReports()
	}()
	start := func(h held) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				slots <- struct{}{}
				if h.credit {
					credit <- struct{}{}
				}
			}()
			w.handle(ctx, countCtx, h)
		}()
	}
	poll := time.NewTimer(0)
	eager := false // verify tasks came last time: look again at once
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-slots:
		}
		if eager {
			select {
			case h := <-in:
				start(h)
				continue
			default:
			}
		} else {
			poll.Reset(idlePoll)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case h := <-in:
				start(h)
				continue
			case <-poll.C:
			}
		}
		// No task for a while: look for verify tasks, or stop if idle.
		n := 1
	more:
		for n < w.cfg.Workers {
			select {
			case <-slots:
				n++
			default:
				break more
			}
		}
		// Bounded: the loop starts the count tasks too, and a reply lost
		// in a server restart would hold it for the client's timeout.
		octx, cancel := context.WithTimeout(ctx, otherWait)
		msgs, err := w.other(octx, n, n == w.cfg.Workers)
		cancel()
		eager = len(msgs) > 0
		for range n - len(msgs) {
			slots <- struct{}{}
		}
		if errors.Is(err, errIdle) {
			return nil
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			w.logf("looking for verify tasks: %v (retrying)", err)
			time.Sleep(500 * time.Millisecond)
			continue
		}
		for _, m := range msgs {
			start(w.newHeld(m, false))
		}
	}
}

// idlePoll is how long a free slot waits for a count task before the
// worker looks for verify tasks (and, with ExitWhenIdle, whether it is
// done).
const idlePoll = 200 * time.Millisecond

// otherWait bounds a look for verify tasks (see run).
const otherWait = 5 * time.Second

// pullWait is how long a pull for tasks waits for them to arrive.
const pullWait = 2 * time.Second

// held is a task message this worker holds, kept alive until stop.
type held struct {
	msg  jetstream.Msg
	beat *beat
	stop func()
	// credit: pulled ahead by the puller, which may pull another when
	// this one is done.
	credit bool
}

func (w *worker) newHeld(m jetstream.Msg, credit bool) held {
	b, stop := w.hold(m)
	return held{m, b, stop, credit}
}

// giveBack hands a task that was not started back, for another worker.
func (w *worker) giveBack(h held) {
	h.stop()
	h.msg.Nak()
	w.mu.Lock()
	w.stats.Returned++
	w.mu.Unlock()
}

// parseSubject splits prefix.prefix.JOB.ID.
func parseSubject(s string) (jobID string, task int, ok bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return "", 0, false
	}
	task, err := strconv.Atoi(parts[3])
	return parts[2], task, err == nil
}

// jobPlan is a job's plan as a worker keeps it: units is the number of
// units the job record gives, which the worker checks task ids against
// without cutting the units itself.
type jobPlan struct {
	*Plan
	units int
}

// plan returns the plan of a job, read and planned once per worker (the
// slots that take the job's first tasks wait for one planning); a job
// this program plans differently (another algorithm version) is refused.
func (w *worker) plan(ctx context.Context, id string) (*jobPlan, error) {
	v, err, _ := w.planning.Do(id, func() (any, error) {
		w.mu.Lock()
		p, err := w.plans[id], w.refusals[id]
		w.mu.Unlock()
		if p != nil || err != nil {
			return p, err
		}
		info, err := w.c.Job(ctx, id)
		if err != nil {
			return nil, err // perhaps a lost connection: not remembered
		}
		q, err := info.plan()
		w.mu.Lock()
		defer w.mu.Unlock()
		if err != nil {
			w.refusals[id] = err
			return nil, err
		}
		p = &jobPlan{Plan: q, units: info.Tasks}
		w.plans[id] = p
		return p, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*jobPlan), nil
}

// kernelFor names the kernel that counts the tasks of p.
func (w *worker) kernelFor(p *Plan) string {
	if p.Job.Method == queens.Join {
		return w.joinKernel
	}
	return w.kernel
}

// task reads what a task message asks: its job and task from the subject
// (the body of a count task says whether it is chosen for verification;
// a verify task's subject names the worker that counted it).
func (w *worker) task(msg jetstream.Msg) (m taskMsg, kind, from string, err error) {
	subj := msg.Subject()
	if strings.HasPrefix(subj, verifyPrefix+".") {
		jobID, task, from, to, ok := parseVerifySubject(subj)
		switch {
		case !ok || CheckJobID(jobID) != nil:
			return m, "", "", errors.New("not a verify task subject")
		case to != w.token:
			return m, "", "", fmt.Errorf("addressed to %s, not to this worker (%s)", to, w.token)
		case from == w.token:
			return m, "", "", errors.New("addressed to the worker that counted it")
		}
		return taskMsg{ID: jobID, Task: task}, KindVerify, from, nil
	}
	if err := json.Unmarshal(msg.Data(), &m); err != nil {
		return m, "", "", err
	}
	jobID, task, ok := parseSubject(subj)
	if !ok || CheckJobID(m.ID) != nil || jobID != m.ID || task != m.Task {
		return m, "", "", errors.New("its body does not match its subject")
	}
	return m, KindCount, "", nil
}

// handle counts one task and publishes its result, then acknowledges it.
func (w *worker) handle(ctx, countCtx context.Context, h held) {
	msg := h.msg
	stop := h.stop
	defer func() { stop() }()
	meta, err := msg.Metadata()
	if err != nil {
		w.logf("a message without metadata on %s: %v", msg.Subject(), err)
		msg.Term()
		return
	}
	m, kind, _, err := w.task(msg)
	if err != nil {
		w.logf("%s: not a task for this worker (%v): set aside", msg.Subject(), err)
		msg.TermWithReason("not a task: " + err.Error())
		return
	}
	key := fmt.Sprintf("%s.%d", m.ID, m.Task)
	w.mu.Lock()
	w.held[key] = true
	w.mu.Unlock()
	unhold := func() {
		w.mu.Lock()
		delete(w.held, key)
		w.mu.Unlock()
	}
	release := unhold
	defer func() { release() }()

	jp, err := w.plan(ctx, m.ID)
	switch {
	case err != nil:
	case m.Task < 0 || m.Task >= jp.units:
		err = fmt.Errorf("task %d is not in the plan of job %s (0 to %d)", m.Task, m.ID, jp.units-1)
	case len(m.Tasks) > 0 && jp.Units == 0:
		err = fmt.Errorf("the message lists tasks, but job %s is not grouped into units", m.ID)
	}
	if err != nil {
		w.mu.Lock()
		w.stats.Refused++
		w.mu.Unlock()
		w.logf("refusing %s: %v", msg.Subject(), err)
		w.failed(ctx, msg, m, kind, meta.NumDelivered, err, true)
		return
	}
	p := jp.Plan
	// The unit's tasks, as its message lists them (the result record
	// says which were counted, and readers check them against the
	// units); a message without them (a verify task handed out again)
	// has the worker cut the units itself.
	tasks := m.Tasks
	if len(tasks) == 0 && p.Units > 0 {
		tasks = p.Tasks(m.Task)
	}
	switch {
	case kind == KindCount && meta.NumDelivered > 1:
		// Handed out again: its worker may have published the result
		// and died before acknowledging it.
		if counter, ok := w.hasCount(ctx, m, p); ok {
			err := error(nil)
			if m.Verify {
				var there bool
				if there, err = w.hasVerifyTask(ctx, m.ID, m.Task); err == nil && !there {
					err = w.publishVerify(ctx, m, counter)
				}
			}
			if err != nil {
				w.logf("%s: %v", msg.Subject(), err)
				msg.Nak()
				return
			}
			w.skipped(msg)
			return
		}
	case kind == KindVerify:
		if w.isVerified(ctx, m.ID, m.Task, p) {
			w.skipped(msg)
			return
		}
	}

	start := time.Now()
	taskCtx, cancel := context.WithCancel(countCtx)
	defer cancel()
	run := w.startTask(m.ID, cancel)
	var r count.Result
	if w.cfg.fail != nil {
		err = w.cfg.fail(m.ID, m.Task)
	}
	if err == nil {
		h.beat.task.Store(run)
		r, err = w.count(taskCtx, p, m, tasks, run)
		h.beat.task.Store(nil)
	}
	w.endTask(run)
	if err != nil {
		switch {
		case run.abandoned.Load():
			// The server hands it out again: its ack wait has passed
			// without a heartbeat.
			w.mu.Lock()
			w.stats.Abandoned++
			w.mu.Unlock()
		case countCtx.Err() != nil:
			w.mu.Lock()
			w.stats.Returned++
			w.mu.Unlock()
			msg.Nak() // for another worker, at once
		default:
			w.failed(ctx, msg, m, kind, meta.NumDelivered, err, false)
		}
		return
	}
	w.nodes.Add(r.Nodes)
	if w.cfg.tamper != nil {
		r = w.cfg.tamper(m.ID, m.Task, kind, r)
	}
	rec := Record{
		Job: m.ID, Hash: p.Hash(), Algorithm: queens.AlgorithmVersion, Task: m.Task, Tasks: tasks,
		Count: r.Count, Nodes: r.Nodes, Kind: kind, Worker: w.cfg.ID, Program: w.cfg.Program,
		Seconds: time.Since(start).Seconds(), Time: time.Now().UTC(),
	}
	rec.Seal()
	body, _ := json.Marshal(rec)
	prefix := resultPrefix
	if kind == KindVerify {
		prefix = verifiedPrefix
	}
	subj := subject(prefix, m.ID, m.Task)
	msgID := fmt.Sprintf("%s.%d.%s.%s.%d", m.ID, m.Task, kind, w.cfg.ID, meta.NumDelivered)
	// The result is stored, and the task acknowledged, while the slot
	// counts the next task: small tasks do not wait for the round trips.
	f, perr := w.c.js.PublishAsync(subj, body, jetstream.WithMsgID(msgID))
	stop, release = func() {}, func() {} // the finisher keeps the task alive
	w.finishing.Add(1)
	go func() {
		defer w.finishing.Done()
		defer unhold()
		defer h.stop()
		w.finish(ctx, msg, m, kind, subj, body, msgID, f, perr)
	}()
}

// count counts one task through the engine, which reports its progress
// after every slice and abandons it within a second of ctx's end.
func (w *worker) count(ctx context.Context, p *Plan, m taskMsg, tasks []int, run *running) (count.Result, error) {
	var r count.Result
	onDone := func(_ int, res count.Result) error { r = res; return nil }
	onProgress := func(_ int, nodes uint64) { run.progress(w, nodes) }
	if hook := w.cfg.countTask; hook != nil {
		do := func(ctx context.Context, id int, progress func(uint64)) (count.Result, error) {
			return hook(ctx, m.ID, id, progress)
		}
		_, err := count.Run(ctx, []int{m.Task}, do, count.Options{Workers: 1, OnDone: onDone, OnProgress: onProgress})
		return r, err
	}
	unit, err := w.unitFunc(m.ID, p)
	if err != nil {
		return r, err
	}
	if tasks == nil {
		tasks = []int{m.Task}
	}
	do := func(ctx context.Context, _ int, progress func(uint64)) (count.Result, error) {
		return unit(ctx, tasks, progress)
	}
	_, err = count.Run(ctx, []int{m.Task}, do, count.Options{Workers: 1, OnDone: onDone, OnProgress: onProgress})
	return r, err
}

// keepCounters is how many jobs' task functions a worker keeps: a join
// job's holds its tables (built once per worker, not once per task), the
// plan's one large piece of memory.
const keepCounters = 2

// unitFunc returns the function that counts the units of job id, made
// once per job (Plan.UnitFunc) and kept for the keepCounters jobs used
// last.
func (w *worker) unitFunc(id string, p *Plan) (UnitFunc, error) {
	w.countersMu.Lock()
	defer w.countersMu.Unlock()
	i := slices.IndexFunc(w.counters, func(c jobCounter) bool { return c.job == id })
	if i >= 0 {
		c := w.counters[i]
		w.counters = append(slices.Delete(w.counters, i, i+1), c)
		return c.do, nil
	}
	do, _, err := p.UnitFunc(w.kernelFor(p))
	if err != nil {
		return nil, err
	}
	if len(w.counters) >= keepCounters {
		w.counters = slices.Delete(w.counters, 0, 1)
	}
	w.counters = append(w.counters, jobCounter{id, do})
	return do, nil
}

// jobCounter is the task function of one job.
type jobCounter struct {
	job string
	do  UnitFunc
}

func (w *worker) skipped(msg jetstream.Msg) {
	w.mu.Lock()
	w.stats.Skipped++
	w.mu.Unlock()
	msg.Ack()
}

// finish waits for the result to be stored (publishing it again if the
// first try failed: a lost connection), publishes the verify task if the
// task was chosen for one, and acknowledges the task.
func (w *worker) finish(ctx context.Context, msg jetstream.Msg, m taskMsg, kind, subj string, body []byte, msgID string, f jetstream.PubAckFuture, err error) {
	// Publishing goes on for a while after an interrupt: the count is
	// done, and storing it saves counting it again.
	pubCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
	defer cancel()
	if err == nil {
		select {
		case <-f.Ok():
		case err = <-f.Err():
		case <-pubCtx.Done():
			err = pubCtx.Err()
		}
	}
	if err != nil {
		err = w.publish(pubCtx, ctx, subj, body, jetstream.WithMsgID(msgID))
	}
	if err != nil {
		w.logf("%s: the result could not be stored: %v (the task will be handed out again)", msg.Subject(), err)
		msg.Nak()
		return
	}
	if kind == KindCount {
		if err := w.publishVerify(pubCtx, m, w.cfg.ID); err != nil {
			w.logf("%s: %v", msg.Subject(), err)
			msg.Nak()
			return
		}
	}
	msg.Ack()
	w.mu.Lock()
	if kind == KindCount {
		w.stats.Counted++
	} else {
		w.stats.Verified++
	}
	w.mu.Unlock()
}

// publish publishes until the server stores the message, through
// reconnections; it gives up when pubCtx is done, or soon after ctx is.
func (w *worker) publish(pubCtx, ctx context.Context, subj string, body []byte, opts ...jetstream.PublishOpt) error {
	for wait := 100 * time.Millisecond; ; wait = min(2*wait, 2*time.Second) {
		one, cancel := context.WithTimeout(pubCtx, 5*time.Second)
		_, err := w.c.js.Publish(one, subj, body, opts...)
		cancel()
		if err == nil || alreadyThere(err) {
			return nil
		}
		if pubCtx.Err() != nil || ctx.Err() != nil && wait >= 2*time.Second {
			return err
		}
		select {
		case <-pubCtx.Done():
			return err
		case <-time.After(wait):
		}
	}
}

// hasCount reports whether a valid count of the task is stored, and which
// worker counted it.
func (w *worker) hasCount(ctx context.Context, m taskMsg, p *Plan) (string, bool) {
	rs, err := w.c.js.Stream(ctx, ResultsStream)
	if err != nil {
		return "", false
	}
	last, err := rs.GetLastMsgForSubject(ctx, subject(resultPrefix, m.ID, m.Task))
	if err != nil {
		return "", false
	}
	var r Record
	if json.Unmarshal(last.Data, &r) != nil || r.Check(m.ID, p) != nil || r.Task != m.Task {
		return "", false
	}
	return r.Worker, true
}

// failed records a failed or refused task and hands it back for later, or
// sets it aside at its last delivery.
func (w *worker) failed(ctx context.Context, msg jetstream.Msg, m taskMsg, kind string, delivery uint64, err error, refused bool) {
	last := w.maxDeliver > 0 && delivery >= uint64(w.maxDeliver)
	if !refused {
		w.mu.Lock()
		w.stats.Failed++
		w.mu.Unlock()
	}
	f := Failure{Job: m.ID, Task: m.Task, Kind: kind, Worker: w.cfg.ID, Error: err.Error(), Delivery: delivery, SetAside: last, Time: time.Now().UTC()}
	body, _ := json.Marshal(f)
	pubCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if perr := w.publish(pubCtx, ctx, subject(failPrefix, m.ID, m.Task), body); perr != nil {
		w.logf("%s: recording the failure: %v", msg.Subject(), perr)
	}
	if last {
		w.logf("%s: %v; delivered %d times: set aside (see nqueens status %s)", msg.Subject(), err, delivery, m.ID)
		msg.TermWithReason(err.Error())
		return
	}
	if !refused {
		w.logf("%s: %v (delivery %d; retried later)", msg.Subject(), err, delivery)
	}
	msg.NakWithDelay(retryDelay(delivery))
}
