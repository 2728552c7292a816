package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
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

// playPackage is the package of the play command, for go install and
// for building it from the source.
const playPackage = "github.com/nqcount/nqcount/cmd/" + playCommand

// exeName is name as an executable of this system.
func exeName(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

// findPlay returns the path of sudoku-play, looked for where the go tool
// puts commands: beside this executable (go install puts both in one
// folder), on PATH, then in go install's folder (GOBIN, else GOPATH's
// bin) when that is not on PATH.
func findPlay() (string, error) {
	name := exeName(playCommand)
	if self, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(self), name); isFile(p) {
			return p, nil
		}
	}
	if p, err := exec.LookPath(playCommand); err == nil {
		return p, nil
	}
	if dir := installDir(); dir != "" {
		if p := filepath.Join(dir, name); isFile(p) {
			return p, nil
		}
	}
	return "", errors.New("not found")
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// installDir is where go install puts commands: GOBIN, else the bin
// folder of GOPATH's first entry, else ~/go/bin, as the go command says
// when there is one (it also reads the settings of go env -w).
func installDir() string {
	gobin, gopath := os.Getenv("GOBIN"), os.Getenv("GOPATH")
	if goCmd, err := exec.LookPath("go"); err == nil {
		if out, err := exec.Command(goCmd, "env", "GOBIN", "GOPATH").Output(); err == nil {
			if lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n"); len(lines) == 2 {
				gobin, gopath = lines[0], lines[1]
			}
		}
	}
	if gobin != "" {
		return gobin
	}
	if first, _, _ := strings.Cut(gopath, string(os.PathListSeparator)); first != "" {
		return filepath.Join(first, "bin")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, "go", "bin")
	}
	return ""
}

// fromSource reports whether this executable was built from this
// module's source by the go tool (go run or go build in a clone: version
// "(devel)"), where sudoku-play can be built the same way.
func fromSource() bool {
	bi, ok := debug.ReadBuildInfo()
	return ok && bi.Main.Path == modulePath && bi.Main.Version == "(devel)"
}

// modulePath is this module's path.
const modulePath = "github.com/nqcount/nqcount"

// buildPlay builds sudoku-play from the source, as go run would: into a
// new temporary folder (the go build cache makes it a link after the
// first time), returned with the function that removes it. It works in a
// clone of the module (the current folder inside it); goCmd is the go
// command.
func buildPlay(ctx context.Context, e *cli.Env, goCmd string) (path string, cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "sudoku-play-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	path = filepath.Join(dir, exeName(playCommand))
	e.Errorf("play: building %s from the source (go build %s)", playCommand, playPackage)
	build := exec.CommandContext(ctx, goCmd, "build", "-o", path, playPackage)
	var stderr bytes.Buffer
	build.Stderr = &stderr
	if err := build.Run(); err != nil {
		cleanup()
		msg, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		if msg == "" {
			msg = err.Error()
		}
		return "", nil, errors.New(msg)
	}
	return path, cleanup, nil
}

// runPlay runs sudoku-play with play's arguments, passes it an interrupt
// when ctx ends, and returns its exit status.
func runPlay(ctx context.Context, e *cli.Env, args []string) int {
	path, err := findPlay()
	if goCmd, gerr := exec.LookPath("go"); err != nil && gerr == nil && fromSource() {
		var cleanup func()
		var berr error
		if path, cleanup, berr = buildPlay(ctx, e, goCmd); berr == nil {
			defer cleanup()
			err = nil
		} else if ctx.Err() != nil {
			return cli.ExitInterrupted
		} else {
			e.Errorf("play: building %s: %v", playCommand, berr)
		}
	}
	if err != nil {
		e.Errorf("play: the browser app is the %s command, found neither beside this one, nor on PATH, nor where go install puts it: install it with go install %s (or run go run ./cmd/%s from the source)", playCommand, playPackage, playCommand)
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
	// An interrupt that came before sudoku-play started, or that stopped
	// it by the signal itself before it handled signals, is still a stop
	// asked for, not a failure.
	if ctx.Err() != nil {
		st := cmd.ProcessState
		if st == nil {
			return cli.ExitInterrupted
		}
		if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGINT {
			return cli.ExitInterrupted
		}
	}
	e.Errorf("play: %s: %v", path, err)
	return cli.ExitFail
}
