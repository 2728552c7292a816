package queenspage_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/solutions"
	"github.com/nqcount/nqcount/web"
	"github.com/nqcount/nqcount/web/internal/apitest"
	"github.com/nqcount/nqcount/web/queenspage"
)

// newServer serves the n-queens page alone, its live count on two
// workers.
func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(web.New(web.Options{Pages: []*web.Page{queenspage.New(queenspage.Options{Workers: 2})}}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCountBoardSize: the n of a live
// count or an estimate is a whole number from 1 to 32, and anything else
// is named in the error (a missing n or a string was "n = 0" before).
func TestCountBoardSize(t *testing.T) {
	srv := newServer(t)
	for _, c := range []struct{ body, want string }{
		{`{"n": "abc"}`, `n = "abc" is not a board size: want a whole number from 1 to 32`},
		{`{"n": "12"}`, `n = "12" is not a board size: want a whole number from 1 to 32`},
		{`{}`, "n is missing: want a whole number from 1 to 32"},
		{`{"n": null}`, "n is missing: want a whole number from 1 to 32"},
		{`{"n": 0}`, "n = 0 is not a board size: want a whole number from 1 to 32"},
		{`{"n": -1}`, "n = -1 is not a board size: want a whole number from 1 to 32"},
		{`{"n": 2.5}`, "n = 2.5 is not a board size: want a whole number from 1 to 32"},
		{`{"n": 1e1}`, "n = 1e1 is not a board size: want a whole number from 1 to 32"},
		{`{"n": 33}`, "n = 33 is too large: the counter handles 1 to 32"},
		{`{"n": 1000}`, "n = 1000 is too large: the counter handles 1 to 32"},
		{`{"n": 99999999999999999999999999}`, "n = 999999999999999999999999… is not a board size: want a whole number from 1 to 32"},
	} {
		for _, path := range []string{"/api/queens/count", "/api/queens/estimate"} {
			var msg string
			if code := apitest.Call(t, srv, http.MethodPost, path, "application/json", c.body, &msg); code != http.StatusBadRequest || msg != c.want {
				t.Errorf("POST %s %s: %d %q, want 400 %q", path, c.body, code, msg, c.want)
			}
		}
	}
	var p queenspage.CountProgress
	if apitest.Call(t, srv, "GET", "/api/queens/count", "", "", &p); p.ID != 0 {
		t.Errorf("a bad n started a count: %+v", p)
	}
	// The estimate the page warns with before n >= 23.
	for _, c := range []struct {
		n    int
		want float64
	}{{8, 0}, {22, 1.82}, {23, 14.9}, {28, 13430719}, {32, 0}} {
		var e queenspage.CountEstimate
		apitest.MustPost(t, srv, "/api/queens/estimate", map[string]int{"n": c.n}, &e)
		if e.N != c.n || e.CoreHours != c.want || e.Workers != 2 || e.BudgetSeconds != queenspage.DefaultCountBudget.Seconds() {
			t.Errorf("estimate of %d: %+v, want %v core-hours on 2 workers", c.n, e, c.want)
		}
	}
	if apitest.Call(t, srv, "GET", "/api/queens/count", "", "", &p); p.ID != 0 {
		t.Errorf("an estimate started a count: %+v", p)
	}
}

func TestTraceAPI(t *testing.T) {
	srv := newServer(t)
	for _, o := range []solutions.Order{solutions.TopDown, solutions.MostConstrained} {
		var want [][4]int
		solutions.TraceOrder(6, o, 0, func(ev solutions.Event) bool {
			want = append(want, [4]int{int(ev.Kind), ev.Row, ev.Col, ev.Depth})
			return true
		})
		var got [][4]int
		for from := 0; ; {
			var p queenspage.TracePage
			apitest.MustPost(t, srv, "/api/queens/trace", map[string]any{"n": 6, "order": o.String(), "from": from, "limit": 100}, &p)
			if p.From != from || p.Next != from+len(p.Events) || p.Order != o.String() {
				t.Fatalf("page %+v", p)
			}
			got = append(got, p.Events...)
			from = p.Next
			if p.Done {
				break
			}
			if len(p.Events) != 100 {
				t.Fatalf("a page of %d steps not done", len(p.Events))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%v: the pages give %d steps, the trace %d", o, len(got), len(want))
		}
		var p queenspage.TracePage
		apitest.MustPost(t, srv, "/api/queens/trace", map[string]any{"n": 6, "order": o.String(), "from": len(want) + 5}, &p)
		if !p.Done || len(p.Events) != 0 {
			t.Errorf("past the end: %+v", p)
		}
	}
	var c queenspage.OrderComparison
	apitest.MustPost(t, srv, "/api/queens/orders", map[string]int{"n": 8}, &c)
	if c.Known != 92 || len(c.Orders) != 2 || c.Orders[0].Solutions != 92 || c.Orders[1].Solutions != 92 ||
		c.Orders[1].Nodes >= c.Orders[0].Nodes || c.Orders[0].Steps != c.Orders[0].Nodes+c.Orders[0].Backtracks+92 {
		t.Errorf("orders of n = 8: %+v", c)
	}
}

func waitCount(t *testing.T, srv *httptest.Server, until func(queenspage.CountProgress) bool) queenspage.CountProgress {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	var p queenspage.CountProgress
	for time.Now().Before(deadline) {
		if apitest.Call(t, srv, "GET", "/api/queens/count", "", "", &p) != 200 {
			t.Fatal("progress")
		}
		if until(p) {
			return p
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("count never got there: %+v", p)
	return p
}

func TestLiveCount(t *testing.T) {
	srv := newServer(t)
	var p queenspage.CountProgress
	if apitest.Call(t, srv, "GET", "/api/queens/count", "", "", &p); p.State != "idle" || p.ID != 0 {
		t.Errorf("before any count: %+v", p)
	}
	apitest.MustPost(t, srv, "/api/queens/count", map[string]int{"n": 12}, &p)
	if p.ID != 1 || p.N != 12 {
		t.Errorf("started: %+v", p)
	}
	p = waitCount(t, srv, func(p queenspage.CountProgress) bool { return p.State != "running" && p.State != "planning" })
	known, _ := queens.Known(12)
	if p.State != "done" || p.Total != fmt.Sprint(known) || p.Matches == nil || !*p.Matches || p.Fraction != 1 || p.TasksDone != p.Tasks || p.Nodes == 0 {
		t.Errorf("n = 12: %+v", p)
	}
	// The method of nqueens count: the join at n = 12 (constellations,
	// which the page once used, are three times slower at n = 16).
	if p.Method != string(queens.Join) || p.Method != string(queens.DefaultMethod(12)) {
		t.Errorf("n = 12 counted by %q, want %q as nqueens count", p.Method, queens.DefaultMethod(12))
	}
	// A long count stops when asked.
	apitest.MustPost(t, srv, "/api/queens/count", map[string]int{"n": 24}, &p)
	if p.ID != 2 {
		t.Errorf("second count: %+v", p)
	}
	apitest.Call(t, srv, "DELETE", "/api/queens/count", "", "", &p)
	p = waitCount(t, srv, func(p queenspage.CountProgress) bool { return p.State != "running" && p.State != "planning" })
	if p.State != "stopped" || p.Total != "" || p.StopReason != queenspage.StopAsked {
		t.Errorf("stopped count: %+v", p)
	}
	// A count of 13, with the constellations as nqueens count.
	apitest.MustPost(t, srv, "/api/queens/count", map[string]int{"n": 13}, &p)
	p = waitCount(t, srv, func(p queenspage.CountProgress) bool { return p.Method != "" })
	if p.Method != string(queens.DefaultMethod(13)) {
		t.Errorf("n = 13 counted by %q, want %q", p.Method, queens.DefaultMethod(13))
	}
}
