package worker

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/sync/singleflight"

	"github.com/nqcount/nqcount/count/queens/queue"
)

// jobCache keeps, for a worker, the plans of the jobs it counts (planned
// once each) and which jobs are cancelled (watched in the jobs bucket).
type jobCache struct {
	c        *conn
	planning singleflight.Group // one planning per job at a time

	mu        sync.Mutex
	plans     map[string]*jobPlan
	refusals  map[string]error
	cancelled map[string]bool
	// self is the worker's id; outvoted records the jobs that distrust
	// it.
	self     string
	outvoted map[string]bool
}

// jobPlan is a job's plan as a worker keeps it: units is the number of
// units the job record gives, which the worker checks task ids against
// without cutting the units itself.
type jobPlan struct {
	*queue.Plan
	units int
}

func newJobCache(c *conn, self string) *jobCache {
	return &jobCache{c: c, plans: map[string]*jobPlan{}, refusals: map[string]error{}, cancelled: map[string]bool{}, self: self, outvoted: map[string]bool{}}
}

// plan returns the plan of a job, read and planned once per worker (the
// slots that take the job's first tasks wait for one planning); a job
// this program plans differently (another algorithm version) is refused.
func (j *jobCache) plan(ctx context.Context, id string) (*jobPlan, error) {
	v, err, _ := j.planning.Do(id, func() (any, error) {
		j.mu.Lock()
		p, err := j.plans[id], j.refusals[id]
		j.mu.Unlock()
		if p != nil || err != nil {
			return p, err
		}
		info, err := j.c.Job(ctx, id)
		if err != nil {
			return nil, err // perhaps a lost connection: not remembered
		}
		q, err := info.Plan()
		j.mu.Lock()
		defer j.mu.Unlock()
		if info.Cancelled != nil {
			j.cancelled[id] = true
		}
		if err != nil {
			j.refusals[id] = err
			return nil, err
		}
		p = &jobPlan{Plan: q, units: info.Tasks}
		j.plans[id] = p
		return p, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*jobPlan), nil
}

// isCancelled reports whether job id is known to be cancelled.
func (j *jobCache) isCancelled(id string) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.cancelled[id]
}

// watch follows the jobs bucket until ctx is done, calling cancelled for
// each job that is cancelled while the worker runs, and outvoted for each
// that distrusts this worker; it watches again after losing the server.
func (j *jobCache) watch(ctx context.Context, cancelled func(id string), outvoted func(id string, d queue.Distrust)) {
	for ctx.Err() == nil {
		if kv, err := j.c.JobsBucket(ctx); err == nil {
			j.follow(ctx, kv, cancelled, outvoted) // it ends when the watch does: watch again
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

func (j *jobCache) follow(ctx context.Context, kv jetstream.KeyValue, cancelled func(id string), outvoted func(id string, d queue.Distrust)) error {
	w, err := kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return err
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case e, ok := <-w.Updates():
			if !ok {
				return nil
			}
			if e == nil {
				continue // the values there when it started have come
			}
			var info queue.JobInfo
			if json.Unmarshal(e.Value(), &info) != nil {
				continue
			}
			j.mu.Lock()
			was := j.cancelled[info.ID]
			j.cancelled[info.ID] = info.Cancelled != nil
			j.mu.Unlock()
			if info.Cancelled != nil && !was {
				cancelled(info.ID)
			}
			if d, ok := queue.DistrustOf(info.Distrusted, j.self); ok {
				j.outvotedOnce(info.ID, d, outvoted)
			}
		}
	}
}

// outvotedOnce calls outvoted the first time job id names this worker
// outvoted.
func (j *jobCache) outvotedOnce(id string, d queue.Distrust, outvoted func(string, queue.Distrust)) {
	j.mu.Lock()
	first := !j.outvoted[id]
	j.outvoted[id] = true
	j.mu.Unlock()
	if first {
		outvoted(id, d)
	}
}
