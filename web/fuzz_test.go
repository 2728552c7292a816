package web_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/web"
	"github.com/nqcount/nqcount/web/queenspage"
)

const fuzzTop1 = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"

// fuzzPaths are the endpoints FuzzRequests reaches. A live count started
// by one ends with its requester: FuzzRequests's server stops it a tenth
// of a second after it was last asked about, and after a second at most.
var fuzzPaths = []string{
	"/api/sudoku/generate", "/api/sudoku/parse", "/api/sudoku/save", "/api/sudoku/validate",
	"/api/sudoku/solve", "/api/sudoku/count", "/api/sudoku/rate", "/api/sudoku/hint",
	"/api/queens/trace", "/api/queens/orders", "/api/queens/count", "/api/queens/estimate",
}

// FuzzRequests sends any body to every endpoint: the answer must be 200
// or a client error with a JSON message, never a 500 or a panic.
func FuzzRequests(f *testing.F) {
	for i, body := range []string{
		`{"difficulty":"singles","seed":"3"}`,
		`{"text":"` + fuzzTop1 + `"}`,
		`{"puzzle":"` + fuzzTop1 + `","format":"grid","seconds":4}`,
		`{"grid":"` + fuzzTop1 + `"}`,
		`{"grid":"` + fuzzTop1 + `"}`,
		`{"grid":"` + fuzzTop1 + `","limit":3}`,
		`{"grid":"` + fuzzTop1 + `"}`,
		`{"puzzle":"` + fuzzTop1 + `","grid":"` + fuzzTop1 + `"}`,
		`{"n":6,"order":"constrained","from":10,"limit":50}`,
		`{"n":7}`,
		`{"n":32}`,
	} {
		f.Add(uint8(i), body)
	}
	f.Add(uint8(0), `{"seed":"-1"}`)
	f.Add(uint8(8), `{"n":-3}`)
	f.Add(uint8(5), `{"grid":"`+strings.Repeat(".", 81)+`","limit":1}`)
	f.Add(uint8(7), `{"grid":"`+fuzzTop1+`","candidates":["`+strings.Repeat(`","`, 80)+`"]}`)
	f.Add(uint8(7), `{"grid":"`+fuzzTop1+`","candidates":["12345678",`+strings.Repeat(`"9",`, 79)+`"x"]}`)
	ps := pages(queenspage.Options{Workers: 1, CountIdle: 100 * time.Millisecond, CountBudget: time.Second})
	s := web.New(web.Options{Pages: ps})
	for _, p := range ps {
		if p.Shutdown != nil {
			defer p.Shutdown() // a live count a request started
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, body string) {
		path := fuzzPaths[int(which)%len(fuzzPaths)]
		req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		switch rec.Code {
		case http.StatusOK, http.StatusBadRequest, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity:
		default:
			t.Fatalf("%s %q: status %d %s", path, body, rec.Code, rec.Body)
		}
		var v map[string]any
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
			t.Fatalf("%s %q: answer is not JSON: %q", path, body, rec.Body)
		}
		if msg, _ := v["error"].(string); rec.Code != http.StatusOK && (msg == "" || strings.Contains(msg, "\n")) {
			t.Fatalf("%s %q: %d without a one-line message: %q", path, body, rec.Code, rec.Body)
		}
	})
}
