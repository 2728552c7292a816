//go:build linux

package hostile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/nqcount/nqcount/web"
	"github.com/nqcount/nqcount/web/queenspage"
)

// endpoint is an endpoint of the web API (docs/web.md) with a valid
// request. A new endpoint joins the harness here.
type endpoint struct {
	method, path, body string
}

const top1 = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"

var endpoints = []endpoint{
	{method: "POST", path: "/api/sudoku/generate", body: `{"difficulty":"singles","seed":"1","index":3,"symmetry":"none"}`},
	{method: "POST", path: "/api/sudoku/validate", body: `{"grid":"` + top1 + `"}`},
	{method: "POST", path: "/api/sudoku/solve", body: `{"grid":"` + top1 + `"}`},
	{method: "POST", path: "/api/sudoku/count", body: `{"grid":"` + top1 + `","limit":10}`},
	{method: "POST", path: "/api/sudoku/rate", body: `{"grid":"` + top1 + `"}`},
	{method: "POST", path: "/api/sudoku/hint", body: `{"grid":"` + top1 + `","puzzle":"` + top1 + `"}`},
	{method: "POST", path: "/api/sudoku/parse", body: `{"text":"` + top1 + `\n"}`},
	{method: "POST", path: "/api/sudoku/save", body: `{"format":"line","puzzle":"` + top1 + `","seconds":125,"seed":"42","level":"hard","symmetry":"none","index":2}`},
	{method: "POST", path: "/api/queens/trace", body: `{"n":8,"order":"topdown","from":0,"limit":100}`},
	{method: "POST", path: "/api/queens/orders", body: `{"n":8}`},
	{method: "POST", path: "/api/queens/estimate", body: `{"n":20}`},
	{method: "POST", path: "/api/queens/count", body: `{"n":10}`},
	{method: "GET", path: "/api/queens/count"},
	{method: "DELETE", path: "/api/queens/count"},
}

// server is a web server under test: 'sudoku play' or 'nqueens watch 8'.
type server struct {
	name string
	prog string
	url  string
	run  *Running
	// busy serialises the cases that measure the server's CPU with all
	// others.
	busy sync.RWMutex
}

var servers []*server

// startServers starts both commands that serve the web API.
func startServers(t *testing.T) {
	for _, a := range [][]string{{"sudoku", "play", "--no-browser"}, {"nqueens", "watch", "8", "--no-browser"}} {
		r, err := Start(w.lim, Proc{Args: append([]string{w.bin[a[0]]}, a[1:]...), Env: w.env, Dir: w.root})
		if err != nil {
			t.Fatal(err)
		}
		s := &server{name: a[0] + " " + a[1], prog: a[0], run: r}
		deadline := time.Now().Add(30 * time.Second)
		for s.url == "" && time.Now().Before(deadline) {
			if line, _, ok := strings.Cut(string(r.Stdout()), "\n"); ok {
				s.url = strings.TrimSpace(line)
				if i := strings.Index(s.url[len("http://"):], "/"); i >= 0 {
					s.url = s.url[:len("http://")+i]
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
		if s.url == "" {
			t.Fatalf("%s printed no URL: %s", s.name, r.Stderr())
		}
		servers = append(servers, s)
	}
}

// stopServers stops both servers with SIGINT and checks how they ended.
func stopServers() []outcome {
	var out []outcome
	for _, s := range servers {
		r := s.run.Stop(syscall.SIGINT)
		ps := r.Problems(s.prog, w.lim, Any)
		if r.Code != 0 && r.Code != 130 {
			ps = append(ps, fmt.Sprintf("exit status %d after SIGINT", r.Code))
		}
		out = append(out, outcome{c: hcase{class: "signals", row: s.name, name: "SIGINT after serving every web case"}, problems: ps, peak: r.Peak})
	}
	return out
}

// webClient has no overall timeout: each case sets its own.
var webClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// request sends one request and checks the answer: a status the API
// documents (never 500), JSON, and for an error one line saying what is
// wrong, within limit.
//
// big says the body is longer than the API takes (web.MaxBody): the
// server may then close the connection before it is all sent.
func request(ctx context.Context, method, url, ctype string, body io.Reader, big bool, limit time.Duration) []string {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return []string{err.Error()}
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	start := time.Now()
	resp, err := webClient.Do(req)
	if err != nil {
		if big && (errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)) {
			return nil // the server answered 413 and closed before reading it all
		}
		return []string{fmt.Sprintf("no answer after %v: %v", time.Since(start).Round(time.Millisecond), err)}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return []string{fmt.Sprintf("reading the answer: %v", err)}
	}
	var ps []string
	switch resp.StatusCode {
	case 200, 400, 404, 405, 413, 415, 422, 503:
	default:
		ps = append(ps, fmt.Sprintf("status %d", resp.StatusCode))
	}
	if resp.StatusCode != 200 {
		var e struct{ Error string }
		if json.Unmarshal(b, &e) != nil || e.Error == "" || strings.Contains(e.Error, "\n") || len(e.Error) > 2048 {
			ps = append(ps, fmt.Sprintf("status %d with %q, not {\"error\": one line}", resp.StatusCode, clip(string(b), 200)))
		}
	} else if !json.Valid(b) {
		ps = append(ps, fmt.Sprintf("status 200 with %q, not JSON", clip(string(b), 200)))
	}
	if len(ps) > 0 {
		ps = append(ps, fmt.Sprintf("(answer %d %q)", resp.StatusCode, clip(string(b), 200)))
	}
	return ps
}

// endless is a request body that never ends.
type endless struct{}

func (endless) Read(b []byte) (int, error) {
	for i := range b {
		b[i] = ' '
	}
	return len(b), nil
}

// webCases are the cases of every endpoint on both servers.
func webCases(t *testing.T) []hcase {
	rng := rand.New(rand.NewPCG(25, 3))
	junk := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return string(b)
	}
	saved, err := os.ReadFile(w.fx.saved["line"])
	if err != nil {
		t.Fatal(err)
	}
	var out []hcase
	for _, e := range endpoints {
		row := "web " + e.method + " " + e.path
		type body struct {
			class, name, ctype string
			data               func() io.Reader
			quick              bool
			// big marks a body longer than the API reads (web.MaxBody).
			big bool
		}
		str := func(s string) func() io.Reader { return func() io.Reader { return strings.NewReader(s) } }
		var bodies []body

		if e.method == "POST" {
			for _, p := range numericPaths([]byte(e.body)) {
				for _, v := range jsonNumbers {
					b, err := setJSON([]byte(e.body), p, json.RawMessage(v))
					if err != nil {
						t.Fatal(err)
					}
					bodies = append(bodies, body{class: "numbers", name: strings.Join(p, ".") + " = " + numberName(v), data: str(string(b)), quick: v == "1e9"})
				}
			}
			for i := range 3 {
				bodies = append(bodies, body{class: "junk", name: fmt.Sprintf("random bytes %d", i), data: str(junk(1000))})
			}
			bodies = append(bodies,
				body{class: "junk", name: "JSON nested 100000 deep", data: str(strings.Repeat("[", 100000))},
				body{class: "junk", name: "a string of control bytes", data: str(`{"grid":"\u0000\u0001` + junk(0) + `","text":"\u0000"}`)},
				body{class: "junk", name: "not UTF-8", data: str("{\"grid\":\"\xff\xfe\xfd\",\"text\":\"\xff\"}")},
				body{class: "huge", name: "10 MiB", data: str(`{"text":"` + strings.Repeat("a", 10<<20) + `"}`)},
				body{class: "huge", name: "a field of 60 KiB", data: str(`{"grid":"` + strings.Repeat("1", 60<<10) + `","text":"` + strings.Repeat("1", 60) + `"}`)},
				body{class: "endless", name: "a body that never ends", data: func() io.Reader { return endless{} }},
				body{class: "special", name: "text/plain", ctype: "text/plain", data: str(e.body)},
				body{class: "special", name: "no body", data: str("")},
			)
			for k := 1; k < 4; k++ {
				cut := len(e.body) * k / 4
				bodies = append(bodies, body{class: "edited", name: fmt.Sprintf("the request cut at byte %d", cut), data: str(e.body[:cut])})
			}
			if e.path == "/api/sudoku/parse" {
				for _, f := range []string{"saved game (line)", "saved game (grid)", "saved game (json)"} {
					sample, _ := os.ReadFile(formatNamed(f).sample(&w.fx))
					for _, in := range formatNamed(f).edits(sample) {
						b, _ := json.Marshal(map[string]string{"text": string(in.data)})
						bodies = append(bodies, body{class: in.class, name: f + ": " + in.name, data: str(string(b))})
					}
				}
				b, _ := json.Marshal(map[string]string{"text": string(saved)})
				bodies = append(bodies, body{class: "edited", name: "a saved game as saved", data: str(string(b))})
			}
		} else {
			bodies = append(bodies, body{class: "special", name: "as documented", data: str("")})
		}
		for _, m := range []string{"GET", "POST", "PUT", "DELETE"} {
			if m != e.method {
				bodies = append(bodies, body{class: "special", name: "method " + m, data: str(e.body)})
			}
		}
		for i := range bodies {
			if bodies[i].class == "endless" {
				bodies[i].big = true
			} else if n, _ := io.Copy(io.Discard, bodies[i].data()); n > web.MaxBody {
				bodies[i].big = true
			}
		}
		for _, s := range []int{0, 1} {
			for _, b := range bodies {
				s, b, e := s, b, e
				method := e.method
				if strings.HasPrefix(b.name, "method ") {
					method = strings.TrimPrefix(b.name, "method ")
				}
				ctype := b.ctype
				if ctype == "" && method == "POST" {
					ctype = "application/json"
				}
				out = append(out, hcase{class: b.class, row: row, name: b.name, quick: b.quick && e.path == "/api/queens/orders",
					web: func(string) []string {
						srv := servers[s]
						srv.busy.RLock()
						defer srv.busy.RUnlock()
						return request(context.Background(), method, srv.url+e.path, ctype, b.data(), b.big, 30*time.Second)
					}})
			}
		}
	}
	// Requests that never finish sending: the others are answered
	// meanwhile (each server's stop, at the end, is answered within a
	// second with them open).
	for s := range 2 {
		s := s
		out = append(out, hcase{class: "endless", row: "web (every endpoint)", name: "20 requests whose body never comes, and a request beside them",
			web: func(string) []string {
				srv := servers[s]
				srv.busy.RLock()
				defer srv.busy.RUnlock()
				var conns []net.Conn
				defer func() {
					for _, c := range conns {
						c.Close()
					}
				}()
				host := strings.TrimPrefix(srv.url, "http://")
				for range 20 {
					c, err := net.Dial("tcp", host)
					if err != nil {
						return []string{err.Error()}
					}
					conns = append(conns, c)
					fmt.Fprintf(c, "POST /api/sudoku/solve HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{", host)
				}
				return request(context.Background(), "POST", srv.url+"/api/sudoku/solve", "application/json", strings.NewReader(`{"grid":"`+top1+`"}`), false, 5*time.Second)
			}})
	}
	// 200 requests at once that compute (once: 200
	// ratings of a hard puzzle took 'sudoku play' out of memory): each is
	// answered, computed or refused as busy (503), and the server's
	// memory grows by a bounded amount, whatever the number of clients.
	for s := range 2 {
		for _, b := range []struct{ path, body string }{
			{"/api/sudoku/rate", `{"grid":"` + top1 + `"}`},
			{"/api/queens/count", `{"n":31}`},
		} {
			s, b := s, b
			out = append(out, hcase{class: "huge", row: "web POST " + b.path, name: "200 requests at once", last: true,
				web: func(string) []string {
					srv := servers[s]
					srv.busy.Lock() // alone on the server: its memory is measured
					defer srv.busy.Unlock()
					pid := srv.run.Pid()
					before := Status(pid, "VmRSS")
					var peak atomic.Uint64
					stop := make(chan struct{})
					sampled := make(chan struct{})
					go func() {
						defer close(sampled)
						for {
							if v := Status(pid, "VmRSS"); v > peak.Load() {
								peak.Store(v)
							}
							select {
							case <-stop:
								return
							case <-time.After(5 * time.Millisecond):
							}
						}
					}()
					var (
						mu sync.Mutex
						ps []string
						wg sync.WaitGroup
					)
					for range 200 {
						wg.Go(func() {
							if p := request(context.Background(), "POST", srv.url+b.path, "application/json", strings.NewReader(b.body), false, time.Minute); len(p) > 0 {
								mu.Lock()
								if len(ps) < 3 {
									ps = append(ps, p...)
								}
								mu.Unlock()
							}
						})
					}
					wg.Wait()
					if b.path == "/api/queens/count" {
						// The counts replaced end one after the other
						// (a plan of n = 31 does not stop halfway): the
						// last, stopped, ends once they all have, and
						// then the server is idle again.
						ps = append(ps, request(context.Background(), "DELETE", srv.url+b.path, "", nil, false, 5*time.Second)...)
						if p := settle(srv.url, time.Minute); p != "" {
							ps = append(ps, p)
						}
					}
					close(stop)
					<-sampled
					if grew := int64(peak.Load()) - int64(before); grew > 256<<20 {
						ps = append(ps, fmt.Sprintf("the server grew by %d MiB (from %d MiB) answering them: the work is not bounded", grew>>20, before>>20))
					}
					return ps
				}})
		}
	}
	// Work started by a request ends with its requester: a live count
	// that takes minutes (n = 21; planning n = 32 alone takes minutes)
	// with nobody polling stops within seconds, and the memory it held
	// goes back (once: 270 MiB were kept until the next
	// count).
	for s := range 2 {
		s := s
		out = append(out, hcase{class: "abandoned", row: "web POST /api/queens/count", name: "n = 21, then no page polls", last: true,
			web: func(string) []string {
				srv := servers[s]
				srv.busy.Lock() // alone on the server: its CPU time is measured
				defer srv.busy.Unlock()
				defer request(context.Background(), "DELETE", srv.url+"/api/queens/count", "", nil, false, 5*time.Second)
				if ps := request(context.Background(), "POST", srv.url+"/api/queens/count", "application/json", strings.NewReader(`{"n":21}`), false, 10*time.Second); len(ps) > 0 {
					return ps
				}
				// The CPU the server uses in 3 s while it works, and 12 s
				// after the last request: a machine's load changes the
				// first, not the ratio.
				time.Sleep(time.Second)
				c0 := srv.run.CPU()
				time.Sleep(3 * time.Second)
				working := srv.run.CPU() - c0
				held := Status(srv.run.Pid(), "VmRSS")
				time.Sleep(8 * time.Second)
				c0 = srv.run.CPU()
				time.Sleep(3 * time.Second)
				var ps []string
				if used := srv.run.CPU() - c0; used > working/4 && used > 30*time.Millisecond {
					ps = append(ps, fmt.Sprintf("12 s after the last request the server still used %v of CPU in 3 s (%v while the count was asked for): the count outlives its requester", used, working))
				}
				// The count holds about 270 MiB; the idle server about 25.
				if rss := Status(srv.run.Pid(), "VmRSS"); rss > held/2 && rss > 64<<20 {
					ps = append(ps, fmt.Sprintf("12 s after the last request the server still held %d MiB (%d MiB while the count was asked for): the stopped count's memory was not given back", rss>>20, held>>20))
				}
				return ps
			}})
	}
	return out
}

// settle waits until the live count of the server at url has ended, at
// most limit; it says what is wrong otherwise.
func settle(url string, limit time.Duration) string {
	deadline := time.Now().Add(limit)
	for {
		var p queenspage.CountProgress
		resp, err := webClient.Get(url + "/api/queens/count")
		if err == nil {
			err = json.NewDecoder(resp.Body).Decode(&p)
			resp.Body.Close()
		}
		if err == nil && p.State != "planning" && p.State != "running" {
			return ""
		}
		if time.Now().After(deadline) {
			return fmt.Sprintf("the live count was still %q %v after it was stopped (%v)", p.State, limit, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
