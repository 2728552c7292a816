package queenspage

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/nqcount/nqcount/web"
	"github.com/nqcount/nqcount/web/internal/apitest"
)

// serve serves the page alone with opt and returns the server and the
// page's state.
func serve(t *testing.T, opt Options) (*httptest.Server, *page) {
	t.Helper()
	p, wp := newPage(opt)
	srv := httptest.NewServer(web.New(web.Options{Pages: []*web.Page{wp}}))
	t.Cleanup(srv.Close)
	return srv, p
}

// current returns the count running or last run.
func (l *liveCount) current() *liveRun {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cur
}

// ended waits, without asking for its progress (which would keep it
// alive), for a count to end and let go of its memory, for at most a
// minute: however loaded the machine, the event comes, or the test
// fails.
func ended(t *testing.T, r *liveRun) CountProgress {
	t.Helper()
	select {
	case <-r.done:
	case <-time.After(time.Minute):
		t.Fatalf("count %d (n = %d) still running a minute on: %+v", r.id, r.n, r.snapshot())
	}
	return r.snapshot()
}

// TestLiveCountEndsWithRequester: a count started from the page stops
// once no request asks for its progress for Options.CountIdle (the page
// was closed), and not before; after its time budget however often it
// is polled; and when another count replaces it. n = 27 would otherwise
// run for decades of one core (n = 32 is refused for memory before it
// starts). The test waits on the counts' ends themselves, not on time.
func TestLiveCountEndsWithRequester(t *testing.T) {
	const idle = 400 * time.Millisecond
	srv, pg := serve(t, Options{Workers: 2, CountIdle: idle, CountBudget: time.Hour})
	var p CountProgress
	apitest.MustPost(t, srv, "/api/queens/count", map[string]int{"n": 27}, &p)
	if p.BudgetSeconds != 3600 {
		t.Errorf("budget %v s, want 3600", p.BudgetSeconds)
	}
	r := pg.live.current()
	// Polled, it runs on past the idle time.
	var lastPoll time.Time
	for end := time.Now().Add(3 * idle); time.Now().Before(end); time.Sleep(idle / 8) {
		lastPoll = time.Now()
		if apitest.Call(t, srv, "GET", "/api/queens/count", "", "", &p); p.State != "running" && p.State != "planning" {
			t.Fatalf("a polled count stopped: %+v", p)
		}
	}
	// Left alone, it is stopped once the idle time has passed, and not
	// before (planning a board this large ends at its next look at the
	// context).
	p = ended(t, r)
	if p.State != "stopped" || p.StopReason != StopUnwatched {
		t.Fatalf("%v after the last poll: %+v, want stopped, unwatched", time.Since(lastPoll), p)
	}
	if since := time.Since(lastPoll); since < idle {
		t.Errorf("stopped %v after the last poll, before the idle time %v", since, idle)
	}
	t.Logf("ended %v after the last poll", time.Since(lastPoll).Round(time.Millisecond))

	// The budget ends a count however often it is polled.
	budget, bp := serve(t, Options{Workers: 2, CountBudget: 500 * time.Millisecond})
	start := time.Now()
	apitest.MustPost(t, budget, "/api/queens/count", map[string]int{"n": 24}, &p)
	r = bp.live.current()
	done := make(chan struct{})
	go func() { // polled throughout
		for {
			select {
			case <-done:
				return
			case <-time.After(50 * time.Millisecond):
				bp.live.snapshot(true)
			}
		}
	}()
	p = ended(t, r)
	close(done)
	if took := time.Since(start); p.State != "stopped" || p.StopReason != StopBudget || took < 500*time.Millisecond || took > 10*time.Second {
		t.Errorf("after the budget (%v): %+v", took, p)
	}
	t.Logf("a budget of 0.5 s: ended %v after the start", time.Since(start).Round(time.Millisecond))

	// A new count replaces the running one, and starts once that one has
	// let go of its memory (a budget of an hour: the wait is not the
	// replacing count's to pay for on a loaded machine).
	replace, rp := serve(t, Options{Workers: 2, CountBudget: time.Hour})
	apitest.MustPost(t, replace, "/api/queens/count", map[string]int{"n": 24}, &p)
	first := rp.live.current()
	apitest.MustPost(t, replace, "/api/queens/count", map[string]int{"n": 8}, &p)
	second := rp.live.current()
	if p = ended(t, first); p.State != "stopped" || p.StopReason != StopReplaced {
		t.Errorf("the replaced count: %+v", p)
	}
	if p = ended(t, second); p.State != "done" || p.N != 8 || p.Total != "92" {
		t.Errorf("the second count: %+v", p)
	}
}
