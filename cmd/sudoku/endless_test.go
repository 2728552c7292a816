package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/clitest"
)

// readCommands are the commands that read puzzles.
var readCommands = []string{"solve", "count", "rate", "explain"}

// started is a command run as a process by startCmd.
type started struct {
	cmd    *exec.Cmd
	stderr bytes.Buffer
	done   chan error
}

// startCmd starts the command with args, its stdin read from stdin.
func startCmd(t *testing.T, stdin io.Reader, args ...string) *started {
	t.Helper()
	s := &started{cmd: exec.Command(os.Args[0], "-test.run=^TestHelperMain$"), done: make(chan error, 1)}
	s.cmd.Env = append(os.Environ(), clitest.Env("sudoku", args...))
	s.cmd.Stdin = stdin
	s.cmd.Stderr = &s.stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.done <- s.cmd.Wait() }()
	t.Cleanup(func() {
		s.cmd.Process.Kill()
		<-s.done
	})
	return s
}

// wait waits up to d for the process to end and returns its exit status,
// or fails the test.
func (s *started) wait(t *testing.T, d time.Duration, what string) int {
	t.Helper()
	select {
	case err := <-s.done:
		s.done <- err // for the cleanup
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(d):
		t.Fatalf("%s: still running after %v; stderr %q", what, d, s.stderr.String())
		return -1
	}
}

// peakMiB is the process's peak resident memory, from /proc (0 where
// there is none).
func (s *started) peakMiB() int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(s.cmd.Process.Pid) + "/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return kb >> 10
		}
	}
	return 0
}

// Binary input (/dev/zero, which never ends) is refused at once with one
// line, by every command that reads puzzles (once: they read it for
// ever and ignored SIGINT).
func TestBinaryInput(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	for _, c := range readCommands {
		s := startCmd(t, nil, c, "/dev/zero")
		code := s.wait(t, 10*time.Second, c+" /dev/zero")
		want := "sudoku: /dev/zero: line 1: binary data (a NUL byte), not text: not a file of puzzles\n"
		if code != cli.ExitFail || s.stderr.String() != want {
			t.Errorf("%s /dev/zero: exit %d, stderr %q; want %d and %q", c, code, s.stderr.String(), cli.ExitFail, want)
		}
	}
}

// pending returns the number of bytes written to a pipe and not yet read
// from it (Linux's FIONREAD), or -1 where it cannot tell.
func pending(r *os.File) int {
	if runtime.GOOS != "linux" {
		return -1
	}
	var n int32
	const fionread = 0x541B
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, r.Fd(), fionread, uintptr(unsafe.Pointer(&n))); errno != 0 {
		return -1
	}
	return int(n)
}

// Input that never ends, or never comes, does not hold a command: SIGINT
// and SIGTERM end it within a second with status 130 and one line, and
// its memory stays small meanwhile.
func TestEndlessInputInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	// What is written to the command's stdin, a pipe, after a first line
	// that it reads when it is ready: nothing (the read blocks), comment
	// lines for ever, or one line for ever.
	inputs := map[string]string{"silent pipe": "", "endless comments": "# nothing here\n", "endless line": "1234567"}
	sigs := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM}
	i := 0
	for name, more := range inputs {
		for _, c := range readCommands {
			sig := sigs[i%2]
			i++
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			s := startCmd(t, r, c)
			if _, err := w.WriteString("# ready?\n"); err != nil {
				t.Fatal(err)
			}
			// Wait until the command reads: its signal handling is set up
			// by then (a process still starting would die of the signal).
			for start := time.Now(); pending(r) > 0; time.Sleep(5 * time.Millisecond) {
				if time.Since(start) > 30*time.Second {
					t.Fatalf("%s < %s: did not read its input in 30 s", c, name)
				}
			}
			if pending(r) < 0 {
				time.Sleep(time.Second) // cannot tell: time to start
			}
			if name == "endless line" {
				// Past MaxLine for sure before the signal: the pipe holds
				// 64 KiB, so the command has read the rest when this
				// returns, and said so.
				if _, err := w.WriteString(strings.Repeat(more, (1<<20+256<<10)/len(more))); err != nil {
					t.Fatal(err)
				}
			}
			stop := make(chan struct{})
			go func() {
				defer w.Close()
				if more == "" {
					<-stop
					return
				}
				b := []byte(strings.Repeat(more, 4096/len(more)))
				for {
					select {
					case <-stop:
						return
					default:
					}
					if _, err := w.Write(b); err != nil {
						return
					}
				}
			}()
			time.Sleep(200 * time.Millisecond)
			if mib := s.peakMiB(); mib > 200 {
				t.Errorf("%s < %s: %d MiB after 200 ms", c, name, mib)
			}
			start := time.Now()
			if err := s.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			code := s.wait(t, 5*time.Second, c+" < "+name)
			took := time.Since(start)
			close(stop)
			r.Close()
			lines := strings.Split(strings.TrimSuffix(s.stderr.String(), "\n"), "\n")
			last := lines[len(lines)-1]
			if code != cli.ExitInterrupted || last != "sudoku: interrupted" || took > time.Second {
				t.Errorf("%s < %s, %v: exit %d after %v, stderr %q; want %d within a second, ending in one line",
					c, name, sig, code, took, s.stderr.String(), cli.ExitInterrupted)
			}
			if name == "endless line" && (len(lines) != 2 || !strings.Contains(lines[0], "stdin:2: line longer than")) {
				t.Errorf("%s < %s: stderr %q, want the long line reported once", c, name, s.stderr.String())
			}
		}
	}
}
