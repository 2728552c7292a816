package web

import (
	"context"
	"fmt"
	"net/http"
	"runtime/debug"
	"sync"
	"time"
)

// The bounds of the requests that compute (those registered with
// Limited: solve, rate, hint, generate, count, trace, orders), when
// Options leave them 0: DefaultMaxWork at once
// per core, each of those waits for a turn with at most DefaultWorkQueue
// more per core for at most DefaultWorkWait; any more is answered 503
// (busy) at once. A hard puzzle's rating holds about 25 MiB while it runs,
// so the work's memory is bounded by the cores, not by the clients.
const (
	DefaultMaxWork   = 1
	DefaultWorkQueue = 8
	DefaultWorkWait  = 5 * time.Second
)

// freeAfter is how long the server waits, once no request computes, before
// it gives the memory of the work back to the system (a burst of requests
// frees once, not after each).
const freeAfter = 500 * time.Millisecond

// workLimit lets a bounded number of requests compute at once and a
// bounded number wait for their turn; the others are refused as busy.
// When the last one running ends the memory they used goes back to the
// system (debug.FreeOSMemory), so that a burst does not leave the server
// holding its peak.
type workLimit struct {
	slots chan struct{}
	wait  time.Duration

	mu               sync.Mutex // guards what follows
	running, waiting int
	maxWaiting       int
	free             *time.Timer
}

func newWorkLimit(running, waiting int, wait time.Duration) *workLimit {
	l := &workLimit{slots: make(chan struct{}, running), wait: wait, maxWaiting: waiting}
	l.free = time.AfterFunc(time.Hour, debug.FreeOSMemory)
	l.free.Stop()
	return l
}

// acquire waits for a turn to compute, and returns the function that ends
// it; it refuses with 503 when too many wait already or the turn does not
// come within the wait.
func (l *workLimit) acquire(ctx context.Context) (release func(), e *Error) {
	select {
	case l.slots <- struct{}{}:
		return l.started(), nil
	default:
	}
	l.mu.Lock()
	if l.waiting >= l.maxWaiting {
		running, waiting := l.running, l.waiting
		l.mu.Unlock()
		return nil, busy(running, waiting)
	}
	l.waiting++
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.waiting--
		l.mu.Unlock()
	}()
	t := time.NewTimer(l.wait)
	defer t.Stop()
	select {
	case l.slots <- struct{}{}:
		return l.started(), nil
	case <-ctx.Done():
		return nil, &Error{http.StatusServiceUnavailable, "the request was cancelled while it waited for its turn"}
	case <-t.C:
		l.mu.Lock()
		running, waiting := l.running, l.waiting
		l.mu.Unlock()
		return nil, busy(running, waiting)
	}
}

// started counts a request that took a slot and returns its release.
func (l *workLimit) started() func() {
	l.mu.Lock()
	l.running++
	l.free.Stop()
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		l.running--
		if l.running == 0 {
			l.free.Reset(freeAfter)
		}
		l.mu.Unlock()
		<-l.slots
	}
}

func busy(running, waiting int) *Error {
	return &Error{http.StatusServiceUnavailable, fmt.Sprintf("the server is busy (%d requests computing, %d waiting for their turn): try again in a moment", running, waiting)}
}

// Limited wraps an API function that computes: it runs only in its turn,
// with at most Options.MaxWork others at once; waiting too long, or with
// too many already waiting, it is answered 503 (busy), so that the memory
// of the work is bounded however many clients ask. Once no request
// computes, the memory goes back to the system.
func Limited[Req any, Resp any](s *Server, fn Func[Req, Resp]) Func[Req, Resp] {
	return func(ctx context.Context, req *Req) (Resp, *Error) {
		release, e := s.work.acquire(ctx)
		if e != nil {
			var zero Resp
			return zero, e
		}
		defer release()
		return fn(ctx, req)
	}
}
