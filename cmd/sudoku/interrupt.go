package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// interrupt is the handling of SIGINT and SIGTERM that cli.App.Main sets
// up (the first cancels the context the command runs with, a second ends
// the process at once), installed when a command needs it rather than at
// start: Notify costs a run some 0.2-0.6 ms of CPU (threads of the
// runtime's own for signals, and their wake-ups), a twentieth of solving
// a file of a thousand puzzles. Every command installs it before it reads
// or waits for anything (standard input, a pipe, a FIFO, a terminal) or
// starts work that may last; solve of a regular file, whose reads never
// wait and whose puzzles take milliseconds, installs it after
// interruptDelay, so a short run never pays for it. A signal before then
// ends the process by its default action, as it ends any program still
// starting (a shell says 130 or 143).
type interrupt struct {
	cancel context.CancelFunc // nil: not run by main (tests give their own context)
	once   sync.Once
}

// interruptDelay is how long solve of a regular file runs before it
// installs the handling of SIGINT and SIGTERM.
const interruptDelay = 20 * time.Millisecond

var interrupts interrupt

// arm installs the handling now (once).
func (in *interrupt) arm() {
	if in.cancel == nil {
		return
	}
	in.once.Do(func() {
		c := make(chan os.Signal, 1)
		signal.Notify(c, os.Interrupt, syscall.SIGTERM)
		go func() {
			<-c
			signal.Stop(c) // a second signal ends the process at once
			in.cancel()
		}()
	})
}

// armSoon installs the handling after interruptDelay.
func (in *interrupt) armSoon() {
	if in.cancel != nil {
		time.AfterFunc(interruptDelay, in.arm)
	}
}

// runMain runs the command of args with the handling of the signals that
// cli.App.Main gives (see there), but for when SIGINT and SIGTERM are
// handled (interrupt), and exits. SIGPIPE is ignored, so that writing to
// a pipe whose reader has gone away fails with EPIPE instead of killing
// the process.
func runMain(args []string) {
	signal.Ignore(syscall.SIGPIPE)
	ctx, cancel := context.WithCancel(context.Background())
	interrupts.cancel = cancel
	if len(args) == 0 || args[0] != "solve" {
		interrupts.arm()
	}
	code := run(ctx, &env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, args)
	cancel()
	os.Exit(code)
}
