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
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"sync"
	"testing"
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
