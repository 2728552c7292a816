package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"time"

	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "play", Summary: "play in the browser: a local web app (generate, enter, hints, save/load)", Run: runPlay})
}

// playCommand is the command that serves the browser app, which play
// runs: the web server lives in a command of its own so that this one,
// run once a puzzle by scripts, starts without it (see docs/web.md).
const playCommand = "sudoku-play"

// playStopGrace is how long play waits for sudoku-play to stop after
// passing on an interrupt, before killing it.
const playStopGrace = 10 * time.Second

// findPlay returns the path of sudoku-play: the one beside this
// executable (where go install puts both), else the one on PATH.
func findPlay() (string, error) {
	name := playCommand
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, nil
		}
	}
	return exec.LookPath(playCommand)
}

// runPlay runs sudoku-play with play's arguments, passes it an interrupt
// when ctx ends, and returns its exit status.
func runPlay(ctx context.Context, e *cli.Env, args []string) int {
	path, err := findPlay()
	if err != nil {
		e.Errorf("play: the browser app is the %s command, found neither beside this one nor on PATH: install it with go install github.com/nqcount/nqcount/cmd/%s (or run go run ./cmd/%s from the source)", playCommand, playCommand, playCommand)
		return cli.ExitFail
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdout, cmd.Stderr = e.Stdout, e.Stderr
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = playStopGrace
	detach(cmd)
	err = cmd.Run()
	// Its status, even where Run reports the interrupt passed on (ctx's
	// error) for a server that then stopped cleanly.
	if st := cmd.ProcessState; st != nil && st.Exited() {
		return st.ExitCode()
	}
	e.Errorf("play: %s: %v", path, err)
	return cli.ExitFail
}
