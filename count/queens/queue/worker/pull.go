package worker

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// puller fetches count tasks ahead of the slots: up to ahead tasks are
// held by the worker at once, from their arrival (and kept alive like the
// ones being counted), so that small tasks do not wait for a round trip
// each. While some are still waiting for a slot it fetches batch tasks at
// a time: each fetch costs the server a subscription and a request, so one
// per task would cost as much as the task's result.
type puller struct {
	tasks    jetstream.Consumer
	batch    int
	credit   chan struct{} // one per task it may fetch
	in       chan held     // fetched, waiting for a slot
	newHeld  func(jetstream.Msg, bool) held
	giveBack func(held)
	logf     func(string, ...any)
	cancel   context.CancelFunc
	// pause, if set, says how long to wait before the next fetch (the
	// worker refuses what it is handed).
	pause func() time.Duration
}

// pullWait is how long a fetch waits for tasks to arrive.
const pullWait = 2 * time.Second

func newPuller(tasks jetstream.Consumer, ahead, batch int, newHeld func(jetstream.Msg, bool) held, giveBack func(held), logf func(string, ...any)) *puller {
	p := &puller{
		tasks: tasks, batch: batch, credit: make(chan struct{}, ahead), in: make(chan held, ahead),
		newHeld: newHeld, giveBack: giveBack, logf: logf,
	}
	for range ahead {
		p.credit <- struct{}{}
	}
	return p
}

// start fetches until stop or ctx's end; the channel returned is closed
// when the puller has stopped, and p.in with it.
func (p *puller) start(ctx context.Context) <-chan struct{} {
	ctx, p.cancel = context.WithCancel(ctx)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		defer close(p.in)
		for ctx.Err() == nil {
			n, ok := p.take(ctx)
			if !ok {
				return
			}
			p.fetch(ctx, n)
		}
	}()
	return stopped
}

// stop stops fetching.
func (p *puller) stop() { p.cancel() }

// done returns the credit of a task the puller fetched, once its slot is
// through with it.
func (p *puller) done(h held) {
	if h.pulled {
		p.credit <- struct{}{}
	}
}

// take waits for credit and returns how many tasks to fetch: all the
// credit there is, but while tasks still wait for a slot, no fewer than
// a batch (it waits for more to come back).
func (p *puller) take(ctx context.Context) (int, bool) {
	select {
	case <-ctx.Done():
		return 0, false
	case <-p.credit:
	}
	n := 1
	for n < cap(p.credit) {
		select {
		case <-p.credit:
			n++
			continue
		default:
		}
		if n >= p.batch || len(p.in) == 0 {
			break
		}
		select {
		case <-p.credit:
			n++
		case <-ctx.Done():
			return 0, false
		}
	}
	return n, true
}

// fetch fetches up to n tasks and passes them on, returning the credit
// of those that did not come.
func (p *puller) fetch(ctx context.Context, n int) {
	if p.pause != nil {
		if d := p.pause(); d > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(d):
			}
		}
	}
	// The fetch is not cut short when the worker stops: tasks the server
	// has sent to a pull request that the client has left are counted as
	// delivered and arrive nowhere (under --max-deliver 1 they were set
	// aside). It ends by itself within pullWait, and what it brought is
	// handed back below.
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pullWait)
	defer cancel()
	b, err := p.tasks.Fetch(n, jetstream.FetchContext(fctx))
	got := 0
	if err == nil {
		for m := range b.Messages() {
			got++
			h := p.newHeld(m, true)
			if ctx.Err() != nil {
				p.giveBack(h)
				p.credit <- struct{}{}
				continue
			}
			p.in <- h // the credit taken keeps a place for it
		}
		err = b.Error()
	}
	for range n - got {
		p.credit <- struct{}{}
	}
	if err != nil && got == 0 && ctx.Err() == nil && !errors.Is(err, jetstream.ErrNoMessages) && !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, context.DeadlineExceeded) {
		p.logf("receiving tasks: %v (retrying)", err)
		select {
		case <-ctx.Done():
		case <-time.After(500 * time.Millisecond):
		}
	}
}
