// Package layout is the queue's layout on JetStream, shared by the
// client, the worker and the server: the subjects, the streams, buckets
// and consumers (Setup), and the reads each of them needs (the workers'
// reports, the jobs and their stored records' counts).
package layout

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
)

// Subject prefixes; a subject is prefix.JOB.ID.
const (
	TaskPrefix     = "nqcount.task"
	VerifyPrefix   = "nqcount.verify"
	ResultPrefix   = "nqcount.result"
	VerifiedPrefix = "nqcount.verified"
	FailPrefix     = "nqcount.fail"
)

// Subject returns prefix.JOB.TASK.
func Subject(prefix, jobID string, task int) string {
	return fmt.Sprintf("%s.%s.%d", prefix, jobID, task)
}

// Replicas returns the replicas to create streams with.
func Replicas(s queue.Settings, clustered bool) int {
	switch {
	case s.Replicas > 0:
		return s.Replicas
	case clustered:
		return 3
	}
	return 1
}

func withDefaults(s queue.Settings) queue.Settings {
	if s.AckWait <= 0 {
		s.AckWait = 30 * time.Second
	}
	if s.MaxDeliver <= 0 {
		s.MaxDeliver = 5
	}
	return s
}

// backOff doubles the wait for each redelivery after a timeout, up to 8
// times AckWait: a task that kills its workers is not handed out again at
// once.
func backOff(s queue.Settings) []time.Duration {
	var b []time.Duration
	for i := 0; i < s.MaxDeliver && i < 4; i++ {
		b = append(b, s.AckWait<<i)
	}
	return b
}

// Setup creates the streams, buckets and consumers that are absent, with s
// for the consumers and the replicas (Settings.Replicas: by default 3 on a
// cluster, 1 on a server alone). With update it also applies s to
// consumers that exist, and raises the replicas of streams that have
// fewer (the server's operator does, at start); without, it leaves them
// as they are (a worker does not change its fellows' settings). Every
// client that needs the queue calls it, so that nothing depends on which
// started first, on a server of ours or on any NATS deployment with
// JetStream.
func Setup(ctx context.Context, nc *nats.Conn, js jetstream.JetStream, s queue.Settings, update bool, waiting func(error)) error {
	if s.Replicas == 0 && nc.ConnectedClusterName() != "" {
		// A client of a cluster: three replicas, or as many servers as
		// it knows if fewer.
		s.Replicas = min(3, max(len(nc.Servers()), 1))
	}
	return setupRetry(ctx, js, s, update, waiting)
}

// setupRetry is Setup, tried again while JetStream is not ready (a
// cluster without a leader yet, a server starting); waiting, if set, is
// told the first time.
func setupRetry(ctx context.Context, js jetstream.JetStream, s queue.Settings, update bool, waiting func(error)) error {
	told := false
	for wait := 100 * time.Millisecond; ; wait = min(2*wait, 2*time.Second) {
		err := setup(ctx, js, s, update)
		if err == nil || !NotReady(err) || ctx.Err() != nil {
			return err
		}
		if waiting != nil && !told {
			waiting(err)
			told = true
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (JetStream was not ready: %v)", ctx.Err(), err)
		case <-time.After(wait):
		}
	}
}

// NotReady reports whether err says that JetStream cannot answer yet
// (a cluster electing its leaders, a server starting) rather than that
// something is wrong.
func NotReady(err error) bool {
	var e jetstream.JetStreamError
	if errors.As(err, &e) && e.APIError() != nil {
		switch e.APIError().ErrorCode {
		case 10008, // JetStream system temporarily unavailable
			10023, // insufficient resources (servers not yet joined)
			10005, // no suitable peers for placement
			10074: // replicas > 1 not supported in non-clustered mode (a cluster not formed)
			return true
		}
	}
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) ||
		errors.Is(err, nats.ErrNoResponders) || errors.Is(err, jetstream.ErrJetStreamNotEnabled) ||
		errors.Is(err, nats.ErrJetStreamNotEnabled)
}

func setup(ctx context.Context, js jetstream.JetStream, s queue.Settings, update bool) error {
	s = withDefaults(s)
	r := Replicas(s, false)
	// Each step is bounded: a request lost in a cluster's election would
	// otherwise hold it for the client's whole timeout.
	step := func() (context.Context, context.CancelFunc) { return context.WithTimeout(ctx, 10*time.Second) }
	streams := []jetstream.StreamConfig{{
		Name:              queue.TasksStream,
		Description:       "n-queens tasks to count, one message per subject",
		Subjects:          []string{TaskPrefix + ".>", VerifyPrefix + ".>"},
		Storage:           jetstream.FileStorage,
		Retention:         jetstream.LimitsPolicy,
		MaxMsgsPerSubject: 1,
		Discard:           jetstream.DiscardNew,
		MaxMsgs:           -1,
		MaxBytes:          -1,
		Replicas:          r,
	}, {
		Name:        queue.ResultsStream,
		Description: "n-queens task results and failures, every record kept",
		Subjects:    []string{ResultPrefix + ".>", VerifiedPrefix + ".>", FailPrefix + ".>"},
		Storage:     jetstream.FileStorage,
		Retention:   jetstream.LimitsPolicy,
		Duplicates:  5 * time.Minute,
		MaxMsgs:     -1,
		MaxBytes:    -1,
		Replicas:    r,
	}, {
		Name:        queue.EventsStream,
		Description: "advisories: tasks delivered the most times without an acknowledgement",
		Subjects:    []string{"$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + queue.TasksStream + ".*"},
		Storage:     jetstream.FileStorage,
		MaxMsgs:     100000,
		Discard:     jetstream.DiscardOld,
		Replicas:    r,
	}}
	for _, cfg := range streams {
		sctx, cancel := step()
		err := ensureStream(sctx, js, cfg, update)
		cancel()
		if err != nil {
			return err
		}
	}
	for _, kv := range []jetstream.KeyValueConfig{
		{Bucket: queue.JobsBucket, Description: "n-queens jobs: what to count", Storage: jetstream.FileStorage, Replicas: r},
		{Bucket: queue.WorkersBucket, Description: "n-queens workers' last reports", Storage: jetstream.MemoryStorage, TTL: queue.WorkerTTL, Replicas: r},
	} {
		sctx, cancel := step()
		_, err := js.KeyValue(sctx, kv.Bucket)
		if errors.Is(err, jetstream.ErrBucketNotFound) {
			if _, err = js.CreateKeyValue(sctx, kv); errors.Is(err, jetstream.ErrBucketExists) {
				err = nil
			}
		} else if err == nil && update {
			err = raiseReplicas(sctx, js, "KV_"+kv.Bucket, r)
		}
		cancel()
		if err != nil {
			return fmt.Errorf("bucket %s: %w", kv.Bucket, err)
		}
	}
	cc := jetstream.ConsumerConfig{
		Durable: queue.WorkConsumer, Description: "n-queens workers", FilterSubject: TaskPrefix + ".>",
		AckPolicy: jetstream.AckExplicitPolicy, DeliverPolicy: jetstream.DeliverAllPolicy,
		AckWait: s.AckWait, MaxDeliver: s.MaxDeliver, BackOff: backOff(s), MaxAckPending: 100000,
	}
	sctx, cancel := step()
	defer cancel()
	_, err := js.Consumer(sctx, queue.TasksStream, cc.Durable)
	switch {
	case errors.Is(err, jetstream.ErrConsumerNotFound):
		_, err = js.CreateConsumer(sctx, queue.TasksStream, cc)
	case err == nil && update:
		_, err = js.UpdateConsumer(sctx, queue.TasksStream, cc)
	}
	if err != nil {
		return fmt.Errorf("consumer %s: %w", cc.Durable, err)
	}
	return nil
}

// ensureStream creates the stream cfg names if it is absent; with
// update, it raises the replicas of one that has fewer.
func ensureStream(ctx context.Context, js jetstream.JetStream, cfg jetstream.StreamConfig, update bool) error {
	_, err := js.Stream(ctx, cfg.Name)
	switch {
	case errors.Is(err, jetstream.ErrStreamNotFound):
		if _, err := js.CreateStream(ctx, cfg); err != nil && !errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			return fmt.Errorf("creating stream %s: %w", cfg.Name, err)
		}
	case err != nil:
		return fmt.Errorf("stream %s: %w", cfg.Name, err)
	case update:
		if err := raiseReplicas(ctx, js, cfg.Name, cfg.Replicas); err != nil {
			return fmt.Errorf("stream %s: %w", cfg.Name, err)
		}
		// A tasks stream set up by an older version refused a new
		// message on a subject outright; now each publish says what it
		// expects there (nothing, or the message it replaces: a task
		// passed on by a worker that cannot count it).
		st, err := js.Stream(ctx, cfg.Name)
		if err != nil {
			return fmt.Errorf("stream %s: %w", cfg.Name, err)
		}
		if old := st.CachedInfo().Config; old.DiscardNewPerSubject && !cfg.DiscardNewPerSubject {
			old.DiscardNewPerSubject = false
			if _, err := js.UpdateStream(ctx, old); err != nil {
				return fmt.Errorf("stream %s: %w", cfg.Name, err)
			}
		}
	}
	return nil
}

// raiseReplicas makes a stream kept by r servers if it has fewer (a
// queue that started on one server, joined by others).
func raiseReplicas(ctx context.Context, js jetstream.JetStream, name string, r int) error {
	st, err := js.Stream(ctx, name)
	if err != nil {
		return err
	}
	cfg := st.CachedInfo().Config
	if cfg.Replicas >= r {
		return nil
	}
	cfg.Replicas = r
	_, err = js.UpdateStream(ctx, cfg)
	return err
}

// ConnectInProcess connects to an embedded server without a socket, as
// user (if not empty) with token.
func ConnectInProcess(ns nats.InProcessConnProvider, user, token string) (*nats.Conn, jetstream.JetStream, error) {
	opts := []nats.Option{nats.InProcessServer(ns), nats.Name("nqcount-serve")}
	switch {
	case user != "":
		opts = append(opts, nats.UserInfo(user, token))
	case token != "":
		opts = append(opts, nats.Token(token))
	}
	nc, err := nats.Connect("", opts...)
	if err != nil {
		return nil, nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	return nc, js, nil
}

// Redact hides a token or password given in a URL.
func Redact(url string) string {
	before, after, ok := strings.Cut(url, "://")
	if !ok {
		return url
	}
	if at := strings.LastIndex(after, "@"); at >= 0 {
		after = "[REDACTED]@" + after[at+1:]
	}
	return before + "://" + after
}

// badTLS is an error that wraps queue.ErrBadTLS without saying so (its message
// says why).
type badTLS struct{ msg string }

func (e *badTLS) Error() string { return e.msg }
func (e *badTLS) Unwrap() error { return queue.ErrBadTLS }

// KeyPair parses a PEM certificate (chain) and its key.
func KeyPair(certPEM, keyPEM []byte) (tls.Certificate, error) {
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return tls.Certificate{}, &badTLS{"not a PEM certificate and its key: " + err.Error()}
	}
	if cert.Leaf, err = x509.ParseCertificate(cert.Certificate[0]); err != nil {
		return tls.Certificate{}, &badTLS{"the certificate: " + err.Error()}
	}
	return cert, nil
}

// CertPool parses PEM certificates of authorities.
func CertPool(pem []byte) (*x509.CertPool, error) {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, &badTLS{"no PEM certificate in it"}
	}
	return pool, nil
}

// Report is a worker's report with the server's time of it.
type Report struct {
	queue.Seen
	At time.Time // when the server stored it
}

// Active reports whether the worker reported within queue.ActiveWithin of now
// (server time) and has not stopped.
func (r *Report) Active(now time.Time) bool {
	return !r.Stopped && now.Sub(r.At) < queue.ActiveWithin
}

// ReadReports returns every worker report in the bucket, with the
// server's times, and the latest of those times (a lower bound of the
// server's clock now: workers report every second).
func ReadReports(ctx context.Context, js jetstream.JetStream) ([]Report, time.Time, error) {
	kv, err := js.KeyValue(ctx, queue.WorkersBucket)
	if err != nil {
		return nil, time.Time{}, err
	}
	w, err := kv.WatchAll(ctx, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, time.Time{}, err
	}
	defer w.Stop()
	var out []Report
	var latest time.Time
	for {
		select {
		case <-ctx.Done():
			return nil, time.Time{}, ctx.Err()
		case e := <-w.Updates():
			if e == nil {
				return out, latest, nil
			}
			var s queue.Seen
			if json.Unmarshal(e.Value(), &s) == nil && s.Check() == nil {
				out = append(out, Report{s, e.Created()})
				if e.Created().After(latest) {
					latest = e.Created()
				}
			}
		}
	}
}

// Job reads job id's record from the jobs bucket, which bucket returns.
func Job(ctx context.Context, bucket func(context.Context) (jetstream.KeyValue, error), id string) (*queue.JobInfo, error) {
	if err := queue.CheckJobID(id); err != nil {
		return nil, err
	}
	kv, err := bucket(ctx)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, fmt.Errorf("job %s: %w (this server has no queue set up: see nqueens serve)", id, queue.ErrNoJob)
	}
	if err != nil {
		return nil, err
	}
	e, err := kv.Get(ctx, id)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, fmt.Errorf("job %s: %w on this server (see nqueens submit)", id, queue.ErrNoJob)
	}
	if err != nil {
		return nil, err
	}
	var info queue.JobInfo
	if err := json.Unmarshal(e.Value(), &info); err != nil || info.ID != id {
		return nil, fmt.Errorf("job %s: its record is damaged: %v", id, err)
	}
	return &info, nil
}

// Jobs lists every job of the queue, oldest first, once (no retry).
func Jobs(ctx context.Context, nc *nats.Conn, js jetstream.JetStream) ([]queue.JobLine, error) {
	if err := Setup(ctx, nc, js, queue.Settings{}, false, nil); err != nil {
		return nil, err
	}
	kv, err := js.KeyValue(ctx, queue.JobsBucket)
	if err != nil {
		return nil, err
	}
	lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	keys, err := kv.ListKeys(lctx)
	if err != nil {
		return nil, err
	}
	var ids []string
	for k := range keys.Keys() {
		ids = append(ids, k)
	}
	if lctx.Err() != nil {
		return nil, fmt.Errorf("listing the jobs: %w", lctx.Err())
	}
	rs, err := js.Stream(ctx, queue.ResultsStream)
	if err != nil {
		return nil, err
	}
	var out []queue.JobLine
	for _, id := range ids {
		info, err := Job(ctx, func(context.Context) (jetstream.KeyValue, error) { return kv, nil }, id)
		if err != nil {
			continue // not a job's record
		}
		l, err := jobLine(ctx, rs, info)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	slices.SortFunc(out, func(a, b queue.JobLine) int { return a.Submitted.Compare(b.Submitted) })
	return out, nil
}

func jobLine(ctx context.Context, rs jetstream.Stream, info *queue.JobInfo) (queue.JobLine, error) {
	l := queue.JobLine{JobInfo: *info}
	si, err := rs.Info(ctx, jetstream.WithSubjectFilter("nqcount.*."+info.ID+".>"))
	if err != nil {
		return l, err
	}
	counted := map[int]bool{}
	failed := map[int]bool{}
	for subj := range si.State.Subjects {
		parts := strings.Split(subj, ".")
		_, task, ok := ParseSubject(subj)
		if !ok || task < 0 || task >= info.Tasks {
			continue
		}
		switch parts[0] + "." + parts[1] {
		case ResultPrefix:
			counted[task] = true
		case VerifiedPrefix:
			l.Verified++
		case FailPrefix:
			failed[task] = true
		}
	}
	l.Counted = len(counted)
	for t := range failed {
		if !counted[t] {
			l.Failed++
		}
	}
	if info.Verify > 0 {
		for _, v := range info.Chosen() {
			if v {
				l.Chosen++
			}
		}
	}
	switch {
	case info.Cancelled != nil:
		l.State = "cancelled"
	case l.Counted == info.Tasks && l.Verified >= l.Chosen:
		l.State = "done"
	case l.Failed > 0:
		l.State = "failing"
	case l.Counted > 0:
		l.State = "running"
	default:
		l.State = "queued"
	}
	return l, nil
}

// ServerNow returns the server's clock now (the workers bucket's info
// says when it was made): a worker's liveness is the age of its last
// report by the server's clock, never by the latest report's.
func ServerNow(ctx context.Context, js jetstream.JetStream) (time.Time, error) {
	st, err := js.Stream(ctx, "KV_"+queue.WorkersBucket)
	if err != nil {
		return time.Time{}, err
	}
	if t := st.CachedInfo().TimeStamp; !t.IsZero() {
		return t, nil
	}
	return time.Now(), nil
}

// ParseSubject splits prefix.JOB.ID.
func ParseSubject(s string) (jobID string, task int, ok bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return "", 0, false
	}
	task, err := strconv.Atoi(parts[3])
	return parts[2], task, err == nil
}

// AnyWorker addresses a verify task to any worker but its counter.
const AnyWorker = "any"

// VerifySubject is nqcount.verify.JOB.ID.FROM.TO: task of job jobID,
// counted by the worker with token from, for the worker with token to
// (or AnyWorker).
func VerifySubject(jobID string, task int, from, to string) string {
	return fmt.Sprintf("%s.%s.%d.%s.%s", VerifyPrefix, jobID, task, from, to)
}

// ParseVerifySubject splits nqcount.verify.JOB.ID.FROM.TO.
func ParseVerifySubject(s string) (jobID string, task int, from, to string, ok bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 6 || parts[0]+"."+parts[1] != VerifyPrefix {
		return "", 0, "", "", false
	}
	task, err := strconv.Atoi(parts[3])
	return parts[2], task, parts[4], parts[5], err == nil && task >= 0
}

// AlreadyThere reports whether a publish was refused because its subject
// already holds a message: a task published before.
func AlreadyThere(err error) bool {
	var e jetstream.JetStreamError
	if errors.As(err, &e) && e.APIError() != nil {
		switch e.APIError().ErrorCode {
		case jetstream.JSErrCodeStreamWrongLastSequence, jetstream.JSErrCodeStreamWrongLastSequenceConstant:
			return true
		}
	}
	return err != nil && strings.Contains(err.Error(), "maximum messages per subject exceeded")
}

// LiveWorker is a live worker as its report says: its id and the memory
// its counts may take (0: not said, by an older worker).
type LiveWorker struct {
	ID     string
	Memory uint64
}

// CanCount reports whether the worker can count a task of job p: one at a
// time in its memory.
func (l LiveWorker) CanCount(p *queue.Plan) bool {
	if p == nil || l.Memory == 0 {
		return true
	}
	_, err := p.Queens.Fit(queens.Execution{Workers: 1, Memory: l.Memory})
	return err == nil
}
