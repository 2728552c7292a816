//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/clitest"
)

// TestPlayMissing: without sudoku-play (none beside this executable, on
// PATH or where go install puts it) and without the go command to build
// it, play says how to get it, in one line, and fails.
func TestPlayMissing(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("PATH", empty)
	t.Setenv("GOBIN", empty)
	t.Setenv("GOPATH", empty)
	code, out, errOut := call(t, "", "play", "--no-browser")
	if code != cli.ExitFail || out != "" || !strings.Contains(errOut, "go install github.com/nqcount/nqcount/cmd/sudoku-play") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestPlayInterruptedEarly: an interrupt that comes before sudoku-play
// starts, or reaches it before it handles signals and stops it by the
// signal itself (here a stand-in that never handles one), is still a stop
// asked for: play exits 130 and says nothing.
func TestPlayInterruptedEarly(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\nexec sleep 30\n"
	if err := os.WriteFile(filepath.Join(dir, playCommand), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command")
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+filepath.Dir(sleep))
	// After 0: the interrupt came before sudoku-play started.
	for _, after := range []time.Duration{0, 200 * time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), after)
		var o, e bytes.Buffer
		code := app.Run(ctx, &cli.Env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e}, []string{"play", "--no-browser"})
		cancel()
		if code != cli.ExitInterrupted || e.String() != "" {
			t.Errorf("interrupt after %v: exit %d, stderr %q, want %d and nothing said", after, code, e.String(), cli.ExitInterrupted)
		}
	}
}

// TestPlayRuns builds sudoku-play, puts it on PATH and checks that play
// runs it with its arguments (its URL serves the page), passes on the
// interrupt (it says "stopped") and returns its exit status.
func TestPlayRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds sudoku-play")
	}
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, playCommand), "github.com/nqcount/nqcount/cmd/sudoku-play")
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	t.Setenv("PATH", dir)
	if code, _, errOut := call(t, "", "play", "extra"); code != cli.ExitUsage || !strings.Contains(errOut, "sudoku: play takes no arguments") {
		t.Errorf("play extra: exit %d, stderr %q", code, errOut)
	}
	url, stop := clitest.Serve(t, app.Run, "play", "--no-browser")
	clitest.Page(t, url, "<title>Sudoku")
	if code, errOut := stop(); code != cli.ExitOK || !strings.HasSuffix(errOut, "sudoku: stopped\n") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// TestPlayBuildsFromSource is go run ./cmd/sudoku play from a fresh clone:
// with no sudoku-play anywhere but the go command on PATH, play builds it
// from the source (this test binary, like go run's, is built from the
// module) and runs it.
func TestPlayBuildsFromSource(t *testing.T) {
	if testing.Short() {
		t.Skip("builds sudoku-play")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command: %v", err)
	}
	// Its packages compiled first, so that play's build (a link) prints
	// the URL within clitest.Serve's wait on a busy machine.
	if b, err := exec.Command(goCmd, "build", "-o", os.DevNull, "github.com/nqcount/nqcount/cmd/sudoku-play").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	// PATH as it is (the C compiler on it: without one the go command
	// would build with other settings, from scratch) without the folders
	// that hold a sudoku-play.
	var path []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, playCommand)); err != nil {
			path = append(path, dir)
		}
	}
	t.Setenv("PATH", strings.Join(path, string(os.PathListSeparator)))
	t.Setenv("GOBIN", t.TempDir()) // go install's folder: no sudoku-play there
	url, stop := clitest.Serve(t, app.Run, "play", "--no-browser")
	clitest.Page(t, url, "<title>Sudoku")
	code, errOut := stop()
	if code != cli.ExitOK || !strings.Contains(errOut, "sudoku: play: building sudoku-play from the source") || !strings.HasSuffix(errOut, "sudoku: stopped\n") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
