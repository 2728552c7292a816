// Package apitest holds what the tests of package web and of its pages
// share to call a server's JSON API: a request and its answer checked
// against the API's conventions (docs/web.md).
package apitest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/generate"
	"github.com/nqcount/nqcount/count/sudoku/logic"
)

// Call sends a request and decodes the JSON answer into out (when not
// nil); it returns the status. Every answer must be JSON, errors an
// object with a one-line message, which an error answer puts in out
// when out is a *string.
func Call(t testing.TB, srv *httptest.Server, method, path, ctype, body string, out any) int {
	t.Helper()
	req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("%s %s: content type %q, body %q", method, path, ct, b)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct{ Error string }
		if err := json.Unmarshal(b, &e); err != nil || e.Error == "" || strings.Contains(e.Error, "\n") {
			t.Fatalf("%s %s: status %d with body %q: want {\"error\": one line}", method, path, resp.StatusCode, b)
		}
		if out != nil {
			if p, ok := out.(*string); ok {
				*p = e.Error
			}
		}
		return resp.StatusCode
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v in %q", method, path, err, b)
		}
	}
	return resp.StatusCode
}

// Post sends body as JSON to path, as Call does.
func Post(t testing.TB, srv *httptest.Server, path string, body any, out any) int {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return Call(t, srv, http.MethodPost, path, "application/json", string(b), out)
}

// MustPost posts as Post does and fails the test unless the answer is
// 200.
func MustPost(t testing.TB, srv *httptest.Server, path string, body any, out any) {
	t.Helper()
	var msg string
	if out == nil {
		out = &msg
	}
	if code := Post(t, srv, path, body, out); code != http.StatusOK {
		t.Fatalf("%s %v: status %d %v", path, body, code, out)
	}
}

// Puzzle returns the puzzle the generator makes for opt at index: what a
// generate request with the same options must answer.
func Puzzle(t testing.TB, opt generate.Options, index int) generate.Puzzle {
	t.Helper()
	p, err := generate.One(context.Background(), opt, index)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Grid returns the grid s reads as, failing the test if it does not.
func Grid(t testing.TB, s string) sudoku.Grid {
	t.Helper()
	g, err := sudoku.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// CheckStep checks a step against the solution: what it places is the
// solution's digit, what it removes is not.
func CheckStep(t testing.TB, st logic.Step, sol sudoku.Grid) {
	t.Helper()
	if len(st.Placements)+len(st.Eliminations) == 0 || st.Text == "" || st.Score < sudoku.MinScore {
		t.Errorf("empty step %+v", st)
	}
	for _, m := range st.Placements {
		if int(sol[m.Cell]) != m.Digit {
			t.Errorf("%q places %d in %s, the solution has %d", st.Text, m.Digit, sudoku.CellName(m.Cell), sol[m.Cell])
		}
	}
	for _, m := range st.Eliminations {
		if int(sol[m.Cell]) == m.Digit {
			t.Errorf("%q removes %d from %s, the solution's digit", st.Text, m.Digit, sudoku.CellName(m.Cell))
		}
	}
}
