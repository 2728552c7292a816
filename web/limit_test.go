package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"github.com/nqcount/nqcount/web/internal/apitest"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nqcount/nqcount/internal/refdata"
	"github.com/nqcount/nqcount/web"
	"github.com/nqcount/nqcount/web/queenspage"
)

// heapWatch samples the Go heap's live objects every 2 ms until stopped
// and calls over once when they pass limit.
type heapWatch struct {
	peak atomic.Uint64
	stop chan struct{}
	done chan struct{}
}

func watchHeap(limit uint64, over func()) *heapWatch {
	h := &heapWatch{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(h.done)
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		fired := false
		for {
			metrics.Read(s)
			v := s[0].Value.Uint64()
			if v > h.peak.Load() {
				h.peak.Store(v)
			}
			if v > limit && !fired {
				fired = true
				over()
			}
			select {
			case <-h.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return h
}

func (h *heapWatch) end() uint64 {
	close(h.stop)
	<-h.done
	return h.peak.Load()
}

// heapHeld is the heap memory the process holds from the system:
// objects and free spans not yet given back.
func heapHeld() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/free:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64() + s[1].Value.Uint64() + s[2].Value.Uint64()
}

// hardPuzzle returns a hard puzzle of magictour-top1465: the second
// (score 9.6, about a second to rate), or under -race, which slows the
// rater tenfold, the first (9.0, a quarter of a second).
func hardPuzzle(t *testing.T) string {
	f, err := os.Open(refdata.File(t, "sudoku", "magictour-top1465.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := 2
	if raceEnabled {
		want = 1
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			if want--; want == 0 {
				return l
			}
		}
	}
	t.Fatal("magictour-top1465.txt has no second puzzle")
	return ""
}

// burst sends n copies of one request at once and counts the answers by
// status; every refusal must be a 503 saying the server is busy, with
// Retry-After.
func burst(t *testing.T, ctx context.Context, srv *httptest.Server, n int, method, path, body string) map[int]int {
	t.Helper()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}, Timeout: time.Minute}
	defer client.CloseIdleConnections()
	var (
		mu     sync.Mutex
		status = map[int]int{}
		wg     sync.WaitGroup
		start  = make(chan struct{})
	)
	for range n {
		wg.Go(func() {
			req, _ := http.NewRequestWithContext(ctx, method, srv.URL+path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			<-start
			resp, err := client.Do(req)
			if err != nil {
				mu.Lock()
				status[0]++
				mu.Unlock()
				return
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusServiceUnavailable {
				var e struct{ Error string }
				if json.Unmarshal(b, &e) != nil || !strings.Contains(e.Error, "busy") || resp.Header.Get("Retry-After") == "" {
					t.Errorf("503 with body %q, Retry-After %q: want {\"error\": \"...busy...\"} and Retry-After", b, resp.Header.Get("Retry-After"))
				}
			}
			mu.Lock()
			status[resp.StatusCode]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return status
}

// TestRateBurst: 200 concurrent ratings of a hard puzzle once took
// 'sudoku play' out of memory (40 took it to 1.0 GB, kept
// afterwards). The server computes a bounded number at once, lets a
// bounded number wait and answers the others 503 (busy), within 160 MiB of
// live heap (about 25 MiB per rating running), and gives the memory back
// once idle.
func TestRateBurst(t *testing.T) {
	const limit = 160 << 20
	grid := hardPuzzle(t)
	srv := httptest.NewServer(web.New(web.Options{Pages: pages(queenspage.Options{Workers: 2})}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	h := watchHeap(limit, cancel) // over the limit: stop at once, not at the machine's end
	start := time.Now()
	status := burst(t, ctx, srv, 200, "POST", "/api/sudoku/rate", `{"grid":"`+grid+`"}`)
	peak := h.end()
	t.Logf("200 concurrent ratings in %v: answers by status %v, peak live heap %d MiB", time.Since(start).Round(time.Millisecond), status, peak>>20)
	if peak > limit {
		t.Fatalf("the live heap reached %d MiB, over %d MiB (answers so far %v)", peak>>20, limit>>20, status)
	}
	if status[http.StatusOK] == 0 || status[http.StatusOK]+status[http.StatusServiceUnavailable] != 200 {
		t.Errorf("answers by status %v: want 200 OK or 503 busy, at least one OK", status)
	}
	// Idle, the server gives the memory back.
	deadline := time.Now().Add(5 * time.Second)
	for heapHeld() > 64<<20 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if held := heapHeld(); held > 64<<20 {
		t.Errorf("5 s after the burst the heap holds %d MiB of the system's memory", held>>20)
	}
}

// The live n-queens count is one at a time: 200 requests starting a count
// at once (n = 31, whose plan is refused for memory after seconds of
// planning) plan one after the other, each replacing the last, within
// 64 MiB of live heap; before, 200 plans ran at once (1.2 GB).
func TestLiveCountBurst(t *testing.T) {
	const limit = 64 << 20
	srv := httptest.NewServer(web.New(web.Options{Pages: pages(queenspage.Options{Workers: 2})}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	h := watchHeap(limit, cancel)
	start := time.Now()
	status := burst(t, ctx, srv, 200, "POST", "/api/queens/count", `{"n":31}`)
	// Stopped, the last count ends once the counts it replaced have (a
	// plan of n = 31 does not stop halfway): until then the heap is
	// watched.
	apitest.Call(t, srv, "DELETE", "/api/queens/count", "", "", nil)
	var p queenspage.CountProgress
	for apitest.Call(t, srv, "GET", "/api/queens/count", "", "", &p); p.State == "planning" || p.State == "running"; apitest.Call(t, srv, "GET", "/api/queens/count", "", "", &p) {
		if ctx.Err() != nil {
			break // over the heap's limit, or too long
		}
		time.Sleep(50 * time.Millisecond)
	}
	peak := h.end()
	t.Logf("200 concurrent counts: answers by status %v, %v to end them all, peak live heap %d MiB", status, time.Since(start).Round(time.Millisecond), peak>>20)
	if peak > limit {
		t.Fatalf("the live heap reached %d MiB, over %d MiB", peak>>20, limit>>20)
	}
	if p.State == "planning" || p.State == "running" {
		t.Fatalf("the counts still ran %v after they were stopped: %+v", time.Since(start), p)
	}
	if status[http.StatusOK] != 200 {
		t.Errorf("answers by status %v, want 200 OK", status)
	}
	if p.ID != 200 || p.State != "stopped" {
		t.Errorf("the last count is %+v, want count 200, stopped", p)
	}
}
