package web_test

import (
	"net/http"
	"testing"

	"github.com/nqcount/nqcount/web/queenspage"
)

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
			if code := call(t, srv, http.MethodPost, path, "application/json", c.body, &msg); code != http.StatusBadRequest || msg != c.want {
				t.Errorf("POST %s %s: %d %q, want 400 %q", path, c.body, code, msg, c.want)
			}
		}
	}
	var p queenspage.CountProgress
	if call(t, srv, "GET", "/api/queens/count", "", "", &p); p.ID != 0 {
		t.Errorf("a bad n started a count: %+v", p)
	}
	// The estimate the page warns with before n >= 23.
	for _, c := range []struct {
		n    int
		want float64
	}{{8, 0}, {22, 1.82}, {23, 14.9}, {28, 13430719}, {32, 0}} {
		var e queenspage.CountEstimate
		mustPost(t, srv, "/api/queens/estimate", map[string]int{"n": c.n}, &e)
		if e.N != c.n || e.CoreHours != c.want || e.Workers != 2 || e.BudgetSeconds != queenspage.DefaultCountBudget.Seconds() {
			t.Errorf("estimate of %d: %+v, want %v core-hours on 2 workers", c.n, e, c.want)
		}
	}
	if call(t, srv, "GET", "/api/queens/count", "", "", &p); p.ID != 0 {
		t.Errorf("an estimate started a count: %+v", p)
	}
}
