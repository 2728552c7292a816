package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/clitest"
)

func TestWatch(t *testing.T) {
	for _, n := range []string{"8", "16"} {
		url, stop := clitest.Serve(t, app.Run, "watch", n, "--no-browser")
		if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/queens?n="+n) {
			t.Errorf("URL %q", url)
		}
		clitest.Page(t, url, "<title>N-queens")
		code, errOut := stop()
		if code != cli.ExitOK || !strings.Contains(errOut, "loopback") {
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
		{[]string{"watch"}, cli.ExitUsage, "one board size"},
		{[]string{"watch", "8", "9"}, cli.ExitUsage, "one board size"},
		{[]string{"watch", "0"}, cli.ExitUsage, "out of range"},
		{[]string{"watch", "33"}, cli.ExitUsage, "out of range"},
		{[]string{"watch", "x"}, cli.ExitUsage, "not a whole number"},
		{[]string{"watch", "8", "--listen", "nonsense"}, cli.ExitUsage, "want HOST:PORT"},
		{[]string{"watch", "8", "--listen", "127.0.0.1:99999"}, cli.ExitFail, "99999"},
	} {
		var o, e bytes.Buffer
		code := app.Run(context.Background(), &cli.Env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e}, c.args)
		if code != c.code || !strings.Contains(e.String(), c.msg) || o.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d and %q", c.args, code, o.String(), e.String(), c.code, c.msg)
		}
	}
}
