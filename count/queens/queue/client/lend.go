package client

import (
	"context"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/internal/clientconn"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
)

// A worker (package worker) counts through a client's connection, and
// judges and names outvoted workers as the client reads them: lent here,
// through an internal package, rather than exported.
func init() {
	clientconn.Register(func(c any) clientconn.Conn { return lent{c.(*Client)} })
	clientconn.AttemptWait, clientconn.UnverifiedGrace = &attemptWait, &unverifiedGrace
}

// lent is a client as a worker uses it.
type lent struct{ c *Client }

func (l lent) NATS() (*nats.Conn, jetstream.JetStream) { return l.c.nc, l.c.js }

func (l lent) Setup(ctx context.Context, s queue.Settings, update bool) error {
	return l.c.Setup(ctx, s, update)
}

func (l lent) Job(ctx context.Context, id string) (*queue.JobInfo, error) { return l.c.Job(ctx, id) }

func (l lent) JobsBucket(ctx context.Context) (jetstream.KeyValue, error) {
	return l.c.jobsBucket(ctx)
}

func (l lent) Publish(pubCtx, ctx context.Context, subj string, body []byte, opts ...jetstream.PublishOpt) error {
	return l.c.publish(pubCtx, ctx, subj, body, opts...)
}

func (l lent) TaskVerdict(ctx context.Context, id string, task int, p *queue.Plan) (clientconn.Verdict, *queue.JobInfo, error) {
	v, info, err := l.c.taskVerdict(ctx, id, task, p)
	if err != nil {
		return clientconn.Verdict{}, nil, err
	}
	out := clientconn.Verdict{Conflict: v.conflict}
	if v.standing != nil {
		out.Standing = &clientconn.Opinion{Count: v.standing.count, Workers: v.standing.workers}
	}
	for _, o := range v.outvoted {
		out.Outvoted = append(out.Outvoted, clientconn.Opinion{Count: o.count, Workers: o.workers})
	}
	for _, o := range v.ops {
		out.Opinions = append(out.Opinions, clientconn.Opinion{Count: o.count, Workers: o.workers})
	}
	return out, info, nil
}

func (l lent) DistrustRecords(ctx context.Context, id string) ([]queue.Distrust, error) {
	return l.c.distrustRecords(ctx, id)
}

func (l lent) Distrust(ctx context.Context, id string, ds []queue.Distrust, recount clientconn.Recount) error {
	return l.c.distrust(ctx, id, ds, recount)
}

func (l lent) RecountDistrusted(ctx context.Context, id string, recount clientconn.Recount) error {
	return l.c.recountDistrusted(ctx, id, recount)
}

// publish publishes until the server stores the message, through
// reconnections and a cluster's elections; it gives up when pubCtx is
// done, or soon after ctx is.
func (c *Client) publish(pubCtx, ctx context.Context, subj string, body []byte, opts ...jetstream.PublishOpt) error {
	for wait := 100 * time.Millisecond; ; wait = min(2*wait, 2*time.Second) {
		one, cancel := context.WithTimeout(pubCtx, 5*time.Second)
		_, err := c.js.Publish(one, subj, body, opts...)
		cancel()
		if err == nil || layout.AlreadyThere(err) {
			return nil
		}
		if pubCtx.Err() != nil || ctx.Err() != nil && wait >= 2*time.Second {
			return err
		}
		select {
		case <-pubCtx.Done():
			return err
		case <-time.After(wait):
		}
	}
}
