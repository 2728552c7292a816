package worker

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

// stallProxy forwards TCP connections to a server and can hold every byte
// between them for a while: a server stalled by a loaded machine.
type stallProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	cond   *sync.Cond
	held   bool
	conns  []net.Conn
}

func newStallProxy(t testing.TB, target string) *stallProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallProxy{ln: ln, target: target}
	p.cond = sync.NewCond(&p.mu)
	go p.serve()
	t.Cleanup(p.close)
	return p
}

func (p *stallProxy) url() string { return "nats://" + p.ln.Addr().String() }

func (p *stallProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		go p.pipe(s, c)
		go p.pipe(c, s)
	}
}

// pipe copies from src to dst, holding what it read while the proxy is
// held.
func (p *stallProxy) pipe(dst, src net.Conn) {
	defer dst.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		p.mu.Lock()
		for p.held {
			p.cond.Wait()
		}
		p.mu.Unlock()
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *stallProxy) hold(on bool) {
	p.mu.Lock()
	p.held = on
	p.mu.Unlock()
	p.cond.Broadcast()
}

func (p *stallProxy) close() {
	p.hold(false)
	p.ln.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
}

// stall outlasts the NATS clients' own timeouts (2 s to connect, 5 s a
// request), well within DefaultTimeout.
const stall = 6 * time.Second

// A server that stalls for seconds (a loaded machine) is waited for: a
// client connecting meanwhile, and a status asked meanwhile, get their
// answers once it goes on. With the NATS clients' defaults both failed
// ("i/o timeout", "context deadline exceeded"), and so did nqueens status
// in a loaded CI run.
func TestServerStallWaitedFor(t *testing.T) {
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), client.Auth{})
	sub := submit(t, c, queens.Spec{N: 8}, client.SubmitOptions{})
	work(t, srv.URL(), 1)
	proxy := newStallProxy(t, strings.TrimPrefix(srv.URL(), "nats://"))
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	before := connect(t, proxy.url(), client.Auth{}) // connected before the stall

	// No deadline, as nqueens status has none: each request gets the
	// client's timeout.
	bg := context.Background()
	proxy.hold(true)
	began := time.Now()
	var wg sync.WaitGroup
	var statusErr, connectErr error
	var st *client.Status
	wg.Go(func() { st, statusErr = before.Status(bg, sub.Job) })
	wg.Go(func() {
		var during *client.Client
		if during, connectErr = client.Connect(bg, proxy.url(), client.ConnectOptions{}); connectErr == nil {
			defer during.Close()
			_, connectErr = during.Status(bg, sub.Job)
		}
	})
	time.Sleep(stall)
	proxy.hold(false)
	wg.Wait()
	t.Logf("answered %v after the stall began", time.Since(began).Round(time.Millisecond))
	if statusErr != nil {
		t.Errorf("status asked during the stall: %v", statusErr)
	} else {
		exact(t, st)
	}
	if connectErr != nil {
		t.Errorf("connecting during the stall: %v", connectErr)
	}

	// A server that does not answer at all is still an error, after
	// Timeout.
	proxy.hold(true)
	defer proxy.hold(false)
	began = time.Now()
	if short, err := client.Connect(ctx, proxy.url(), client.ConnectOptions{Timeout: 300 * time.Millisecond}); err == nil {
		short.Close()
		t.Error("a server that never answers: connected")
	} else if d := time.Since(began); d > stall {
		t.Errorf("a server that never answers: %v after %v, want it after the 300 ms timeout", err, d)
	}
}
