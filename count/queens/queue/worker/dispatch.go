package worker

import (
	"context"
	"errors"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// dispatcher gives each free slot a task: a count task from the puller,
// or, when none comes for a while, verify tasks addressed to this worker
// (and, with exitWhenIdle, it ends the worker when nothing is left).
type dispatcher struct {
	slots        int
	in           <-chan held
	verify       *verifier
	exitWhenIdle bool
	newHeld      func(jetstream.Msg, bool) held
	// start handles a task in a goroutine of its own and calls done when
	// its slot is free again.
	start func(h held, done func())
	logf  func(string, ...any)
}

// idlePoll is how long a free slot waits for a count task before the
// worker looks for verify tasks (and, with ExitWhenIdle, whether it is
// done).
const idlePoll = 200 * time.Millisecond

// otherWait bounds a look for verify tasks: the dispatcher starts the
// count tasks too, and a reply lost in a server restart would hold it for
// the client's timeout.
const otherWait = 5 * time.Second

// run dispatches until ctx is done (its error) or the worker is idle
// (nil).
func (d *dispatcher) run(ctx context.Context) error {
	free := make(chan struct{}, d.slots)
	for range d.slots {
		free <- struct{}{}
	}
	done := func() { free <- struct{}{} }
	poll := time.NewTimer(0)
	eager := false // verify tasks came last time: look again at once
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-free:
		}
		if h, ok := d.next(ctx, eager, poll); ok {
			d.start(h, done)
			continue
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// No count task for a while: take the other free slots too, and
		// look for verify tasks, or stop if idle.
		n := 1
		for n < d.slots && len(free) > 0 {
			<-free
			n++
		}
		octx, cancel := context.WithTimeout(ctx, otherWait)
		msgs, err := d.verify.other(octx, n, n == d.slots, d.exitWhenIdle)
		cancel()
		eager = len(msgs) > 0
		for range n - len(msgs) {
			free <- struct{}{}
		}
		switch {
		case errors.Is(err, errIdle):
			return nil
		case err != nil && ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			d.logf("looking for verify tasks: %v (retrying)", err)
			time.Sleep(500 * time.Millisecond)
			continue
		}
		for _, m := range msgs {
			d.start(d.newHeld(m, false), done)
		}
	}
}

// next returns the next count task for a free slot: one waiting now,
// or one that comes within idlePoll (at once only, when eager).
func (d *dispatcher) next(ctx context.Context, eager bool, poll *time.Timer) (held, bool) {
	if eager {
		select {
		case h, ok := <-d.in:
			return h, ok
		default:
			return held{}, false
		}
	}
	poll.Reset(idlePoll)
	select {
	case <-ctx.Done():
	case h, ok := <-d.in:
		return h, ok
	case <-poll.C:
	}
	return held{}, false
}
