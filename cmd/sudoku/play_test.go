//go:build unix

package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/internal/clitest"
)

// TestPlayMissing: without sudoku-play, play says how to get it, in one
// line, and fails.
func TestPlayMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	code, out, errOut := call(t, "", "play", "--no-browser")
	if code != exitFail || out != "" || !strings.Contains(errOut, "go install github.com/nqcount/nqcount/cmd/sudoku-play") || strings.Count(errOut, "\n") != 1 {
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
	if code, _, errOut := call(t, "", "play", "extra"); code != exitUsage || !strings.Contains(errOut, "sudoku: play takes no arguments") {
		t.Errorf("play extra: exit %d, stderr %q", code, errOut)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr clitest.SyncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, &env{Stdin: strings.NewReader(""), Stdout: pw, Stderr: &stderr}, []string{"play", "--no-browser"})
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	if !sc.Scan() {
		t.Fatalf("no URL; stderr %q, exit %d", stderr.String(), <-done)
	}
	url := sc.Text()
	go io.Copy(io.Discard, pr)
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "<title>Sudoku") {
		t.Errorf("GET %s: %d %.80q", url, resp.StatusCode, body)
	}
	cancel()
	select {
	case code := <-done:
		if code != exitOK || !strings.HasSuffix(stderr.String(), "sudoku: stopped\n") {
			t.Errorf("exit %d, stderr %q", code, stderr.String())
		}
	case <-time.After(2 * playStopGrace):
		t.Fatal("play did not stop")
	}
}
