//go:build linux

package hostile

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Limits bound every process the harness starts.
type Limits struct {
	// AddressSpace is the RLIMIT_AS of each process, in bytes. The Go
	// runtime reserves address space at start, so it is what a command
	// needs idle plus Memory.
	AddressSpace uint64
	// Memory bounds the peak resident memory a process may reach.
	Memory uint64
	// Answer is how soon a process must end after SIGINT or SIGTERM. A
	// process later than that is still on time if it had less than a
	// quarter of it on a processor meanwhile (a machine loaded many times
	// over); one that has not ended at twice the bound is killed.
	Answer time.Duration
}

// Proc is one process to run.
type Proc struct {
	// Args are the command line, Args[0] the binary.
	Args []string
	// Stdin is a file to read as standard input: "" is /dev/null,
	// PipeOpen a pipe whose writer stays open and never writes.
	Stdin string
	// Stdout is a file to write standard output to ("" captures it),
	// BrokenPipe a pipe whose reader has gone.
	Stdout string
	Env    []string
	Dir    string
	// Time is how long the process may run before Signal is sent (0:
	// never; it must end by itself within a minute).
	Time   time.Duration
	Signal syscall.Signal
	// Early says the signal may come before the program has installed
	// its handlers: ending by the signal's default action is then an
	// answer too.
	Early bool
}

// Special values of Proc.Stdin and Proc.Stdout.
const (
	PipeOpen   = "<pipe held open>"
	BrokenPipe = "<broken pipe>"
)

// Result is how a process ended.
type Result struct {
	// Code is the exit status, -1 when a signal ended the process.
	Code int
	// Signal is the signal that ended it, if one did.
	Signal syscall.Signal
	// Stdout and Stderr hold the first MiB of each.
	Stdout, Stderr []byte
	// StderrBytes counts all of stderr.
	StderrBytes int64
	// Wall is the time from start to exit.
	Wall time.Duration
	// Signalled says Proc.Signal was sent, Answer how long the process
	// took to end after it.
	Signalled bool
	Answer    time.Duration
	// AnswerCPU is the processor time the process had between the
	// signal and its end: on a loaded machine a process may wait longer
	// than Limits.Answer for a processor.
	AnswerCPU time.Duration
	// Killed says the process had to be killed (SIGKILL): it did not
	// answer the signal within Limits.Answer, or ran past a minute.
	Killed bool
	// Early says the signal came while the process was starting
	// (Proc.Early, or it had had less processor time than it takes).
	Early bool
	// Peak is the largest resident set size seen (VmHWM, sampled), and
	// MaxRSS getrusage's, which may include the parent's (vfork).
	Peak, MaxRSS uint64
	// Err is a failure to run the process at all.
	Err error
}

// limited keeps the first max bytes written to it and counts them all.
type limited struct {
	mu  sync.Mutex
	buf bytes.Buffer
	n   int64
	max int
}

func (l *limited) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n += int64(len(b))
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(b[:min(len(b), room)])
	}
	return len(b), nil
}

func (l *limited) bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.buf.Bytes())
}

// Running is a process started by Start.
type Running struct {
	l              Limits
	p              Proc
	cmd            *exec.Cmd
	pid            int
	start          time.Time
	done           chan error
	stdout, stderr *limited
	closers        []io.Closer
	peak           uint64
}

// Run runs p under l and reports how it ended. The process runs in its
// own process group, which is killed when it ends (a child left behind
// does not outlive the case).
func Run(l Limits, p Proc) *Result {
	r, err := Start(l, p)
	if err != nil {
		return &Result{Code: -1, Err: err}
	}
	return r.Wait(time.Minute)
}

// Start starts p under l.
func Start(l Limits, p Proc) (*Running, error) {
	kb := strconv.FormatUint(l.AddressSpace/1024, 10)
	// The shell sets the limit and replaces itself with the command, so
	// the process signalled and waited for is the command.
	args := append([]string{"-c", `ulimit -v ` + kb + ` && exec "$@"`, "sh"}, p.Args...)
	cmd := exec.Command("/bin/sh", args...)
	cmd.Dir, cmd.Env = p.Dir, p.Env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 2 * time.Second
	r := &Running{l: l, p: p, cmd: cmd, stdout: &limited{max: 1 << 20}, stderr: &limited{max: 1 << 20}}
	fail := func(err error) (*Running, error) {
		r.close()
		return nil, err
	}
	switch p.Stdin {
	case "":
	case PipeOpen:
		pr, pw, err := os.Pipe()
		if err != nil {
			return fail(err)
		}
		cmd.Stdin = pr
		r.closers = append(r.closers, pr, pw)
	default:
		f, err := os.Open(p.Stdin)
		if err != nil {
			return fail(err)
		}
		cmd.Stdin = f
		r.closers = append(r.closers, f)
	}
	switch p.Stdout {
	case "":
		cmd.Stdout = r.stdout
	case BrokenPipe:
		pr, pw, err := os.Pipe()
		if err != nil {
			return fail(err)
		}
		pr.Close()
		cmd.Stdout = pw
		r.closers = append(r.closers, pw)
	default:
		f, err := os.OpenFile(p.Stdout, os.O_WRONLY, 0)
		if err != nil {
			return fail(err)
		}
		cmd.Stdout = f
		r.closers = append(r.closers, f)
	}
	cmd.Stderr = r.stderr
	r.start = time.Now()
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	r.pid = cmd.Process.Pid
	r.done = make(chan error, 1)
	go func() { r.done <- cmd.Wait() }()
	return r, nil
}

func (r *Running) close() {
	for _, c := range r.closers {
		c.Close()
	}
}

// Pid returns the process's id.
func (r *Running) Pid() int { return r.pid }

// Stdout returns what the process wrote on stdout so far (its first MiB).
func (r *Running) Stdout() []byte { return r.stdout.bytes() }

// Stderr returns what the process wrote on stderr so far.
func (r *Running) Stderr() []byte { return r.stderr.bytes() }

// Wait waits for the process to end: at Proc.Time (if not 0) it sends
// Proc.Signal (SIGINT if 0), and kills the process if it does not end
// within Limits.Answer, or by the deadline.
func (r *Running) Wait(deadline time.Duration) *Result {
	var stopAt <-chan time.Time
	if r.p.Time > 0 {
		stopAt = time.After(max(0, r.p.Time-time.Since(r.start)))
	}
	return r.wait(stopAt, r.p.Signal, time.After(deadline))
}

// Stop sends sig now and waits for the process to end (killing it if it
// does not within Limits.Answer).
func (r *Running) Stop(sig syscall.Signal) *Result {
	now := make(chan time.Time, 1)
	now <- time.Now()
	return r.wait(now, sig, nil)
}

func (r *Running) wait(stopAt <-chan time.Time, sig syscall.Signal, deadline <-chan time.Time) *Result {
	defer r.close()
	res := &Result{Code: -1, Early: r.p.Early}
	sample := time.NewTicker(20 * time.Millisecond)
	defer sample.Stop()
	var answerBy <-chan time.Time
	var signalled time.Time
	var cpuAtSignal time.Duration
	var err error
wait:
	for {
		select {
		case err = <-r.done:
			break wait
		case <-sample.C:
			r.peak = max(r.peak, hwm(r.pid))
		case <-stopAt:
			stopAt = nil
			// A process that has already ended is not signalled: its
			// exit came first and answers the case as it stands (the
			// select takes either case when its end and the signal's
			// moment are both ready).
			if ended(r.pid) {
				continue
			}
			if sig == 0 {
				sig = syscall.SIGINT
			}
			signalled = time.Now()
			res.Signalled = true
			// A process that has had less processor time than it takes to
			// start (the runtime, main, its handlers) is still starting,
			// however long it has waited for a processor.
			cpuAtSignal = r.CPU()
			if cpuAtSignal < startCPU {
				res.Early = true
			}
			syscall.Kill(r.pid, sig)
			// Killed at twice the bound; Problems judges the time
			// it took against the processor time it got.
			answerBy = time.After(2 * r.l.Answer)
		case <-answerBy:
			res.Killed = true
			syscall.Kill(-r.pid, syscall.SIGKILL)
			answerBy = nil
		case <-deadline:
			res.Killed = true
			syscall.Kill(-r.pid, syscall.SIGKILL)
			deadline = nil
		}
	}
	end := time.Now()
	syscall.Kill(-r.pid, syscall.SIGKILL) // what it left behind
	res.Wall = end.Sub(r.start)
	if res.Signalled {
		res.Answer = end.Sub(signalled)
	}
	res.Stdout, res.Stderr, res.StderrBytes = r.stdout.bytes(), r.stderr.bytes(), r.stderr.n
	res.Peak = r.peak
	if st := r.cmd.ProcessState; st != nil {
		ws := st.Sys().(syscall.WaitStatus)
		switch {
		case ws.Exited():
			res.Code = ws.ExitStatus()
		case ws.Signaled():
			res.Signal = ws.Signal()
		}
		if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
			res.MaxRSS = uint64(ru.Maxrss) * 1024
			if res.Signalled {
				total := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
				res.AnswerCPU = max(0, total-cpuAtSignal)
			}
		}
	} else if err != nil {
		res.Err = err
	}
	return res
}

// ended reports whether the process with id pid, a child of this one,
// has ended: it is waiting to be reaped (it is not reaped here), or has
// been.
func ended(pid int) bool {
	var info unix.Siginfo
	err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
	// With WNOHANG and no child ended, Linux leaves info zero.
	return err != nil || info.Signo != 0
}

// CPU returns the processor time (user and system) the process has used.
func (r *Running) CPU() time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(r.pid) + "/stat")
	if err != nil {
		return 0
	}
	// The fields after the command name, which is in parentheses.
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseUint(f[11], 10, 64)
	st, _ := strconv.ParseUint(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}

// hwm returns the process's peak resident memory (VmHWM), 0 if unknown.
func hwm(pid int) uint64 {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// Status reads a field of /proc/PID/status in bytes ("VmPeak"), 0 if
// unknown.
func Status(pid int, field string) uint64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb * 1024
		}
	}
	return 0
}

// Lines says how many lines stderr may hold.
type Lines int

// The rules for stderr.
const (
	// OneError: with exit status 1 or 2, exactly one message (lines
	// indented under it continue it; notices such as warnings may come
	// before it); otherwise any number.
	OneError Lines = iota
	// Any: any number of messages.
	Any
)

// startCPU is less processor time than any command takes to install its
// signal handlers (a few milliseconds).
const startCPU = 20 * time.Millisecond

// notices are the messages that may come before an error's one line: a
// warning, a note that a checkpoint is resumed.
var notices = []string{"warning: ", "resuming from "}

// stack marks what a Go runtime crash or an unrecovered panic prints.
var stack = []string{"goroutine ", "panic: ", "fatal error: ", "runtime: ", "[signal "}

// Problems checks r against the promises for bad input: prog is the
// program's name, lines the rule for stderr. It returns what is wrong.
func (r *Result) Problems(prog string, l Limits, lines Lines) []string {
	var ps []string
	if r.Err != nil {
		return []string{fmt.Sprintf("could not run: %v", r.Err)}
	}
	switch {
	case r.Killed && r.Signalled:
		ps = append(ps, fmt.Sprintf("did not end within %v of the signal (killed)", 2*l.Answer))
	case r.Killed:
		ps = append(ps, "ran for a minute (killed)")
	case r.Signal != 0 && r.Signalled && r.Early:
		// Signalled before main installed the handlers: ended by the
		// default action, as any program (a shell says 130 or 143).
	case r.Signal != 0:
		ps = append(ps, fmt.Sprintf("ended by %v", r.Signal))
	case r.Code != 0 && r.Code != 1 && r.Code != 2 && r.Code != 130:
		ps = append(ps, fmt.Sprintf("exit status %d", r.Code))
	}
	// Late, and not for want of a processor: it had a quarter of the
	// bound's time on one (a machine loaded many times over starves any
	// process of it).
	if r.Signalled && !r.Killed && r.Answer > l.Answer && r.AnswerCPU > l.Answer/4 {
		ps = append(ps, fmt.Sprintf("took %v to end after the signal", r.Answer.Round(time.Millisecond)))
	}
	if r.Peak > l.Memory {
		ps = append(ps, fmt.Sprintf("peak memory %d MiB, over %d MiB", r.Peak>>20, l.Memory>>20))
	}
	errText := string(r.Stderr)
	for _, s := range stack {
		if strings.Contains(errText, s) {
			ps = append(ps, fmt.Sprintf("stderr holds %q (a Go stack trace?): %s", s, clip(errText, 300)))
			break
		}
	}
	if r.StderrBytes > 64<<10 {
		ps = append(ps, fmt.Sprintf("%d bytes on stderr", r.StderrBytes))
	}
	messages := 0
	for _, line := range strings.Split(strings.TrimSuffix(errText, "\n"), "\n") {
		if line == "" {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			continue // continues the message above it
		}
		notice := false
		for _, n := range notices {
			notice = notice || strings.HasPrefix(line, prog+": "+n)
		}
		if !notice {
			messages++
		}
		if !strings.HasPrefix(line, prog+": ") && !strings.HasPrefix(line, prog+" ") {
			ps = append(ps, fmt.Sprintf("a line on stderr does not name %s: %q", prog, clip(line, 200)))
			break
		}
		if len(line) > 2048 {
			ps = append(ps, fmt.Sprintf("a line of %d bytes on stderr: %q", len(line), clip(line, 200)))
			break
		}
	}
	if (r.Code == 1 || r.Code == 2) && !r.Killed {
		switch {
		case messages == 0:
			ps = append(ps, fmt.Sprintf("exit status %d without a word on stderr", r.Code))
		case messages > 1 && lines == OneError:
			ps = append(ps, fmt.Sprintf("%d messages on stderr for one error: %s", messages, clip(errText, 300)))
		}
	}
	return ps
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
