package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os/exec"
	"slices"
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
	// The Sudoku page alone: no link to a page it does not serve.
	base := strings.TrimSuffix(url, "/sudoku")
	for path, want := range map[string]string{"/sudoku": `<a href="/sudoku" aria-current="page" data-i18n="nav.sudoku">Sudoku</a></nav>`, "/static/i18n/en.json": `"nav.sudoku":"Sudoku"`} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(b), want) || strings.Contains(string(b), "queens") {
			t.Errorf("%s: %.300q, want %q and no n-queens page", path, b, want)
		}
	}
	for _, path := range []string{"/queens", "/static/queens.js"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, resp.StatusCode)
		}
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

// TestLinksNoQueens: the Sudoku page's command links neither the n-queens
// engine nor its page nor the work queue's NATS server (go list -deps), and
// neither do the web frame and the Sudoku page it is made of. Importing
// one of them (a page package taking the other's code, the frame a page)
// would put them back into every start of sudoku play.
func TestLinksNoQueens(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go list needs the go command: %v", err)
	}
	for _, pkg := range []string{"github.com/nqcount/nqcount/cmd/sudoku-play", "github.com/nqcount/nqcount/web", "github.com/nqcount/nqcount/web/sudokupage"} {
		out, err := exec.Command(goCmd, "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, pkg) || len(deps) < 20 {
			t.Fatalf("go list -deps %s: %d packages, itself not among them", pkg, len(deps))
		}
		for _, d := range deps {
			if strings.HasPrefix(d, "github.com/nqcount/nqcount/count/queens") || strings.HasPrefix(d, "github.com/nqcount/nqcount/web/queenspage") ||
				strings.HasPrefix(d, "github.com/nats-io/") {
				t.Errorf("%s links %s", pkg, d)
			}
		}
	}
}
