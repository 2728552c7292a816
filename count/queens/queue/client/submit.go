package client

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
)

// SubmitOptions tune Submit.
type SubmitOptions struct {
	// Verify is the percentage (0 to 100) of the tasks that another
	// worker counts a second time.
	Verify float64
	// Seed chooses the tasks to verify; 0 picks one at random (printed in
	// the job's info, so the choice can be replayed).
	Seed uint64
	// Program is the submitting program's version, for information.
	Program string
	// Units groups the plan's tasks into units, one message each (see
	// Plan): 0 picks DefaultUnits for the plan, a negative value gives
	// every task its own message.
	Units int
}

// Submitted is what Submit did.
type Submitted struct {
	Job   string `json:"job"`
	Tasks int    `json:"tasks"`
	// Added is the number of tasks this call put on the queue: 0 for a
	// job submitted before.
	Added int `json:"added"`
	// New is false when the job had been submitted before; its first
	// submission's options stay.
	New bool `json:"new"`
	// Info is the job as recorded.
	Info queue.JobInfo `json:"info"`
	// VerifyTasks is the number of tasks chosen for a second count.
	VerifyTasks int `json:"verify_tasks"`
}

// Submit puts the tasks of the plan of s on the queue as the job
// queens.Plan.ID names, and records the job. Submitting the same plan again,
// or again after an interrupted submit, adds no task twice: the job record
// is created once and each task subject takes one message.
func (c *Client) Submit(ctx context.Context, s queens.Spec, opt SubmitOptions) (*Submitted, error) {
	jp, err := queens.NewPlan(s)
	if err != nil {
		return nil, err
	}
	return c.SubmitPlan(ctx, jp, opt)
}

// SubmitPlan is Submit for a plan already made (queens.NewPlan): a front end
// that checks the plan before it connects need not plan it twice.
func (c *Client) SubmitPlan(ctx context.Context, jp *queens.Plan, opt SubmitOptions) (sub *Submitted, err error) {
	err = c.retry(ctx, "submit", func(ctx context.Context) error { sub, err = c.submitOnce(ctx, jp, opt); return err })
	return sub, err
}

func (c *Client) submitOnce(ctx context.Context, jp *queens.Plan, opt SubmitOptions) (*Submitted, error) {
	if opt.Verify < 0 || opt.Verify > 100 {
		return nil, fmt.Errorf("%w: verify %g%%: choose 0 to 100", queens.ErrInvalid, opt.Verify)
	}
	units := opt.Units
	switch {
	case units == 0:
		units = queue.DefaultUnits(jp.N, jp.Len())
	case units < 0:
		units = 0
	}
	p, err := queue.NewPlan(jp, units)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", queens.ErrInvalid, err)
	}
	// The queue may not be set up yet: a server just started, or a NATS
	// deployment of our own that no worker has used.
	if err := c.Setup(ctx, queue.Settings{}, false); err != nil {
		return nil, fmt.Errorf("setting up the queue: %w", err)
	}
	seed := opt.Seed
	for seed == 0 && opt.Verify > 0 {
		var b [8]byte
		rand.Read(b[:])
		seed = binary.LittleEndian.Uint64(b[:])
	}
	info := queue.JobInfo{
		ID: p.ID(), N: jp.N, Method: string(jp.Method), Depth: jp.Depth, Hash: p.Hash(),
		Algorithm: queens.AlgorithmVersion, Tasks: p.Len(), PlanTasks: jp.Len(), Units: p.Units,
		Verify: opt.Verify, Seed: seed, VerifyRule: queue.VerifyExact, Submitted: time.Now().UTC(), Program: opt.Program,
	}
	kv, err := c.jobsBucket(ctx)
	if err != nil {
		return nil, fmt.Errorf("the queue is not set up (bucket %s): %w", queue.JobsBucket, err)
	}
	out := &Submitted{Job: info.ID, Tasks: info.Tasks, New: true}
	b, _ := json.Marshal(info)
	if _, err := kv.Create(ctx, info.ID, b); errors.Is(err, jetstream.ErrKeyExists) {
		old, err := c.Job(ctx, info.ID)
		if err != nil {
			return nil, err
		}
		out.New, info = false, *old
		if info.Cancelled != nil {
			return nil, fmt.Errorf("job %s: %w on %s: 'nqueens requeue %s' resumes it", info.ID, ErrCancelled, info.Cancelled.Format("2006-01-02 15:04:05 UTC"), info.ID)
		}
	} else if err != nil {
		return nil, fmt.Errorf("recording job %s: %w", info.ID, err)
	}
	out.Info = info
	if out.New {
		c.submitted.Store(info.ID, &submittedJob{info, p})
	}
	// Publish every task, even for a job seen before: a submit that was
	// interrupted half way is completed, and the tasks already there
	// are refused by the stream.
	order := p.Order()
	chosen := info.Chosen()
	for _, v := range chosen {
		if v {
			out.VerifyTasks++
		}
	}
	for len(order) > 0 {
		// In batches, so that the publisher never stalls on too many
		// acknowledgements outstanding.
		batch := order[:min(len(order), 500)]
		order = order[len(batch):]
		futures := make([]jetstream.PubAckFuture, 0, len(batch))
		for _, id := range batch {
			m := queue.TaskMsg{ID: info.ID, Task: id, Verify: chosen[id]}
			if p.Units > 0 {
				m.Tasks = p.Tasks(id)
			}
			body, _ := json.Marshal(m)
			f, err := c.js.PublishAsync(layout.Subject(layout.TaskPrefix, info.ID, id), body, jetstream.WithExpectLastSequencePerSubject(0))
			if err != nil {
				return nil, fmt.Errorf("publishing task %d: %w", id, err)
			}
			futures = append(futures, f)
		}
		for _, f := range futures {
			select {
			case <-f.Ok():
				out.Added++
			case err := <-f.Err():
				if !layout.AlreadyThere(err) {
					return nil, fmt.Errorf("publishing task %s: %w", f.Msg().Subject, err)
				}
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	}
	return out, nil
}

// Job returns the record of a submitted job.
func (c *Client) Job(ctx context.Context, id string) (*queue.JobInfo, error) {
	return layout.Job(ctx, c.jobsBucket, id)
}
