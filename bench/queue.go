package main

// The queue-against-count mode (--queue N). Its bar: n = 17 through
// the work queue with two local workers takes at most 1.05 times the wall
// time of `nqueens count 17`, measured in the same run. Both sides are
// whole processes of the same freshly built binary, timed one right after
// the other in every round, so that their ratio is taken under the same
// load; the bar is judged on the median of the per-round ratios.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nqcount/nqcount/bench/internal/meter"
	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/internal/cli"
)

const (
	// queueBar is the target: the queue's wall time over count's, at
	// n = 17; from queueLongN, where the queue's fixed cost has vanished,
	// the target is queueLongBar.
	queueBar     = 1.05
	queueLongN   = 19
	queueLongBar = 1.03
	// urlTimeout bounds the wait for the server's URL: a server that has
	// not bound a loopback port by then is stuck, and waiting longer
	// would only hide it.
	urlTimeout = 10 * time.Second
	// stopTimeout is how long a server or worker gets to exit after
	// SIGTERM before it is killed.
	stopTimeout = 10 * time.Second
	// warmupTimeout bounds the untimed warm-up job (n = 8, milliseconds of
	// work): if it has not completed by then, the worker never got
	// connected and the timed job would wait forever.
	warmupTimeout = time.Minute
	// warmupN is the board of the warm-up job.
	warmupN = 8
)

// QueueRound is one round of the queue mode: one count and one job through
// the queue, timed one after the other.
type QueueRound struct {
	First        string  `json:"first"`         // "count" or "queue": which of the two ran first
	CountSeconds float64 `json:"count_seconds"` // wall time of the nqueens count process
	QueueSeconds float64 `json:"queue_seconds"` // wall time of the nqueens submit --wait process
	Ratio        float64 `json:"ratio"`         // QueueSeconds / CountSeconds
	// User plus system CPU time of each process. The server and the
	// worker run for the whole round, so theirs include the warm-up job
	// and the idle time around the timed runs.
	CountCPU  float64 `json:"count_cpu_seconds"`
	SubmitCPU float64 `json:"submit_cpu_seconds"`
	ServerCPU float64 `json:"server_cpu_seconds"`
	WorkerCPU float64 `json:"worker_cpu_seconds"`
}

// QueueResults is everything a queue run measured (--json writes it).
type QueueResults struct {
	Date    time.Time     `json:"date"`
	Took    time.Duration `json:"took_ns"`
	Command string        `json:"command"`
	Env     Env           `json:"env"`
	N       int           `json:"n"`
	Method  string        `json:"method"`
	Workers int           `json:"workers"` // --workers of both the worker process and count
	Rounds  []QueueRound  `json:"rounds"`
	Bar     Bar           `json:"bar"`
}

// queueOnlyFlags are the flags that mean something with --queue. The
// others shape the kernel tables, which the queue mode does not produce:
// one given with --queue is refused rather than silently ignored.
var queueOnlyFlags = []string{"queue", "queue-workers", "queue-method", "rounds", "json", "strict"}

// parseQueueFlags finishes parseFlags for the queue mode; set holds the
// flags given on the command line.
func parseQueueFlags(cfg config, method string, set map[string]bool, args []string, stderr io.Writer) (config, error) {
	usage := func(format string, a ...any) (config, error) {
		fmt.Fprintf(stderr, "bench: "+format+"\n", a...)
		return cfg, errors.New("usage")
	}
	if cfg.queueN == 0 {
		return usage("--queue-workers and --queue-method apply only with --queue N")
	}
	if cfg.queueN < 4 || cfg.queueN > queens.MaxKnown {
		return usage("--queue %d: choose 4 ≤ N ≤ %d (the totals are checked against OEIS A000170)", cfg.queueN, queens.MaxKnown)
	}
	if cfg.queueWorkers < 1 {
		return usage("--queue-workers %d: need at least 1", cfg.queueWorkers)
	}
	m, err := queens.ParseMethod(method)
	if err != nil {
		return usage("--queue-method: %v", err)
	}
	if cfg.rounds < 1 {
		return usage("--rounds %d: need at least 1", cfg.rounds)
	}
	var other []string
	for name := range set {
		if !slices.Contains(queueOnlyFlags, name) {
			other = append(other, "--"+name)
		}
	}
	if len(other) > 0 {
		slices.Sort(other)
		return usage("%s: not with --queue, which times only the queue against count and writes no results file", strings.Join(other, ", "))
	}
	cfg.queueMethod = m
	// The coordinator pastes the queue's figures by hand: nothing is
	// rewritten.
	cfg.out, cfg.charts = "", ""
	cfg.args = args
	return cfg, nil
}

// runQueue is run for the queue mode: it measures, prints the report and
// the bar, and writes --json.
func runQueue(ctx context.Context, cfg config, stdout, stderr io.Writer) int {
	q, err := measureQueue(ctx, cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 1
	}
	q.Bar = q.bar()
	if cfg.jsonOut != "" {
		b, err := json.MarshalIndent(q, "", "  ")
		if err == nil {
			err = os.WriteFile(cfg.jsonOut, append(b, '\n'), 0o644)
		}
		if err != nil {
			fmt.Fprintf(stderr, "bench: writing %s: %v\n", cfg.jsonOut, err)
			return 1
		}
	}
	var b bytes.Buffer
	q.report(&b)
	if _, err := stdout.Write(b.Bytes()); err != nil {
		fmt.Fprintf(stderr, "bench: writing the report: %v\n", err)
		return 1
	}
	if cfg.strict && q.Bar.Result == "FAIL" {
		return 1
	}
	return 0
}

// measureQueue builds nqueens and runs cfg.rounds rounds.
func measureQueue(ctx context.Context, cfg config, log io.Writer) (*QueueResults, error) {
	start := time.Now()
	q := &QueueResults{
		Date: start.UTC(), Command: cfg.commandLine(), Env: environment(),
		N: cfg.queueN, Method: string(cfg.queueMethod), Workers: cfg.queueWorkers,
	}
	q.Env.LoadBefore = meter.LoadAverage()
	fmt.Fprintf(log, "bench: queue against count at n = %d, method %s, %d %s, %d %s; %s, %d logical CPUs, %s\n",
		q.N, q.Method, q.Workers, plural(q.Workers, "worker", "workers"), cfg.rounds, plural(cfg.rounds, "round", "rounds"), q.Env.CPU, q.Env.LogicalCPUs, q.Env.GoVersion)
	if q.busy() {
		fmt.Fprintf(log, "bench: warning: load average %s on %d logical CPUs; other processes will compete for the cores\n", q.Env.LoadBefore, q.Env.LogicalCPUs)
	}
	tmp, err := os.MkdirTemp("", "nqbench")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	root, err := moduleRoot(ctx)
	if err != nil {
		return nil, err
	}
	bin, err := buildNqueens(ctx, root, tmp)
	if err != nil {
		return nil, err
	}
	for r := range cfg.rounds {
		round, err := queueRound(ctx, bin, tmp, cfg, r, log)
		if err != nil {
			return nil, fmt.Errorf("round %d: %w", r+1, err)
		}
		q.Rounds = append(q.Rounds, round)
	}
	q.Env.LoadAfter = meter.LoadAverage()
	q.Took = time.Since(start)
	return q, nil
}

// queueRound runs one round on a fresh server. A fresh one each round
// because a job is named by its plan: submitting the same plan to the same
// queue again adds no work, and its submit --wait would return at once.
func queueRound(ctx context.Context, bin, tmp string, cfg config, r int, log io.Writer) (QueueRound, error) {
	var round QueueRound
	data, err := os.MkdirTemp(tmp, "queue")
	if err != nil {
		return round, err
	}
	defer os.RemoveAll(data)

	srv, url, err := startServer(ctx, bin, data)
	if err != nil {
		return round, err
	}
	// On every way out (an error, Ctrl-C) the server and the worker are
	// killed and waited for; after a clean stop these do nothing.
	defer srv.kill()
	wrk, err := startProc(ctx, "worker", bin, io.Discard, "work", "--server", url, "--workers", strconv.Itoa(cfg.queueWorkers), "--id", "bench")
	if err != nil {
		return round, err
	}
	defer wrk.kill()

	// The round's processes depend on each other: a submit --wait whose
	// worker or server died would wait forever. rctx ends when either
	// exits, and the processes run under it are killed then.
	rctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		// A child killed because the run was cancelled (Ctrl-C) is not
		// the cause: the cancellation is.
		select {
		case <-srv.done:
			if ctx.Err() != nil {
				cancel(context.Cause(ctx))
				return
			}
			cancel(fmt.Errorf("the server exited during the round: %s", srv.exitText()))
		case <-wrk.done:
			if ctx.Err() != nil {
				cancel(context.Cause(ctx))
				return
			}
			cancel(fmt.Errorf("the worker exited during the round: %s", wrk.exitText()))
		case <-rctx.Done():
		}
	}()

	// Untimed: the timed job must not pay for the worker's connection and
	// its first pull from the queue.
	wctx, wcancel := context.WithTimeoutCause(rctx, warmupTimeout, fmt.Errorf("the warm-up job (n = %d) did not complete within %s: is the worker connected?", warmupN, warmupTimeout))
	_, _, err = timedCheck(wctx, bin, warmupN, true, "submit", strconv.Itoa(warmupN), "--server", url, "--wait", "--json", "--progress-every", "0")
	wcancel()
	if err != nil {
		return round, fmt.Errorf("warm-up: %w", err)
	}
	fmt.Fprintf(log, "round %d/%d: server %s (pid %d), worker pid %d with --workers %d, warm-up job done\n",
		r+1, cfg.rounds, url, srv.cmd.Process.Pid, wrk.cmd.Process.Pid, cfg.queueWorkers)

	n, m, w := strconv.Itoa(cfg.queueN), string(cfg.queueMethod), strconv.Itoa(cfg.queueWorkers)
	// count gets the worker process's --workers, so that both sides count
	// with as many tasks at once (the same as both defaults unless
	// --queue-workers says otherwise).
	timeCount := func() error {
		wall, cpu, err := timedCheck(rctx, bin, cfg.queueN, false, "count", n, "--method", m, "--workers", w, "--json", "--progress", "off")
		round.CountSeconds, round.CountCPU = wall, cpu
		if err == nil {
			fmt.Fprintf(log, "round %d/%d count n=%s %9.4f s wall %9.4f s cpu\n", r+1, cfg.rounds, n, wall, cpu)
		}
		return err
	}
	timeQueue := func() error {
		wall, cpu, err := timedCheck(rctx, bin, cfg.queueN, true, "submit", n, "--method", m, "--server", url, "--wait", "--json", "--progress-every", "0")
		round.QueueSeconds, round.SubmitCPU = wall, cpu
		if err == nil {
			fmt.Fprintf(log, "round %d/%d queue n=%s %9.4f s wall %9.4f s cpu (submit --wait)\n", r+1, cfg.rounds, n, wall, cpu)
		}
		return err
	}
	// Alternate which side goes first, so that neither always meets the
	// machine in the same state.
	first, second := timeCount, timeQueue
	round.First = "count"
	if r%2 == 1 {
		first, second = timeQueue, timeCount
		round.First = "queue"
	}
	if err := first(); err != nil {
		return round, err
	}
	if err := second(); err != nil {
		return round, err
	}
	round.Ratio = round.QueueSeconds / round.CountSeconds

	// Stop the watcher before stopping the processes it watches.
	cancel(nil)
	// The worker first: a worker whose server went away first would
	// report the lost connection instead of stopping cleanly.
	if err := wrk.stop(); err != nil {
		return round, err
	}
	if err := srv.stop(); err != nil {
		return round, err
	}
	round.WorkerCPU, round.ServerCPU = cpuSeconds(wrk.cmd.ProcessState), cpuSeconds(srv.cmd.ProcessState)
	return round, nil
}

// timedCheck runs nqueens with args to the end and checks the total of its
// JSON output against OEIS A000170 for board n (and, for a job, that it is
// complete). It returns the process's wall time, from just before its start
// to just after its exit, and its user plus system CPU time.
func timedCheck(ctx context.Context, bin string, n int, job bool, args ...string) (wall, cpu float64, err error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	name := "nqueens " + strings.Join(args, " ")
	t0 := time.Now()
	err = cmd.Run()
	wall = time.Since(t0).Seconds()
	if cmd.ProcessState != nil {
		cpu = cpuSeconds(cmd.ProcessState)
	}
	if err != nil {
		// Killed because the round ended: say why (the worker died,
		// Ctrl-C, the warm-up's time limit) rather than "signal: killed".
		if cause := context.Cause(ctx); cause != nil {
			return wall, cpu, fmt.Errorf("%s: %w", name, cause)
		}
		return wall, cpu, fmt.Errorf("%s: %v\n%s", name, err, tail(errb.String()))
	}
	var rep struct {
		Total    *count.Uint128 `json:"total"`
		Complete *bool          `json:"complete"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		return wall, cpu, fmt.Errorf("%s: reading its JSON: %v\n%s", name, err, tail(out.String()))
	}
	if rep.Total == nil {
		return wall, cpu, fmt.Errorf("%s: no total in its output: %s", name, tail(out.String()))
	}
	if err := checkCount(n, *rep.Total); err != nil {
		return wall, cpu, fmt.Errorf("%s: %w", name, err)
	}
	if job && (rep.Complete == nil || !*rep.Complete) {
		return wall, cpu, fmt.Errorf("%s: the job is not complete: %s", name, tail(out.String()))
	}
	return wall, cpu, nil
}

// cpuSeconds is a finished process's user plus system CPU time.
func cpuSeconds(ps *os.ProcessState) float64 {
	return (ps.UserTime() + ps.SystemTime()).Seconds()
}

// tail is the end of a process's output, enough for an error message.
func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 2000 {
		s = "..." + s[len(s)-2000:]
	}
	return s
}

// proc is a process that lives through a round: the server or the worker.
type proc struct {
	name   string
	cmd    *exec.Cmd
	stderr bytes.Buffer  // read only after done
	done   chan struct{} // closed once the process has exited and been waited for
	err    error         // cmd.Wait's error, set before done is closed
}

// startProc starts nqueens with args under ctx (cancelling ctx kills it).
func startProc(ctx context.Context, name, bin string, stdout io.Writer, args ...string) (*proc, error) {
	p := &proc{name: name, done: make(chan struct{})}
	p.cmd = exec.CommandContext(ctx, bin, args...)
	p.cmd.Stdout, p.cmd.Stderr = stdout, &p.stderr
	// Bounds Wait's copying of the output after the process is gone, in
	// case something it started still holds the pipes.
	p.cmd.WaitDelay = stopTimeout
	if err := p.cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the %s: %w", name, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// exited reports whether the process has exited.
func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// exitText describes how the process ended; call it after done.
func (p *proc) exitText() string {
	return fmt.Sprintf("%v\n%s", p.err, tail(p.stderr.String()))
}

// kill kills the process, if still running, and waits for it.
func (p *proc) kill() {
	if !p.exited() {
		_ = p.cmd.Process.Kill()
	}
	<-p.done
}

// stop asks the process to stop with SIGTERM, as a service manager would,
// and waits for it (killing it if it takes longer than stopTimeout).
func (p *proc) stop() error {
	if p.exited() {
		return fmt.Errorf("the %s exited before it was stopped: %s", p.name, p.exitText())
	}
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		p.kill()
		return fmt.Errorf("stopping the %s: %w", p.name, err)
	}
	select {
	case <-p.done:
	case <-time.After(stopTimeout):
		p.kill()
		return fmt.Errorf("the %s did not exit within %s of SIGTERM", p.name, stopTimeout)
	}
	// SIGTERM is how nqueens is told to stop: the server exits 0, the
	// worker hands back what it holds and exits as interrupted.
	if code := p.cmd.ProcessState.ExitCode(); code != 0 && code != cli.ExitInterrupted {
		return fmt.Errorf("the %s exited with status %d when stopped: %s", p.name, code, p.exitText())
	}
	return nil
}

// firstLine is a writer that hands over the first complete line written to
// it (the server's URL) and drops the rest.
type firstLine struct {
	mu   sync.Mutex
	buf  []byte
	sent bool
	line chan string // buffered: receives the first line once
}

func (w *firstLine) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sent {
		return len(b), nil
	}
	w.buf = append(w.buf, b...)
	if i := bytes.IndexByte(w.buf, '\n'); i >= 0 {
		w.sent = true
		w.line <- strings.TrimSpace(string(w.buf[:i]))
	}
	return len(b), nil
}

// startServer starts nqueens serve on a free loopback port with its data
// in folder data and returns it with its URL, the first line it prints.
func startServer(ctx context.Context, bin, data string) (*proc, string, error) {
	fl := &firstLine{line: make(chan string, 1)}
	p, err := startProc(ctx, "server", bin, fl, "serve", "--listen", "127.0.0.1:0", "--data", data)
	if err != nil {
		return nil, "", err
	}
	timer := time.NewTimer(urlTimeout)
	defer timer.Stop()
	select {
	case url := <-fl.line:
		if !strings.HasPrefix(url, "nats://") {
			p.kill()
			return nil, "", fmt.Errorf("the server printed %q where its nats:// URL was expected", url)
		}
		return p, url, nil
	case <-p.done:
		return nil, "", fmt.Errorf("the server exited before printing its URL: %s", p.exitText())
	case <-timer.C:
		p.kill()
		return nil, "", fmt.Errorf("the server printed no URL within %s: %s", urlTimeout, p.exitText())
	case <-ctx.Done():
		p.kill()
		return nil, "", ctx.Err()
	}
}

// busy reports whether the run's machine was busy (Env.busy).
func (q *QueueResults) busy() bool { return q.Env.busy() }

// column picks one figure from every round.
func (q *QueueResults) column(f func(QueueRound) float64) []float64 {
	xs := make([]float64, len(q.Rounds))
	for i, r := range q.Rounds {
		xs[i] = f(r)
	}
	return xs
}

func (q *QueueResults) ratios() []float64 {
	return q.column(func(r QueueRound) float64 { return r.Ratio })
}

// queueCPU is the CPU time of all the queue's processes in a round.
func queueCPU(r QueueRound) float64 { return r.SubmitCPU + r.ServerCPU + r.WorkerCPU }

// bar judges the bar (queueBar, queueLongBar from queueLongN) on the median of the per-round ratios: a
// ratio of neighbours cancels most of the machine's load, which a ratio of
// the two medians would not. The CPU ratio beside it counts the queue's
// three processes against count, warm-up and idle time included.
func (q *QueueResults) bar() Bar {
	v := meter.Median(q.ratios())
	target := queueBar
	if q.N >= queueLongN {
		target = queueLongBar
	}
	b := Bar{
		Name:     fmt.Sprintf("n = %d through the queue, %d %s, vs count", q.N, q.Workers, plural(q.Workers, "worker", "workers")),
		Target:   fmt.Sprintf("≤%.2f×", target),
		Measured: fmt.Sprintf("%.2f×", v),
		Value:    v,
		Result:   judge(v > 0 && v <= target),
	}
	if c := meter.Paired(q.column(queueCPU), q.column(func(r QueueRound) float64 { return r.CountCPU })); c > 0 {
		b.CPU = fmt.Sprintf("queue's processes %.2f× count's", c)
	}
	return b
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// report writes the markdown report: what ran, the times, the ratio, the
// CPU times, how to reproduce, and the bar.
func (q *QueueResults) report(w io.Writer) {
	fmt.Fprintf(w, "### Queue against count\n\n")
	fmt.Fprintf(w, "n = %d, method %s: `nqueens count %d --workers %d` against `nqueens submit %d --wait` served by one `nqueens work --workers %d` "+
		"on a fresh `nqueens serve` each round (after an untimed warm-up job at n = %d); %d %s, alternating which runs first. Wall time of each whole process.\n\n",
		q.N, q.Method, q.N, q.Workers, q.N, q.Workers, warmupN, len(q.Rounds), plural(len(q.Rounds), "round", "rounds"))
	fmt.Fprintf(w, "%s, %d logical CPUs, GOMAXPROCS %d, %s; load average %s before, %s after.\n",
		q.Env.CPU, q.Env.LogicalCPUs, q.Env.GOMAXPROCS, q.Env.GoVersion, orDash(q.Env.LoadBefore), orDash(q.Env.LoadAfter))
	if q.busy() {
		fmt.Fprintf(w, "\n**The machine was busy** (load average above half the logical CPUs): trust the ratio more than the times.\n")
	}
	fmt.Fprintf(w, "\n| run | median (s) | range (s) | CPU median (s) |\n|---|---:|---:|---:|\n")
	row := func(name string, wall, cpu []float64) {
		fmt.Fprintf(w, "| %s | %s | %s–%s | %s |\n", name, meter.Seconds(meter.Median(wall)), meter.Seconds(slices.Min(wall)), meter.Seconds(slices.Max(wall)), meter.Seconds(meter.Median(cpu)))
	}
	row(fmt.Sprintf("`nqueens count %d`", q.N), q.column(func(r QueueRound) float64 { return r.CountSeconds }), q.column(func(r QueueRound) float64 { return r.CountCPU }))
	row(fmt.Sprintf("`nqueens submit %d --wait` (queue)", q.N), q.column(func(r QueueRound) float64 { return r.QueueSeconds }), q.column(func(r QueueRound) float64 { return r.SubmitCPU }))

	var per []string
	for _, x := range q.ratios() {
		per = append(per, fmt.Sprintf("%.3f", x))
	}
	fmt.Fprintf(w, "\nQueue over count, median of the per-round ratios: **%.3f×** (rounds: %s).\n", meter.Median(q.ratios()), strings.Join(per, ", "))

	fmt.Fprintf(w, "\nCPU time per round (user + system, median over rounds, seconds):\n\n")
	fmt.Fprintf(w, "| count | submit --wait | server | worker | queue's three |\n|---:|---:|---:|---:|---:|\n")
	med := func(f func(QueueRound) float64) string { return meter.Seconds(meter.Median(q.column(f))) }
	fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n",
		med(func(r QueueRound) float64 { return r.CountCPU }), med(func(r QueueRound) float64 { return r.SubmitCPU }),
		med(func(r QueueRound) float64 { return r.ServerCPU }), med(func(r QueueRound) float64 { return r.WorkerCPU }), med(queueCPU))
	fmt.Fprintf(w, "\nThe server's and the worker's CPU times cover the whole round: the warm-up job and the idle time around the timed runs are included.\n")
	fmt.Fprintf(w, "\nCommand: `%s` (took %s)\n\n", q.Command, q.Took.Round(time.Second))
	fmt.Fprintln(w, "bar:")
	printBar(w, q.Bar)
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
