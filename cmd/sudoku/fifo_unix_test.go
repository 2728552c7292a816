//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nqcount/nqcount/internal/cli"
)

// A FIFO nobody opens for writing holds a command that reads puzzles only
// until it is interrupted (once: opening it waited, deaf to Ctrl-C);
// a FIFO whose writer comes later is read as before.
func TestFIFOInput(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range readCommands {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(200*time.Millisecond, cancel)
		var out, errb bytes.Buffer
		start := time.Now()
		code := app.Run(ctx, &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, []string{c, fifo})
		cancel()
		if d := time.Since(start); code != cli.ExitInterrupted || errb.String() != "sudoku: interrupted\n" || out.Len() != 0 || d > 5*time.Second {
			t.Errorf("%s on a FIFO nobody writes: exit %d after %v, stdout %q, stderr %q; want %d soon after 200ms",
				c, code, d, out.String(), errb.String(), cli.ExitInterrupted)
		}
	}
	const puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
	for _, c := range readCommands {
		go func() {
			time.Sleep(100 * time.Millisecond)
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
			if err != nil {
				t.Error(err)
				return
			}
			w.WriteString(puzzle + "\n")
			w.Close()
		}()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		var out, errb bytes.Buffer
		code := app.Run(ctx, &cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, []string{c, fifo})
		cancel()
		if code != cli.ExitOK || out.Len() == 0 {
			t.Errorf("%s on a FIFO written later: exit %d, stdout %q, stderr %q", c, code, out.String(), errb.String())
		}
	}
}
