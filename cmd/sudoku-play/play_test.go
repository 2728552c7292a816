package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/clitest"
)

func call(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = app.Run(context.Background(), &cli.Env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e}, args)
	return code, o.String(), e.String()
}

func TestPlay(t *testing.T) {
	url, stop := clitest.Serve(t, app.Run, "play", "--no-browser")
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.HasSuffix(url, "/sudoku") {
		t.Errorf("URL %q", url)
	}
	clitest.Page(t, url, "<title>Sudoku")
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
