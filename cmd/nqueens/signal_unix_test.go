//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/clitest"
)

// SIGHUP (the terminal closed, the ssh session dropped) ends a count as
// SIGINT and SIGTERM do: 130 and the resume line (once: it
// ended with 129 and nothing said).
func TestSignalsEndCount(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := binary(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "j")
			cmd := exec.Command(bin, "count", "17", "--workers", "1", "--checkpoint", path)
			var errb clitest.SyncBuffer
			cmd.Stderr = &errb
			exited := started(t, cmd)
			waitRecords(t, &journalWatch{path: path}, 1, exited)
			cmd.Process.Signal(sig)
			waitExit(t, cmd, exited)
			if code := cmd.ProcessState.ExitCode(); code != cli.ExitInterrupted {
				t.Fatalf("exit %v, want %d: %s", cmd.ProcessState, cli.ExitInterrupted, errb.String())
			}
			if want := "resume with:\n  " + bin + " count 17 --workers 1 --checkpoint " + path; !strings.Contains(errb.String(), want) {
				t.Errorf("stderr %q lacks %q", errb.String(), want)
			}
		})
	}
}

// A checkpoint whose folder is removed while the count runs is never named
// as resumable: the run fails with one line saying so, by itself at the
// record after the next sync (once a second), or when interrupted first.
// n = 18 on one worker takes seconds.
func TestCheckpointRemoved(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	bin := binary(t)
	for _, interrupt := range []bool{false, true} {
		name := map[bool]string{false: "alone", true: "then Ctrl-C"}[interrupt]
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "run")
			os.Mkdir(dir, 0o755)
			path := filepath.Join(dir, "j")
			cmd := exec.Command(bin, "count", "18", "--workers", "1", "--checkpoint", path)
			var errb clitest.SyncBuffer
			cmd.Stderr = &errb
			exited := started(t, cmd)
			waitRecords(t, &journalWatch{path: path}, 1, exited)
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			if interrupt {
				cmd.Process.Signal(os.Interrupt)
			}
			waitExit(t, cmd, exited)
			stderr := errb.String()
			if code := cmd.ProcessState.ExitCode(); code != cli.ExitFail {
				t.Fatalf("exit %v, want %d: %s", cmd.ProcessState, cli.ExitFail, stderr)
			}
			if strings.Contains(stderr, "resume with") {
				t.Errorf("a removed checkpoint named as resumable: %q", stderr)
			}
			lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			last := lines[len(lines)-1]
			if !strings.Contains(last, path) || !strings.Contains(last, "removed") {
				t.Errorf("last line %q: want it to say %s was removed", last, path)
			}
			if !interrupt && len(lines) != 1 {
				t.Errorf("stderr: %q, want one line", stderr)
			}
		})
	}
}
