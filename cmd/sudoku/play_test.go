//go:build unix

package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/clitest"
)

// TestPlayMissing: without sudoku-play, play says how to get it, in one
// line, and fails.
func TestPlayMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	code, out, errOut := call(t, "", "play", "--no-browser")
	if code != cli.ExitFail || out != "" || !strings.Contains(errOut, "go install github.com/nqcount/nqcount/cmd/sudoku-play") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
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
