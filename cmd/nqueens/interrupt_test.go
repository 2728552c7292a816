package main

import (
	"bufio"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nqcount/nqcount/internal/cli"
)

// TestInterruptLargeN is the end-to-end check of bounded slices: at
// n = 22 every task runs for minutes inside a kernel, yet the progress
// line moves at its interval with a live node rate, and Ctrl-C ends the process within
// a slice (the bound below is loose for loaded machines; RESULTS.md has
// the measured figures).
func TestInterruptLargeN(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	cmd := exec.Command(binary(t), "count", "22", "--progress", "on", "--progress-every", "200ms")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	// Wait for three progress lines, the last with a node rate: the
	// workers are then deep in their first tasks, none of which ends in
	// the next minute. (On a loaded machine the tables may still be in
	// the making at the third line.)
	var seen []string
	timeout := time.After(2 * time.Minute)
	for len(seen) < 3 || strings.Contains(seen[len(seen)-1], ", 0 nodes/s") {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("stderr closed early: %q", seen)
			}
			if strings.HasPrefix(l, "progress: ") {
				seen = append(seen, l)
			}
		case <-timeout:
			t.Fatalf("no progress lines with a node rate within two minutes at n = 22 (got %q)", seen)
		}
	}
	start := time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	var rest []string
	for l := range lines {
		rest = append(rest, l)
	}
	cmd.Wait()
	el := time.Since(start)
	if el > 5*time.Second {
		t.Errorf("Ctrl-C at n = 22 took %v to end the process", el)
	}
	t.Logf("Ctrl-C to exit: %v", el)
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() || cmd.ProcessState.ExitCode() != cli.ExitInterrupted {
		t.Errorf("exit %v, want %d", cmd.ProcessState, cli.ExitInterrupted)
	}
	all := strings.Join(rest, "\n")
	if !strings.Contains(all, "stopping:") || !strings.Contains(all, "interrupted") {
		t.Errorf("stderr after Ctrl-C: %q", all)
	}
}
