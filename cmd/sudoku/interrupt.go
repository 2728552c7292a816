package main

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// interrupt is the handling of SIGINT and SIGTERM that cli.App.Main sets
// up (the first cancels the context the command runs with, a second ends
// the process at once), installed when a command needs it rather than at
// start: Notify costs a run some 0.2-0.6 ms of CPU (threads of the
// runtime's own for signals, and their wake-ups), which a command that
// fails on its arguments need not pay. Every command installs it before
// it reads or waits for anything or starts any work, so a signal never
// loses output of work that finished.
type interrupt struct {
	cancel context.CancelFunc // nil: not run by main (tests give their own context)
	once   sync.Once
}

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
