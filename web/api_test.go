package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/logic"
	"github.com/nqcount/nqcount/web"
	"github.com/nqcount/nqcount/web/internal/apitest"
	"github.com/nqcount/nqcount/web/queenspage"
	"github.com/nqcount/nqcount/web/sudokupage"
)

const (
	top1    = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
	top1Sol = "468931527751624839392578461134756298289413675675289314846192753513867942927345186"
)

// pages are both pages, as nqueens watch serves them: the Sudoku page
// counting on the live count's workers.
func pages(q queenspage.Options) []*web.Page {
	return []*web.Page{sudokupage.New(sudokupage.Options{Workers: q.Workers}), queenspage.New(q)}
}

func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(web.New(web.Options{Pages: pages(queenspage.Options{Workers: 2})}))
	t.Cleanup(srv.Close)
	return srv
}

func TestBadRequests(t *testing.T) {
	srv := newServer(t)
	big := `{"text":"` + strings.Repeat("a", web.MaxBody) + `"}`
	for _, c := range []struct {
		method, path, ctype, body string
		status                    int
		msg                       string
	}{
		{"GET", "/api/sudoku/solve", "", "", 405, "use POST"},
		{"POST", "/api/sudoku/solve", "text/plain", `{"grid":"` + top1 + `"}`, 415, "application/json"},
		{"POST", "/api/sudoku/solve", "application/json", "", 400, "empty request body"},
		{"POST", "/api/sudoku/solve", "application/json", "{", 400, "bad"},
		{"POST", "/api/sudoku/solve", "application/json", `{"grid": 5}`, 400, `field "grid": want a JSON string`},
		{"POST", "/api/sudoku/solve", "application/json", `[1,2]`, 400, "want a JSON object"},
		{"POST", "/api/sudoku/solve", "application/json", `{"grid":"123"}`, 400, "3 characters, want 81"},
		{"POST", "/api/sudoku/solve", "application/json", `{"grid":"` + strings.Repeat("x", 81) + `"}`, 400, `character 1 is "x"`},
		{"POST", "/api/sudoku/solve", "application/json", `{"grid":"` + top1 + `","extra":1}`, 400, "unknown field"},
		// Names are case-sensitive, characters are
		// not bytes (a full-width digit is one character, not a digit).
		{"POST", "/api/sudoku/solve", "application/json", `{"GRID":"` + top1 + `"}`, 400, `unknown field "GRID"`},
		{"POST", "/api/sudoku/solve", "application/json", `{"Grid":"` + top1 + `"}`, 400, `unknown field "Grid"`},
		{"POST", "/api/sudoku/save", "application/json", `{"Puzzle":"` + top1 + `","format":"line"}`, 400, `unknown field "Puzzle"`},
		{"POST", "/api/sudoku/solve", "application/json", `{"grid":"` + top1 + `１"}`, 400, "grid: 82 characters, want 81"},
		{"POST", "/api/sudoku/solve", "application/json", `{"grid":"１` + top1[1:] + `"}`, 400, `grid: character 1 is "１", not a digit`},
		{"POST", "/api/sudoku/solve", "application/jsonx", `{"grid":"` + top1 + `"}`, 415, "application/json"},
		{"POST", "/api/sudoku/solve", "application/json", `{"grid":"` + top1 + `"} {}`, 400, "more than one JSON value"},
		{"POST", "/api/sudoku/parse", "application/json", big, 413, "over"},
		{"POST", "/api/sudoku/solve", "application/json", strings.Repeat(" ", web.MaxBody+10), 413, "over"},
		{"POST", "/api/sudoku/count", "application/json", `{"grid":"` + top1 + `","limit":1000000}`, 400, "at most 100000"},
		{"POST", "/api/sudoku/count", "application/json", `{"grid":"` + top1 + `","limit":-1}`, 400, "limit"},
		{"POST", "/api/sudoku/generate", "application/json", `{"difficulty":"fiendish"}`, 400, "unknown difficulty"},
		{"POST", "/api/sudoku/generate", "application/json", `{"seed":"abc"}`, 400, "seed"},
		{"POST", "/api/sudoku/generate", "application/json", `{"seed":"0"}`, 400, "seed"},
		{"POST", "/api/sudoku/generate", "application/json", `{"seed":42}`, 400, `field "seed": want a JSON string`},
		// Numbers that do not fit the field say why (not "want a
		// JSON number, got number 1e9").
		{"POST", "/api/queens/orders", "application/json", `{"n":1e9}`, 400, `field "n": want a whole number in digits, like 12, got 1e9`},
		{"POST", "/api/queens/orders", "application/json", `{"n":2.5}`, 400, `field "n": want a whole number in digits, like 12, got 2.5`},
		{"POST", "/api/queens/orders", "application/json", `{"n":99999999999999999999}`, 400, `field "n": 99999999999999999999 is out of range`},
		{"POST", "/api/sudoku/count", "application/json", `{"grid":"` + top1 + `","limit":-1}`, 400, `field "limit": want a whole number, 0 or more, got -1`},
		{"POST", "/api/queens/orders", "application/json", `{"n":` + strings.Repeat("9", 1000) + `}`, 400, `field "n": 9999999999999999999999999999999999999999… is out of range`},
		{"POST", "/api/sudoku/generate", "application/json", `{"index":-1}`, 400, "index"},
		{"POST", "/api/sudoku/generate", "application/json", `{"symmetry":"spiral"}`, 400, "symmetry"},
		{"POST", "/api/sudoku/generate", "application/json", `{"score":"13-14"}`, 400, "score range"},
		{"POST", "/api/sudoku/generate", "application/json", `{"score":"2.0-3.0","difficulty":"hard"}`, 400, "give one"},
		{"POST", "/api/sudoku/generate", "application/json", `{"symmetric":true}`, 400, "unknown field"},
		{"POST", "/api/sudoku/save", "application/json", `{"puzzle":"` + top1 + `","format":"xml"}`, 400, "unknown format"},
		{"POST", "/api/sudoku/save", "application/json", `{"puzzle":"` + top1 + `","seconds":-5}`, 400, "seconds"},
		{"POST", "/api/queens/trace", "application/json", `{"n":13}`, 400, "1 to 12"},
		{"POST", "/api/queens/trace", "application/json", `{"n":0}`, 400, "1 to 12"},
		{"POST", "/api/queens/trace", "application/json", `{"n":8,"order":"diagonal"}`, 400, "unknown order"},
		{"POST", "/api/queens/trace", "application/json", `{"n":8,"limit":20001}`, 400, "limit"},
		{"POST", "/api/queens/trace", "application/json", `{"n":8,"from":-1}`, 400, "from"},
		{"POST", "/api/queens/trace", "application/json", `{"n":1e100}`, 400, "n"},
		{"POST", "/api/queens/orders", "application/json", `{"n":40}`, 400, "1 to 12"},
		{"POST", "/api/queens/count", "application/json", `{"n":33}`, 400, "1 to 32"},
		{"PUT", "/api/queens/count", "application/json", `{"n":8}`, 405, "use GET"},
		{"GET", "/api/nothing", "", "", 404, "no API endpoint"},
	} {
		var msg string
		if got := apitest.Call(t, srv, c.method, c.path, c.ctype, c.body, &msg); got != c.status || !strings.Contains(msg, c.msg) {
			body := c.body
			if len(body) > 60 {
				body = body[:60] + "..."
			}
			t.Errorf("%s %s %q: %d %q, want %d and %q", c.method, c.path, body, got, msg, c.status, c.msg)
		}
	}
}

// TestRefusedBodyRead sends bodies under MaxBody, on a connection of
// their own, to requests refused before the body is decoded (no such
// endpoint, a wrong method, a wrong content type): each gets its answer,
// never a connection reset because the server closed while the body was
// still coming (a server that answered before reading reset about one
// request in thirty here).
func TestRefusedBodyRead(t *testing.T) {
	srv := newServer(t)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	body := `{"grid":"` + strings.Repeat("1", 60<<10) + `"}`
	for _, c := range []struct {
		method, path, ctype string
		status              int
	}{
		{"POST", "/api/nothing", "application/json", 404},
		{"PUT", "/api/sudoku/solve", "application/json", 405},
		{"POST", "/api/sudoku/solve", "text/plain", 415},
	} {
		for i := range 100 {
			req, err := http.NewRequest(c.method, srv.URL+c.path, strings.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", c.ctype)
			resp, err := client.Do(req)
			if err != nil {
				t.Fatalf("%s %s, try %d: %v", c.method, c.path, i, err)
			}
			resp.Body.Close()
			if resp.StatusCode != c.status {
				t.Fatalf("%s %s: %d, want %d", c.method, c.path, resp.StatusCode, c.status)
			}
		}
	}
}

func TestPagesAndSecurity(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	get := func(path string) *http.Response {
		t.Helper()
		resp, err := c.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	if r := get("/"); r.StatusCode != http.StatusFound || r.Header.Get("Location") != "/sudoku" {
		t.Errorf("/: %d %q", r.StatusCode, r.Header.Get("Location"))
	}
	for _, page := range []string{"/sudoku", "/queens"} {
		r := get(page)
		if r.StatusCode != 200 || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") || !strings.Contains(r.Header.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("%s: %d %v", page, r.StatusCode, r.Header)
		}
	}
	if r := get("/static/sudoku.js"); r.StatusCode != 200 || !strings.Contains(r.Header.Get("Content-Type"), "javascript") {
		t.Errorf("script: %d %q", r.StatusCode, r.Header.Get("Content-Type"))
	}
	if r := get("/static/"); r.StatusCode != 404 {
		t.Errorf("directory listing: %d", r.StatusCode)
	}

	// With a token, every request needs it.
	tok := httptest.NewServer(web.New(web.Options{Pages: pages(queenspage.Options{}), Token: "s3cret"}))
	defer tok.Close()
	tc := tok.Client()
	for _, h := range []struct {
		path, header string
		want         int
	}{
		{"/sudoku", "", 401},
		{"/sudoku?token=wrong", "", 401},
		{"/api/queens/count", "Bearer wrong", 401},
		{"/api/queens/count", "Bearer s3cret", 200},
		{"/sudoku?token=s3cret", "", 200},
	} {
		req, _ := http.NewRequest("GET", tok.URL+h.path, nil)
		if h.header != "" {
			req.Header.Set("Authorization", h.header)
		}
		resp, err := tc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != h.want {
			t.Errorf("token: %s %q: %d, want %d", h.path, h.header, resp.StatusCode, h.want)
		}
		if h.want == 200 && strings.Contains(h.path, "token=") {
			cookies := resp.Cookies()
			if len(cookies) != 1 || !cookies[0].HttpOnly {
				t.Fatalf("no token cookie: %v", cookies)
			}
			req, _ := http.NewRequest("GET", tok.URL+"/api/queens/count", nil)
			req.AddCookie(cookies[0])
			resp, err := tc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("with the cookie: %d", resp.StatusCode)
			}
		}
	}
}

func TestListen(t *testing.T) {
	srv, err := web.Listen("", web.Options{Pages: pages(queenspage.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	if !srv.Loopback() || !strings.HasPrefix(srv.URL("/sudoku"), "http://127.0.0.1:") || strings.Contains(srv.URL("/sudoku"), "token") {
		t.Errorf("default: loopback %v, URL %s", srv.Loopback(), srv.URL("/sudoku"))
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	// A name that resolves elsewhere (DNS rebinding) is refused.
	for host, want := range map[string]int{srv.Addr().String(): 200, "evil.example:80": 403, "localhost:" + port(srv): 200} {
		req, _ := http.NewRequest("GET", "http://"+srv.Addr().String()+"/sudoku", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, resp.StatusCode, want)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}

	// Any other address: a token, in the URL printed.
	open, err := web.Listen("0.0.0.0:0", web.Options{Pages: pages(queenspage.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	defer open.Close()
	if open.Loopback() || !strings.Contains(open.URL("/queens?n=8"), "/queens?n=8&token=") {
		t.Errorf("0.0.0.0: loopback %v, URL %s", open.Loopback(), open.URL("/queens?n=8"))
	}
	if _, err := web.Listen("no-port", web.Options{Pages: pages(queenspage.Options{})}); err == nil {
		t.Error("an address without a port accepted")
	}
}

func port(s *web.Server) string {
	a := s.Addr().String()
	return a[strings.LastIndexByte(a, ':')+1:]
}

// TestHintCandidates: a hint request with the player's candidates works
// from them, reports a removed candidate the solution needs as a mistake,
// and refuses malformed candidates with a clear 400.
func TestHintCandidates(t *testing.T) {
	srv := newServer(t)
	puzzle, sol := hardLoopPuzzle(t, srv)
	// Play the puzzle the hints once looped on, hint after hint, up to its
	// first elimination.
	p := newPlayer(puzzle)
	var first logic.Step
	for i := 0; ; i++ {
		apitest.MustPost(t, srv, "/api/sudoku/hint", p.request(), &first)
		apitest.CheckStep(t, first, apitest.Grid(t, sol))
		if len(first.Placements) == 0 {
			break
		}
		p.apply(first)
		if i > 80 {
			t.Fatal("no elimination step")
		}
	}
	p.apply(first)
	var next logic.Step
	apitest.MustPost(t, srv, "/api/sudoku/hint", p.request(), &next)
	apitest.CheckStep(t, next, apitest.Grid(t, sol))
	if stepKey(next) == stepKey(first) {
		t.Errorf("the hint after applying %q is the same step", first.Text)
	}
	// From the digits alone the same board gives the first step again.
	var again logic.Step
	apitest.MustPost(t, srv, "/api/sudoku/hint", map[string]any{"puzzle": puzzle, "grid": string(p.grid[:])}, &again)
	if stepKey(again) != stepKey(first) {
		t.Errorf("digits-only hint %q, want %q again", again.Text, first.Text)
	}

	// Marks that still hold digits of the peers are narrowed, not refused.
	stale := p.request()
	cs := stale["candidates"].([]string)
	for i := range cs {
		if p.grid[i] == '.' && cs[i] != "" {
			cs[i] = "123456789"
			break
		}
	}
	var st logic.Step
	apitest.MustPost(t, srv, "/api/sudoku/hint", stale, &st)
	apitest.CheckStep(t, st, apitest.Grid(t, sol))

	// A candidate of the solution removed: a mistake, with the candidate
	// to put back.
	bad := p.request()
	cs = bad["candidates"].([]string)
	cell := strings.IndexByte(string(p.grid[:]), '.')
	cs[cell] = strings.ReplaceAll("123456789", string(sol[cell]), "")
	apitest.MustPost(t, srv, "/api/sudoku/hint", bad, &st)
	want := logic.Mark{Cell: cell, Digit: int(sol[cell] - '0'), Color: 1}
	if st.Technique != "mistake" || !slices.Equal(st.Cells, []int{cell}) || !slices.Equal(st.Marks, []logic.Mark{want}) ||
		!strings.Contains(st.Text, fmt.Sprintf("%c in %s", sol[cell], sudoku.CellName(cell))) {
		t.Errorf("removed candidate: %+v", st)
	}
	// The same without the puzzle (the solution from the digits).
	delete(bad, "puzzle")
	apitest.MustPost(t, srv, "/api/sudoku/hint", bad, &st)
	if st.Technique != "mistake" || !slices.Equal(st.Cells, []int{cell}) {
		t.Errorf("removed candidate, no puzzle: %+v", st)
	}

	cands := func(f func(c []string) []string) string {
		c := make([]string, 81)
		b, _ := json.Marshal(map[string]any{"puzzle": top1, "grid": top1, "candidates": f(c)})
		return string(b)
	}
	for _, c := range []struct {
		body, msg string
	}{
		{cands(func(c []string) []string { return c[:80] }), "candidates: 80 entries, want 81"},
		{cands(func(c []string) []string { return append(c, "1") }), "candidates: 82 entries"},
		{cands(func(c []string) []string { c[1] = "12x"; return c }), `candidates: r1c2 has "12x", want digits 1-9`},
		{cands(func(c []string) []string { c[2] = "0"; return c }), `r1c3 has "0"`},
		{cands(func(c []string) []string { c[3] = "1234567891"; return c }), "r1c4 has 10 characters"},
		{`{"grid":"` + top1 + `","candidates":"123"}`, `field "candidates": want a JSON array`},
		{`{"grid":"` + top1 + `","candidates":[1,2]}`, `want a JSON string`},
	} {
		var msg string
		if code := apitest.Call(t, srv, "POST", "/api/sudoku/hint", "application/json", c.body, &msg); code != 400 || !strings.Contains(msg, c.msg) {
			t.Errorf("hint with %.60s...: %d %q, want 400 and %q", c.body, code, msg, c.msg)
		}
	}
}
