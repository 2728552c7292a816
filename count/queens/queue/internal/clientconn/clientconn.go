// Package clientconn is what package client lends package worker: the
// connection of a client and the reads and writes the two share (a
// task's verdict, the naming of outvoted workers, a publish that retries),
// so that the worker is a package of its own without them being part of
// the client's exported API. Package client registers the lender when it
// is initialised (it imports this package, so this package cannot name
// its type).
package clientconn

import (
	"context"
	"slices"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count/queens/queue"
)

// Conn is a client's connection as a worker uses it.
type Conn interface {
	// NATS is the connection and its JetStream context.
	NATS() (*nats.Conn, jetstream.JetStream)
	// Setup creates what is absent of the queue (Client.Setup).
	Setup(ctx context.Context, s queue.Settings, update bool) error
	// Job reads the record of job id (Client.Job).
	Job(ctx context.Context, id string) (*queue.JobInfo, error)
	// JobsBucket is the jobs' bucket.
	JobsBucket(ctx context.Context) (jetstream.KeyValue, error)
	// Publish publishes until the server stores the message, through
	// reconnections and a cluster's elections; it gives up when pubCtx
	// is done, or soon after ctx is.
	Publish(pubCtx, ctx context.Context, subj string, body []byte, opts ...jetstream.PublishOpt) error
	// TaskVerdict judges one task of job id (planned as p) from its
	// records, the job's distrusted workers left out; it returns the
	// job's record too, with every worker named outvoted.
	TaskVerdict(ctx context.Context, id string, task int, p *queue.Plan) (Verdict, *queue.JobInfo, error)
	// DistrustRecords reads the workers named outvoted on job id.
	DistrustRecords(ctx context.Context, id string) ([]queue.Distrust, error)
	// Distrust names the outvoted workers ds of job id and has what
	// they counted or verified counted again (recount).
	Distrust(ctx context.Context, id string, ds []queue.Distrust, recount Recount) error
	// RecountDistrusted has what job id's distrusted workers counted or
	// verified, and no other record settles, counted again (recount).
	RecountDistrusted(ctx context.Context, id string, recount Recount) error
}

// Recount publishes a verify task of task of job jobID (planned as p),
// from the worker with token from, addressed to a live worker not among
// exclude (worker ids); it returns the addressee.
type Recount func(ctx context.Context, jobID string, task int, p *queue.Plan, from string, exclude []string) (string, error)

// Opinion is one result of a task and the workers that gave it.
type Opinion struct {
	Count   uint64
	Workers []string
}

// Verdict is what a task's results come to: the result that stands (nil:
// none, or a conflict not settled), the outvoted ones once settled, or a
// conflict; Opinions are every result.
type Verdict struct {
	Standing *Opinion
	Outvoted []Opinion
	Conflict bool
	Opinions []Opinion
}

// Agree is the number of workers behind the standing result.
func (v Verdict) Agree() int {
	if v.Standing == nil {
		return 0
	}
	return len(v.Standing.Workers)
}

// Has reports whether worker gave one of the task's results.
func (v Verdict) Has(worker string) bool {
	for _, o := range v.Opinions {
		if slices.Contains(o.Workers, worker) {
			return true
		}
	}
	return false
}

// lend is set by package client.
var lend func(client any) Conn

// Register sets the function that lends a client's connection (package
// client's, once).
func Register(f func(client any) Conn) { lend = f }

// Of returns the connection of client, a *client.Client.
func Of(client any) Conn { return lend(client) }

// AttemptWait and UnverifiedGrace point at the client's waits of those
// names, for the tests of package worker to shorten (package client sets
// them).
var AttemptWait, UnverifiedGrace *time.Duration
