package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
)

// Job control: the operator's commands on jobs (nqueens jobs, cancel,
// requeue). A cancelled job keeps its record (JobInfo.Cancelled set) and
// its results; its tasks leave the queue, and workers stop counting the
// ones they hold. Requeue puts back what a job still needs: the tasks
// set aside after failing (and those whose workers died on every
// delivery), and every task of a cancelled job without a result.

// ErrCancelled is wrapped by the errors about a cancelled job.
var ErrCancelled = errors.New("cancelled")

// ErrFailed is wrapped by Wait's error for a job that nothing more can
// finish: tasks were set aside after failing (nqueens requeue).
var ErrFailed = errors.New("tasks failed")

// Cancel cancels job id: its record says so, its tasks are taken off the
// queue, and workers stop counting those they hold (their results so far
// are kept; Requeue resumes the job). Cancelling a cancelled job changes
// nothing.
func (c *Client) Cancel(ctx context.Context, id string) (info *queue.JobInfo, err error) {
	err = c.retry(ctx, "cancel", func(ctx context.Context) error { info, err = c.cancelOnce(ctx, id); return err })
	return info, err
}

func (c *Client) cancelOnce(ctx context.Context, id string) (*queue.JobInfo, error) {
	info, err := c.updateJob(ctx, id, func(j *queue.JobInfo) bool {
		if j.Cancelled != nil {
			return false
		}
		now := time.Now().UTC()
		j.Cancelled = &now
		return true
	})
	if err != nil {
		return nil, err
	}
	ts, err := c.js.Stream(ctx, queue.TasksStream)
	if err != nil {
		return nil, err
	}
	for _, prefix := range []string{layout.TaskPrefix, layout.VerifyPrefix} {
		if err := ts.Purge(ctx, jetstream.WithPurgeSubject(prefix+"."+id+".>")); err != nil {
			return nil, fmt.Errorf("taking the tasks of %s off the queue: %w", id, err)
		}
	}
	return info, nil
}

// updateJob changes the record of job id with change (which reports
// whether it changed anything), retrying if another client changed it
// in between.
func (c *Client) updateJob(ctx context.Context, id string, change func(*queue.JobInfo) bool) (*queue.JobInfo, error) {
	if _, err := c.Job(ctx, id); err != nil {
		return nil, err
	}
	kv, err := c.jobsBucket(ctx)
	if err != nil {
		return nil, err
	}
	for {
		e, err := kv.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		var info queue.JobInfo
		if err := json.Unmarshal(e.Value(), &info); err != nil {
			return nil, fmt.Errorf("job %s: its record is damaged: %v", id, err)
		}
		if !change(&info) {
			return &info, nil
		}
		b, _ := json.Marshal(info)
		if _, err := kv.Update(ctx, id, b, e.Revision()); err == nil {
			c.submitted.Delete(id)
			return &info, nil
		} else if !errors.Is(err, jetstream.ErrKeyExists) && !strings.Contains(err.Error(), "wrong last sequence") {
			return nil, fmt.Errorf("job %s: updating its record: %w", id, err)
		}
	}
}

// Requeued is what Requeue did.
type Requeued struct {
	Job string `json:"job"`
	// Failed lists the tasks that had failed and been set aside (or whose
	// workers all died), with why, as status showed them before.
	Failed []queue.Failure `json:"failed"`
	// Resumed is true when the job was cancelled.
	Resumed bool `json:"resumed"`
	// Added counts the task messages put back on the queue.
	Added int `json:"added"`
}

// Requeue puts back on the queue what job id still needs: its tasks set
// aside after failing (and those whose workers died on every delivery),
// each delivered afresh; for a cancelled job, which it resumes, every
// task without a result. Tasks that are still in the queue are left as
// they are.
func (c *Client) Requeue(ctx context.Context, id string) (r *Requeued, err error) {
	err = c.retry(ctx, "requeue", func(ctx context.Context) error { r, err = c.requeueOnce(ctx, id); return err })
	return r, err
}

func (c *Client) requeueOnce(ctx context.Context, id string) (*Requeued, error) {
	resumed := false
	info, err := c.updateJob(ctx, id, func(j *queue.JobInfo) bool {
		resumed = j.Cancelled != nil
		j.Cancelled = nil
		return resumed
	})
	if err != nil {
		return nil, err
	}
	s, col, err := c.read(ctx, id, true)
	if err != nil {
		return nil, err
	}
	out := &Requeued{Job: id, Resumed: resumed}
	ts, err := c.js.Stream(ctx, queue.TasksStream)
	if err != nil {
		return nil, err
	}
	for _, f := range s.Failed {
		if !f.SetAside {
			continue // still being retried
		}
		out.Failed = append(out.Failed, f)
		if err := c.requeueTask(ctx, ts, col, f); err != nil {
			return out, err
		}
		if f.Kind == queue.KindVerify {
			out.Added++
		}
	}
	// Every count task without a result that is not in the queue (a
	// cancelled job's, or one just taken off above) goes back.
	p := col.plan
	verdicts, _ := col.judgeAll()
	var futures []jetstream.PubAckFuture
	for _, id := range p.Order() {
		if verdicts[id].standing != nil {
			continue
		}
		m := queue.TaskMsg{ID: info.ID, Task: id, Verify: col.chosen[id]}
		if p.Units > 0 {
			m.Tasks = p.Tasks(id)
		}
		body, _ := json.Marshal(m)
		f, err := c.js.PublishAsync(layout.Subject(layout.TaskPrefix, info.ID, id), body, jetstream.WithExpectLastSequencePerSubject(0))
		if err != nil {
			return out, fmt.Errorf("publishing task %d: %w", id, err)
		}
		futures = append(futures, f)
		if len(futures) >= 500 {
			if out.Added, err = settle(ctx, futures, out.Added); err != nil {
				return out, err
			}
			futures = futures[:0]
		}
	}
	out.Added, err = settle(ctx, futures, out.Added)
	return out, err
}

// settle waits for the publishes of tasks and adds the ones stored to
// added; a task already in the queue is not an error.
func settle(ctx context.Context, futures []jetstream.PubAckFuture, added int) (int, error) {
	for _, f := range futures {
		select {
		case <-f.Ok():
			added++
		case err := <-f.Err():
			if !layout.AlreadyThere(err) {
				return added, fmt.Errorf("publishing task %s: %w", f.Msg().Subject, err)
			}
		case <-ctx.Done():
			return added, ctx.Err()
		}
	}
	return added, nil
}

// requeueTask takes a set-aside task's message off the queue, records
// that it was requeued (so that status stops listing its failures) and,
// for a verification, publishes it again for any worker other than the
// counter; Requeue publishes count tasks again with the others.
func (c *Client) requeueTask(ctx context.Context, ts jetstream.Stream, col *collector, f queue.Failure) error {
	marker := queue.Failure{Job: f.Job, Task: f.Task, Kind: f.Kind, Error: "requeued", Requeued: true, Time: time.Now().UTC()}
	switch f.Kind {
	case queue.KindVerify:
		filter := fmt.Sprintf("%s.%s.%d.>", layout.VerifyPrefix, f.Job, f.Task)
		ti, err := ts.Info(ctx, jetstream.WithSubjectFilter(filter))
		if err != nil {
			return err
		}
		from := ""
		for subj := range ti.State.Subjects {
			if _, _, fr, _, ok := layout.ParseVerifySubject(subj); ok {
				from = fr
			}
		}
		if from == "" {
			for _, rec := range col.recs[f.Task] {
				if rec.Kind == queue.KindCount {
					from = queue.WorkerToken(rec.Worker)
				}
			}
		}
		if err := ts.Purge(ctx, jetstream.WithPurgeSubject(filter)); err != nil {
			return err
		}
		if err := c.publishFailure(ctx, marker); err != nil {
			return err
		}
		body, _ := json.Marshal(queue.TaskMsg{ID: f.Job, Task: f.Task})
		_, err = c.js.Publish(ctx, layout.VerifySubject(f.Job, f.Task, from, layout.AnyWorker), body, jetstream.WithExpectLastSequencePerSubject(0))
		if err != nil && !layout.AlreadyThere(err) {
			return fmt.Errorf("publishing the verify task of %d: %w", f.Task, err)
		}
		return nil
	default:
		if err := ts.Purge(ctx, jetstream.WithPurgeSubject(layout.Subject(layout.TaskPrefix, f.Job, f.Task))); err != nil {
			return err
		}
		return c.publishFailure(ctx, marker)
	}
}

func (c *Client) publishFailure(ctx context.Context, f queue.Failure) error {
	body, _ := json.Marshal(f)
	_, err := c.js.Publish(ctx, layout.Subject(layout.FailPrefix, f.Job, f.Task), body)
	return err
}

// Jobs lists every job of the queue, oldest first.
func (c *Client) Jobs(ctx context.Context) (jobs []queue.JobLine, err error) {
	err = c.retry(ctx, "listing the jobs", func(ctx context.Context) error { jobs, err = layout.Jobs(ctx, c.nc, c.js); return err })
	return jobs, err
}

// Replica is one server's copy of a stream.
type Replica struct {
	Server  string `json:"server"`
	Leader  bool   `json:"leader"`
	Current bool   `json:"current"`
	Offline bool   `json:"offline"`
	// Lag is how many operations it is behind the leader.
	Lag uint64 `json:"lag"`
}

// StreamState is where a stream of the queue is kept.
type StreamState struct {
	Stream   string    `json:"stream"`
	Replicas []Replica `json:"replicas"`
}

// ClusterState says which servers keep the queue's streams and buckets and
// whether each copy is current: after a server comes back, it has caught
// up once every replica is current.
type ClusterState struct {
	Cluster string        `json:"cluster,omitempty"`
	Streams []StreamState `json:"streams"`
}

// Current reports whether every stream has a leader and every replica is
// current.
func (s *ClusterState) Current() bool {
	for _, st := range s.Streams {
		leader := false
		for _, r := range st.Replicas {
			if !r.Current || r.Offline {
				return false
			}
			leader = leader || r.Leader
		}
		if !leader {
			return false
		}
	}
	return len(s.Streams) > 0
}

// Cluster reads where the queue's streams are kept.
func (c *Client) Cluster(ctx context.Context) (cl *ClusterState, err error) {
	err = c.retry(ctx, "reading the streams' replicas", func(ctx context.Context) error { cl, err = c.clusterOnce(ctx); return err })
	return cl, err
}

func (c *Client) clusterOnce(ctx context.Context) (*ClusterState, error) {
	out := &ClusterState{Cluster: c.nc.ConnectedClusterName()}
	for _, name := range []string{queue.TasksStream, queue.ResultsStream, queue.EventsStream, "KV_" + queue.JobsBucket, "KV_" + queue.WorkersBucket} {
		st, err := c.js.Stream(ctx, name)
		if err != nil {
			return nil, fmt.Errorf("stream %s: %w", name, err)
		}
		info := st.CachedInfo()
		ss := StreamState{Stream: name}
		if ci := info.Cluster; ci != nil {
			if ci.Leader != "" {
				ss.Replicas = append(ss.Replicas, Replica{Server: ci.Leader, Leader: true, Current: true})
			}
			for _, p := range ci.Replicas {
				ss.Replicas = append(ss.Replicas, Replica{Server: p.Name, Current: p.Current, Offline: p.Offline, Lag: p.Lag})
			}
		}
		out.Streams = append(out.Streams, ss)
	}
	return out, nil
}
