package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/clitest"
)

func call(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(context.Background(), &cli.Env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e}, args)
	return code, o.String(), e.String()
}

// serve runs a serving command until stop is called; it returns the URL
// the command printed.
func serve(t *testing.T, args ...string) (url string, stop func() (int, string)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr clitest.SyncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, &cli.Env{Stdin: strings.NewReader(""), Stdout: pw, Stderr: &stderr}, args)
		pw.Close()
	}()
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		if sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
		io.Copy(io.Discard, pr)
	}()
	select {
	case url = <-lines:
	case <-time.After(10 * time.Second):
		cancel()
		t.Fatalf("%v printed no URL; stderr %q", args, stderr.String())
	}
	if url == "" {
		cancel()
		t.Fatalf("%v: exit %d without a URL; stderr %q", args, <-done, stderr.String())
	}
	return url, func() (int, string) {
		cancel()
		select {
		case code := <-done:
			return code, stderr.String()
		case <-time.After(10 * time.Second):
			t.Fatal("the server did not stop within 10 s of its context")
			return 0, ""
		}
	}
}

func TestPlay(t *testing.T) {
	url, stop := serve(t, "play", "--no-browser")
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/sudoku") {
		t.Errorf("URL %q", url)
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte("<title>Sudoku")) {
		t.Errorf("GET %s: %d %.80q", url, resp.StatusCode, body)
	}
	code, errOut := stop()
	if code != cli.ExitOK || !strings.Contains(errOut, "loopback: this machine only") || !strings.Contains(errOut, "stopped") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

func TestPlayUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"play", "extra"}, cli.ExitUsage, "takes no arguments"},
		{[]string{"play", "--listen", "nonsense"}, cli.ExitUsage, "want HOST:PORT"},
		{[]string{"play", "--listen", "127.0.0.1:99999"}, cli.ExitFail, "99999"},
		{[]string{"play", "--bogus"}, cli.ExitUsage, "bogus"},
	} {
		code, out, errOut := call(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.msg) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d and %q", c.args, code, out, errOut, c.code, c.msg)
		}
	}
	if code, out, errOut := call(t, "play", "-h"); code != cli.ExitOK || !strings.Contains(out, "-no-browser") || errOut != "" {
		t.Errorf("play -h: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
