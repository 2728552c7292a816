package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

type watchStderr struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *watchStderr) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *watchStderr) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveWatch runs watch until stop is called; it returns the URL printed.
func serveWatch(t *testing.T, args ...string) (url string, stop func() (int, string)) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr watchStderr
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, &env{Stdin: strings.NewReader(""), Stdout: pw, Stderr: &stderr}, args)
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

func TestWatch(t *testing.T) {
	for _, n := range []string{"8", "16"} {
		url, stop := serveWatch(t, "watch", n, "--no-browser")
		if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/queens?n="+n) {
			t.Errorf("URL %q", url)
		}
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !bytes.Contains(body, []byte("<title>N-queens")) {
			t.Errorf("GET %s: %d %.80q", url, resp.StatusCode, body)
		}
		code, errOut := stop()
		if code != exitOK || !strings.Contains(errOut, "loopback") {
			t.Errorf("watch %s: exit %d, stderr %q", n, code, errOut)
		}
		if big := n == "16"; big != strings.Contains(errOut, "too large to animate") {
			t.Errorf("watch %s: stderr %q", n, errOut)
		}
	}
}

func TestWatchUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"watch"}, exitUsage, "one board size"},
		{[]string{"watch", "8", "9"}, exitUsage, "one board size"},
		{[]string{"watch", "0"}, exitUsage, "out of range"},
		{[]string{"watch", "33"}, exitUsage, "out of range"},
		{[]string{"watch", "x"}, exitUsage, "not a whole number"},
		{[]string{"watch", "8", "--listen", "nonsense"}, exitUsage, "want HOST:PORT"},
		{[]string{"watch", "8", "--listen", "127.0.0.1:99999"}, exitFail, "99999"},
	} {
		var o, e bytes.Buffer
		code := run(context.Background(), &env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e}, c.args)
		if code != c.code || !strings.Contains(e.String(), c.msg) || o.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d and %q", c.args, code, o.String(), e.String(), c.code, c.msg)
		}
	}
}
