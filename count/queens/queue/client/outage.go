package client

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
)

// Outages are ordinary weather: a server restarts, a cluster loses the
// quorum of its servers for a minute, a leader is elected. The clients'
// operations (Submit, Status, Jobs, Cancel, Requeue, Export, Cluster)
// retry what says the queue cannot answer now (Transient) until their
// context's deadline, then fail with ErrNoAnswer and the last error; Wait
// waits through an outage as long as ConnectOptions.Patience allows.

// ErrNoAnswer is wrapped by the error of an operation that the queue did
// not answer before its deadline: its servers, or the quorum of a
// cluster's servers, were unreachable the whole time.
var ErrNoAnswer = errors.New("the queue did not answer")

// ErrDenied is wrapped by the error of an operation the servers refused
// this client's credentials (a worker's token cancelling a job).
var ErrDenied = errors.New("refused")

// roleName is the client's role as ErrDenied's message names it.
func (c *Client) roleName() string {
	if c.user == "" {
		return "the token's"
	}
	return c.user
}

// Transient reports whether err says that the queue cannot answer now (a
// server down or restarting, a cluster without the quorum of its servers,
// a leader being elected) rather than that the request is wrong: one
// worth retrying.
func Transient(err error) bool {
	if err == nil {
		return false
	}
	return layout.NotReady(err) || errors.Is(err, jetstream.ErrNoStreamResponse) || errors.Is(err, nats.ErrNoServers) ||
		errors.Is(err, nats.ErrConnectionReconnecting) || errors.Is(err, nats.ErrConnectionDraining) ||
		errors.Is(err, jetstream.ErrNoHeartbeat) || errors.Is(err, nats.ErrNoStreamResponse) ||
		errors.Is(err, jetstream.ErrConsumerLeadershipChanged) ||
		// Said by the server in a message's status, not as an API
		// error with its code.
		strings.Contains(err.Error(), "temporarily unavailable")
}

// retry runs f until it succeeds or fails for good; a transient failure
// is tried again, with back-off, until ctx is done (its deadline is the
// operation's: nqueens --timeout). what names the operation in the
// client's log and the error.
func (c *Client) retry(ctx context.Context, what string, f func(context.Context) error) error {
	began := time.Now()
	told := false
	for wait := 250 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
		// A request that a cluster without quorum never answers
		// would wait for the whole deadline: each try has its own.
		try, cancel := context.WithTimeout(ctx, attemptWait)
		tried := time.Now()
		// A refusal ends the try at once (its reply never comes): one
		// said before the try is not this one's.
		select {
		case <-c.denied.signal():
		default:
		}
		stop := make(chan struct{})
		go func() {
			select {
			case <-c.denied.signal():
				cancel()
			case <-stop:
			}
		}()
		err := f(try)
		close(stop)
		cancel()
		if err == nil {
			return nil
		}
		// A request the server refused for this client's role: said on
		// the connection, not in the reply.
		if d := c.denied.since(tried); d != nil {
			return fmt.Errorf("%s: %w: %v (the credentials of role %q may not do this)", what, ErrDenied, d, c.roleName())
		}
		if !Transient(err) {
			return err
		}
		if ctx.Err() != nil {
			return noAnswer(what, time.Since(began), err)
		}
		if !told {
			c.logf("%s: the queue cannot answer now (%v); trying again%s", what, err, deadlineText(ctx))
			told = true
		}
		select {
		case <-ctx.Done():
			return noAnswer(what, time.Since(began), err)
		case <-time.After(wait):
		}
	}
}

// attemptWait bounds one try of an operation's requests (a Status reads
// the records themselves in steps of their own).
var attemptWait = DefaultTimeout

// noAnswer is retry's error.
func noAnswer(what string, waited time.Duration, last error) error {
	return fmt.Errorf("%s: %w within %v (servers down, or a cluster without the quorum of its servers): %v", what, ErrNoAnswer, waited.Round(time.Second), last)
}

// deadlineText says how long retry tries, from ctx's deadline.
func deadlineText(ctx context.Context) string {
	if d, ok := ctx.Deadline(); ok {
		return fmt.Sprintf(" for up to %v", time.Until(d).Round(time.Second))
	}
	return ""
}
