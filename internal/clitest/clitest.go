// Package clitest runs the commands of this module as real processes in
// their tests, for what only a process shows: exit codes, a stdout that is
// a full device or a pipe nobody reads, signals. The test binary itself
// plays the command: each command's tests have
//
//	func TestHelperMain(t *testing.T) { clitest.HelperMain(t, main) }
//
// and Run starts the test binary again with only that test selected and
// the command's arguments in the environment.
package clitest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nqcount/nqcount/internal/cli"
)

const envArgs = "NQCOUNT_CLITEST_ARGS"

// HelperMain is the body of a package's TestHelperMain: in a process
// started by Run it runs main with Run's arguments (main exits); in a
// normal test run it skips.
func HelperMain(t *testing.T, main func()) {
	js := os.Getenv(envArgs)
	if js == "" {
		t.Skip("not a test: the command run by clitest.Run")
	}
	var args []string
	if err := json.Unmarshal([]byte(js), &args); err != nil {
		t.Fatal(err)
	}
	os.Args = args
	main()
	os.Exit(0)
}

// Env is the environment variable (NAME=VALUE) that makes the test
// binary, run with -test.run=^TestHelperMain$, the command prog with args:
// for tests that start the process themselves.
func Env(prog string, args ...string) string {
	js, err := json.Marshal(append([]string{prog}, args...))
	if err != nil {
		panic(err) // strings always marshal
	}
	return envArgs + "=" + string(js)
}

// Run runs the command, as prog with args, in a new process whose stdout
// is stdout (nil: discarded), and returns its exit status (-1 if a signal
// ended it) and stderr.
func Run(t *testing.T, stdout *os.File, prog string, args ...string) (code int, stderr string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperMain$")
	cmd.Env = append(os.Environ(), Env(prog, args...))
	var errb bytes.Buffer
	if stdout != nil {
		cmd.Stdout = stdout
	}
	cmd.Stderr = &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return code, errb.String()
}

// DevFull opens /dev/full, where every write fails with ENOSPC, or skips
// the test where there is none.
func DevFull(t *testing.T) *os.File {
	t.Helper()
	f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// BrokenPipe returns the writing end of a pipe whose reading end is
// already closed: the first write to it fails with EPIPE (and raises
// SIGPIPE), as when stdout is piped into head and head has exited.
func BrokenPipe(t *testing.T) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	t.Cleanup(func() { w.Close() })
	return w
}

// SyncBuffer is a bytes.Buffer that a command may write while a test
// reads it: the stderr of a server under test.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Serve runs a serving command (run with args, in the process, as a
// command's tests call it) until stop is called, and returns the URL it
// printed as its first line of stdout. stop cancels the command's context
// and returns its exit code and stderr; a command that prints no URL
// within 10 s, or does not stop within 10 s of stop, fails the test.
func Serve(t *testing.T, run func(context.Context, *cli.Env, []string) int, args ...string) (url string, stop func() (int, string)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr SyncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, &cli.Env{Stdin: strings.NewReader(""), Stdout: pw, Stderr: &stderr}, args)
		pw.Close()
	}()
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		io.Copy(io.Discard, pr)
	}()
	select {
	case url = <-lines:
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatalf("%v printed no URL; stderr %q", args, stderr.String())
	}
	if url == "" {
		cancel()
		t.Fatalf("%v: exit %d without a URL; stderr %q", args, <-done, stderr.String())
	}
	return url, func() (int, string) {
		cancel()
		select {
		case code := <-done:
			return code, stderr.String()
		case <-time.After(10 * time.Second):
			t.Fatal("the server did not stop within 10 s of its context")
			return 0, ""
		}
	}
}

// Page gets url and fails the test unless it answers 200 with a body
// that contains want.
func Page(t *testing.T, url, want string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
		t.Errorf("GET %s: %d %.80q, want 200 and %q", url, resp.StatusCode, body, want)
	}
}

// Lines keeps the lines a server under test logs through a Logf, each
// stamped with the time it came; safe for concurrent use.
type Lines struct {
	mu    sync.Mutex
	lines []string
}

// Logf adds a line.
func (l *Lines) Logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, time.Now().Format("15:04:05.000 ")+fmt.Sprintf(format, args...))
}

// Has reports whether a line contains s.
func (l *Lines) Has(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range l.lines {
		if strings.Contains(line, s) {
			return true
		}
	}
	return false
}

// String returns the lines so far, one a line.
func (l *Lines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}
