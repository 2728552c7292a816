// Package queue counts n-queens jobs on a dynamic work queue: NATS
// JetStream (an embedded server, or any existing NATS deployment) hands
// the tasks of a job to workers that may come, go and die, keeps every
// result with a checksum, and gives the exact total once every task has
// one.
//
// The pieces (each front end, the nqueens command or a test, calls the
// same ones):
//
//   - Serve starts an embedded nats-server with JetStream file storage,
//     on loopback unless a token or TLS client certificates protect it,
//     alone or as one of a JetStream cluster (ServerConfig.ClusterListen,
//     Routes) that keeps every stream and bucket on three servers
//     (Settings.Replicas) and goes on when one is lost; with
//     ServerConfig.Metrics it serves the queue's metrics
//     (Client.MetricsHandler).
//   - Connect reaches a server (several URLs: it fails over between
//     them); Client.Setup creates the streams, buckets and consumers if
//     they are absent, and every client that needs them calls it.
//   - Client.Submit publishes the tasks of a plan as a job named by
//     job.Plan.ID: submitting the same plan again adds no work.
//   - Client.Work counts the tasks it is handed with this machine's
//     kernels, publishes each result, then acknowledges the task.
//   - Client.Status, Client.Wait and Client.Export read the results back,
//     check them and assemble the total (job.Assemble).
//   - Client.Jobs lists the jobs, Client.Cancel takes one off the queue
//     (its workers stop counting it), Client.Requeue puts back its
//     set-aside tasks or resumes it.
//
// A worker's parts, each with one job, are described in worker.go.
//
// # Tasks and units
//
// A job's task is a unit: a run of the plan's tasks, largest first, cut
// by their estimates (Plan, NewPlan). A message, a count and a record each
// cost round trips to the server, so a job whose tasks take a millisecond
// each (n = 17) would spend much of its time on the queue; units carry
// a tenth of a second of work or more, 37 of them at n = 17 by default
// (DefaultUnits), shrinking towards the end of the job so that no worker
// is left counting a large unit while the others wait. The grouping is
// part of the job's id (-uUNITS) and record (JobInfo.Units), so every
// reader cuts the same units. A unit's message lists its tasks, so a
// worker counts them without cutting the units (which needs the plan's
// estimates); its record names the tasks it counted (Record.Tasks) and
// readers refuse a record whose tasks are not its unit's. A job submitted
// with one task per unit has the plan's own task ids.
//
// # Streams, subjects and consumers
//
// Stream NQCOUNT_TASKS holds the tasks, one message per subject:
//
//	nqcount.task.JOB.ID     count task (unit) ID of job JOB
//	nqcount.verify.JOB.ID   count it again, on another worker (--verify)
//
// It keeps its messages after they are acknowledged (limits retention)
// and holds one message per subject: each publish expects the subject to
// be empty, so publishing a task twice, from a second submit or a worker
// that died between two steps, adds nothing, however much later. A
// worker handed a task it cannot count (its job does not fit in the
// worker's memory) passes it on without spending a delivery: it
// publishes the task afresh in its place, expecting the message it holds
// there, and the new message replaces it at the end of the queue. Tasks
// are published largest first (Plan.Order), as nqueens count orders
// them, so that a job does not end waiting on one big task.
//
// Workers report the memory their counts may take (Seen.Memory): verify
// tasks and recounts are addressed only to workers that can count them,
// and status counts a verification as stalled when no such worker is
// active. A worker whose counts keep failing (failLimit in a row), or
// that is outvoted on a task, sets itself aside (ErrSetAside) and its
// last report says why.
//
// Two durable pull consumers with explicit acknowledgement hand them out:
// "workers" (nqcount.task.>) and "verifiers" (nqcount.verify.>). A worker
// holding a task tells the server it is still on it (InProgress) every
// third of the acknowledgement wait, so tasks of any length are held as
// long as their worker lives; a worker that dies stops doing so and its
// tasks go to others after the wait. Redelivery is bounded (MaxDeliver)
// and backs off (BackOff doubles the wait each time); a task whose count
// fails is retried later (NakWithDelay), and at the last delivery it is
// set aside (Term) with its error recorded, for Status to show. A task
// whose worker died on every delivery is reported by the server's
// max-deliveries advisory, kept in stream NQCOUNT_EVENTS.
//
// Stream NQCOUNT_RESULTS keeps every record, never overwritten:
//
//	nqcount.result.JOB.ID   a Record of a count
//	nqcount.verified.JOB.ID a Record of a second count (verification)
//	nqcount.fail.JOB.ID     a Failure: a count that failed, and why
//
// Key-value bucket nqcount-jobs holds each job's JobInfo (what to count,
// and whether it was cancelled: workers watch it), and nqcount-workers each
// worker's last report (Seen), which expires when the worker stops
// reporting. A cancelled job's task messages are purged; Requeue
// publishes them again, and a Failure record marked Requeued on
// nqcount.fail.JOB.ID ends a task's failures before it.
//
// # Trust
//
// A Record carries the plan's hash, the algorithm version, the task, its
// count and nodes, the worker and program that counted it, and a SHA-256
// checksum of these (Record.Sum). The reader accepts a record only if its
// checksum holds and it belongs to the job's plan and to this program's
// algorithm version; others are refused and listed, and every text field a
// worker wrote is checked and escaped (fields.go). With verification, a
// chosen share of the tasks is counted a second time by another worker. A
// task with different accepted results is a conflict, settled by quorum
// (quorum.go): a third worker recounts it, the result a majority of at
// least two workers agree on stands, and the outvoted workers are
// distrusted for the job (JobInfo.Distrusted) and their other results
// counted again. Until then Status reports the conflict and no total is
// given.
//
// # Outages
//
// Clients retry what says the queue cannot answer now (Transient) within
// their deadline (outage.go); servers watch their cluster and say when a
// route or the quorum is lost or back, and start JetStream again after
// their store filled and space came back (health.go).
package queue

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
)

// Names of the JetStream objects the queue uses.
const (
	TasksStream   = "NQCOUNT_TASKS"
	ResultsStream = "NQCOUNT_RESULTS"
	EventsStream  = "NQCOUNT_EVENTS"
	JobsBucket    = "nqcount-jobs"
	WorkersBucket = "nqcount-workers"
	WorkConsumer  = "workers"
)

// Subject prefixes; a subject is prefix.JOB.ID.
const (
	taskPrefix     = "nqcount.task"
	verifyPrefix   = "nqcount.verify"
	resultPrefix   = "nqcount.result"
	verifiedPrefix = "nqcount.verified"
	failPrefix     = "nqcount.fail"
)

// DefaultURL is the server address when none is given: an embedded server
// started by Serve with its defaults.
const DefaultURL = "nats://127.0.0.1:4222"

// Settings tune the consumers that hand out tasks.
type Settings struct {
	// AckWait is how long a task stays with a worker that has stopped
	// reporting (a dead worker) before it goes to another; workers
	// report three times per AckWait. 0 means 30 s.
	AckWait time.Duration
	// MaxDeliver bounds the deliveries of a task: a task whose count
	// failed that often is set aside. 0 means 5.
	MaxDeliver int
	// Replicas is the number of servers of a cluster that keep each
	// stream and bucket: 0 means 3 in a cluster (a server can be lost
	// and the queue goes on), 1 for a server alone.
	Replicas int
}

// replicas returns the replicas to create streams with.
func (s Settings) replicas(clustered bool) int {
	switch {
	case s.Replicas > 0:
		return s.Replicas
	case clustered:
		return 3
	}
	return 1
}

func (s Settings) withDefaults() Settings {
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
func (s Settings) backOff() []time.Duration {
	var b []time.Duration
	for i := 0; i < s.MaxDeliver && i < 4; i++ {
		b = append(b, s.AckWait<<i)
	}
	return b
}

// retryDelay is the wait before a failed task is handed out again, after
// its delivery-th failure.
func retryDelay(delivery uint64) time.Duration {
	d := time.Second << min(delivery, 6)
	return min(d, time.Minute)
}

// Auth holds what a client shows the server.
type Auth struct {
	// Token is the server's token (nqueens serve --token), if any; with
	// User, the token of that role (a server with roles: OperatorUser or
	// WorkerUser).
	Token string
	User  string
	// Creds is the contents of a NATS credentials file (a user JWT and
	// its key), for an existing NATS deployment.
	Creds []byte
	// CA is PEM: the authorities that sign the server's certificate;
	// Cert and Key are the client's certificate and its key (PEM), for a
	// server that checks them. Like Creds they are the files' contents,
	// not their names: the caller reads them (in bounded memory, see
	// MaxPEMSize and MaxCredsSize).
	CA, Cert, Key []byte
}

// ConnectOptions tune Connect.
type ConnectOptions struct {
	Auth
	// Name names the connection in the server's monitoring.
	Name string
	// Retry keeps trying while the server is unreachable (a worker started
	// before its server) until ctx is done; without it Connect fails at
	// once. A refused token or credentials is never retried.
	Retry bool
	// Logf, if set, reports disconnections and retries.
	Logf func(format string, args ...any)
	// Timeout is how long the server may take to answer the connection
	// and each request before it is an error; 0 means DefaultTimeout.
	Timeout time.Duration
	// RetryFor bounds Retry: after this long without reaching any
	// server, Connect gives up (0: it tries until ctx is done).
	RetryFor time.Duration
	// Patience is the longest outage Wait waits through (servers
	// unreachable, a cluster without quorum) before it gives up with
	// ErrNoAnswer; 0 means until its context is done. The other
	// operations retry until their context's deadline.
	Patience time.Duration
}

// DefaultTimeout is how long a client waits for the server to answer by
// default. The NATS clients' own defaults (2 s to connect, 5 s a request)
// are for an idle machine: on a loaded one a server can stall for longer
// (descheduled, or waiting for its disk), and a status that fails then
// says nothing true about the job.
const DefaultTimeout = 30 * time.Second

// Client is a connection to a queue's server.
type Client struct {
	nc       *nats.Conn
	js       jetstream.JetStream
	logf     func(string, ...any)
	patience time.Duration // ConnectOptions.Patience
	user     string        // Auth.User: the role, on a server with roles
	// submitted keeps the jobs this client submitted (job id to
	// *submittedJob): a Wait for one of them reads its results with the
	// record and the plan it has, units and estimates included.
	submitted sync.Map
	// jobs is the jobs bucket, once found (each lookup is a request).
	jobsMu sync.Mutex
	jobs   jetstream.KeyValue
	// denied holds the last permission the server refused this client.
	denied *denials
}

// denials keeps the last permission violation the server reported to a
// client (asynchronously, on its connection), and when.
type denials struct {
	mu  sync.Mutex
	err error
	at  time.Time
	ch  chan struct{} // signalled at each refusal (1 buffered)
}

func (d *denials) note(err error) {
	if d == nil || !errors.Is(err, nats.ErrPermissionViolation) {
		return
	}
	d.mu.Lock()
	d.err, d.at = err, time.Now()
	d.mu.Unlock()
	select {
	case d.ch <- struct{}{}:
	default:
	}
}

// signal returns the channel signalled at each refusal (nil: never).
func (d *denials) signal() <-chan struct{} {
	if d == nil {
		return nil
	}
	return d.ch
}

// since returns the last refusal at or after t, or nil.
func (d *denials) since(t time.Time) error {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil && !d.at.Before(t) {
		return d.err
	}
	return nil
}

// submittedJob is a job this client submitted.
type submittedJob struct {
	info JobInfo
	plan *Plan
}

// jobsBucket returns the jobs bucket.
func (c *Client) jobsBucket(ctx context.Context) (jetstream.KeyValue, error) {
	c.jobsMu.Lock()
	defer c.jobsMu.Unlock()
	if c.jobs != nil {
		return c.jobs, nil
	}
	kv, err := c.js.KeyValue(ctx, JobsBucket)
	if err == nil {
		c.jobs = kv
	}
	return kv, err
}

// ErrAuth is wrapped by Connect's error when the server refuses the token
// or credentials.
var ErrAuth = errors.New("the server refused the credentials")

// ErrUnreachable is wrapped by the errors of Connect and Work when no
// server could be reached for the time they were given.
var ErrUnreachable = errors.New("no server reachable")

// CheckURL reports why s is not a server address Connect takes, or nil:
// one or more URLs separated by commas, each nats://, tls://, ws:// or
// wss:// (or no scheme, meaning nats://) followed by a host name or IP
// address and an optional port. A flag taken for the URL (--server
// followed by another flag) is refused here rather than looked up as a
// host name for ever.
func CheckURL(s string) error {
	if s == "" {
		return errors.New("no server URL: give --server nats://HOST:PORT (nqueens serve prints it)")
	}
	if strings.HasPrefix(s, "-") {
		return fmt.Errorf("server URL %q looks like a flag: give --server nats://HOST:PORT", s)
	}
	for u := range strings.SplitSeq(s, ",") {
		u = strings.TrimSpace(u)
		rest := u
		if scheme, after, ok := strings.Cut(u, "://"); ok {
			switch strings.ToLower(scheme) {
			case "nats", "tls", "ws", "wss":
			default:
				return fmt.Errorf("server URL %q: the scheme is nats://, tls://, ws:// or wss://", redact(u))
			}
			rest = after
		}
		if _, after, ok := strings.Cut(rest, "@"); ok {
			rest = after // user:password@ or token@
		}
		rest, _, _ = strings.Cut(rest, "/")
		host, port := rest, ""
		if h, p, err := net.SplitHostPort(rest); err == nil {
			host, port = h, p
		}
		if n, err := strconv.Atoi(port); port != "" && (err != nil || n < 1 || n > 65535) {
			return fmt.Errorf("server URL %q: port %q is not a number from 1 to 65535", redact(u), port)
		}
		if net.ParseIP(strings.Trim(host, "[]")) == nil && !hostPattern.MatchString(host) {
			return fmt.Errorf("server URL %q: %q is not a host name or IP address", redact(u), host)
		}
	}
	return nil
}

// hostPattern is a DNS name: labels of letters, digits and inner dashes.
var hostPattern = regexp.MustCompile(`^[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$`)

// Connect connects to the server at url (nats://host:port; several
// separated by commas; see CheckURL).
func Connect(ctx context.Context, url string, opt ConnectOptions) (*Client, error) {
	if err := CheckURL(url); err != nil {
		return nil, err
	}
	logf := opt.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	timeout := opt.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	denied := &denials{ch: make(chan struct{}, 1)}
	opts := []nats.Option{
		nats.Name(opt.Name),
		nats.Timeout(timeout),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(500 * time.Millisecond),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				logf("disconnected from the server: %v (reconnecting)", err)
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) { logf("reconnected to %s", nc.ConnectedUrlRedacted()) }),
		// The server's complaints (a permission refused) go to the log,
		// not raw to stderr.
		nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
			logf("the server says: %v", err)
			denied.note(err)
		}),
	}
	auth, err := opt.Auth.options()
	if err != nil {
		return nil, err
	}
	opts = append(opts, auth...)
	began := time.Now()
	var lastTold time.Time
	for wait := 250 * time.Millisecond; ; wait = min(2*wait, 5*time.Second) {
		nc, err := nats.Connect(url, opts...)
		if err == nil {
			js, err := jetstream.New(nc, jetstream.WithDefaultTimeout(timeout))
			if err != nil {
				nc.Close()
				return nil, err
			}
			return &Client{nc: nc, js: js, logf: logf, patience: opt.Patience, user: opt.User, denied: denied}, nil
		}
		if errors.Is(err, nats.ErrAuthorization) || strings.Contains(strings.ToLower(err.Error()), "authorization") {
			return nil, fmt.Errorf("%s: %w (wrong or missing token or credentials): %v", redact(url), ErrAuth, err)
		}
		if !opt.Retry {
			return nil, fmt.Errorf("%s: %v", redact(url), err)
		}
		if opt.RetryFor > 0 && time.Since(began)+wait > opt.RetryFor {
			return nil, fmt.Errorf("%s: %w for %v: %v", redact(url), ErrUnreachable, opt.RetryFor, err)
		}
		// Said once, then once a minute: a retry is not news.
		if lastTold.IsZero() || time.Since(lastTold) >= time.Minute {
			logf("cannot reach %s: %v; trying again%s", redact(url), err, retryText(opt.RetryFor, began))
			lastTold = time.Now()
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// retryText says how long Connect goes on trying.
func retryText(retryFor time.Duration, began time.Time) string {
	if retryFor > 0 {
		return fmt.Sprintf(" for up to %v", (retryFor - time.Since(began)).Round(time.Second))
	}
	return " until it answers"
}

// Check reports what in a cannot be shown to a server, or nil: a token
// CheckTokenText refuses, credentials or certificates that do not parse.
// Connect checks the same; its messages name the flags of nqueens's queue
// commands.
func (a Auth) Check() error {
	_, err := a.options()
	return err
}

// options checks a and returns the NATS options that show it.
func (a Auth) options() ([]nats.Option, error) {
	var opts []nats.Option
	if a.Token != "" {
		if err := CheckTokenText(a.Token); err != nil {
			return nil, err
		}
		if a.User != "" {
			opts = append(opts, nats.UserInfo(a.User, a.Token))
		} else {
			opts = append(opts, nats.Token(a.Token))
		}
	}
	if a.Creds != nil {
		// Parsed here, so that a file that is not one is refused before
		// the server is asked (nats.go reads them when it connects).
		kp, err := nkeys.ParseDecoratedNKey(a.Creds)
		if err != nil {
			return nil, fmt.Errorf("--creds: not a NATS credentials file (a user JWT and its seed): %v", err)
		}
		kp.Wipe()
		jwt, err := nkeys.ParseDecoratedJWT(a.Creds)
		if err != nil || strings.ContainsFunc(jwt, unicode.IsSpace) {
			return nil, errors.New("--creds: not a NATS credentials file: no user JWT in it")
		}
		opts = append(opts, nats.UserCredentialBytes(a.Creds))
	}
	if a.Cert != nil || a.Key != nil || a.CA != nil {
		var certCB nats.TLSCertHandler
		var rootCB nats.RootCAsHandler
		if a.Cert != nil || a.Key != nil {
			cert, err := keyPair(a.Cert, a.Key)
			if err != nil {
				return nil, fmt.Errorf("--tls-cert, --tls-key: %w", err)
			}
			certCB = func() (tls.Certificate, error) { return cert, nil }
		}
		if a.CA != nil {
			pool, err := certPool(a.CA)
			if err != nil {
				return nil, fmt.Errorf("--tls-ca: %w", err)
			}
			rootCB = func() (*x509.CertPool, error) { return pool, nil }
		}
		opts = append(opts, nats.ClientTLSConfig(certCB, rootCB))
	}
	return opts, nil
}

// redact hides a token or password given in a URL.
func redact(url string) string {
	before, after, ok := strings.Cut(url, "://")
	if !ok {
		return url
	}
	if at := strings.LastIndex(after, "@"); at >= 0 {
		after = "[REDACTED]@" + after[at+1:]
	}
	return before + "://" + after
}

// Close closes the connection, after sending what is buffered.
func (c *Client) Close() {
	if c != nil && c.nc != nil && !c.nc.IsClosed() {
		c.nc.Drain()
		c.nc.Close()
	}
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
func (c *Client) Setup(ctx context.Context, s Settings, update bool) error {
	if s.Replicas == 0 && c.nc.ConnectedClusterName() != "" {
		// A client of a cluster: three replicas, or as many servers as
		// it knows if fewer.
		s.Replicas = min(3, max(len(c.nc.Servers()), 1))
	}
	return c.setupRetry(ctx, s, update, nil)
}

// setupRetry is Setup, tried again while JetStream is not ready (a
// cluster without a leader yet, a server starting); waiting, if set, is
// told the first time.
func (c *Client) setupRetry(ctx context.Context, s Settings, update bool, waiting func(error)) error {
	told := false
	for wait := 100 * time.Millisecond; ; wait = min(2*wait, 2*time.Second) {
		err := c.setup(ctx, s, update)
		if err == nil || !notReady(err) || ctx.Err() != nil {
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

// notReady reports whether err says that JetStream cannot answer yet
// (a cluster electing its leaders, a server starting) rather than that
// something is wrong.
func notReady(err error) bool {
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

func (c *Client) setup(ctx context.Context, s Settings, update bool) error {
	s = s.withDefaults()
	r := s.replicas(false)
	// Each step is bounded: a request lost in a cluster's election would
	// otherwise hold it for the client's whole timeout.
	step := func() (context.Context, context.CancelFunc) { return context.WithTimeout(ctx, 10*time.Second) }
	streams := []jetstream.StreamConfig{{
		Name:              TasksStream,
		Description:       "n-queens tasks to count, one message per subject",
		Subjects:          []string{taskPrefix + ".>", verifyPrefix + ".>"},
		Storage:           jetstream.FileStorage,
		Retention:         jetstream.LimitsPolicy,
		MaxMsgsPerSubject: 1,
		Discard:           jetstream.DiscardNew,
		MaxMsgs:           -1,
		MaxBytes:          -1,
		Replicas:          r,
	}, {
		Name:        ResultsStream,
		Description: "n-queens task results and failures, every record kept",
		Subjects:    []string{resultPrefix + ".>", verifiedPrefix + ".>", failPrefix + ".>"},
		Storage:     jetstream.FileStorage,
		Retention:   jetstream.LimitsPolicy,
		Duplicates:  5 * time.Minute,
		MaxMsgs:     -1,
		MaxBytes:    -1,
		Replicas:    r,
	}, {
		Name:        EventsStream,
		Description: "advisories: tasks delivered the most times without an acknowledgement",
		Subjects:    []string{"$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + TasksStream + ".*"},
		Storage:     jetstream.FileStorage,
		MaxMsgs:     100000,
		Discard:     jetstream.DiscardOld,
		Replicas:    r,
	}}
	for _, cfg := range streams {
		sctx, cancel := step()
		err := c.ensureStream(sctx, cfg, update)
		cancel()
		if err != nil {
			return err
		}
	}
	for _, kv := range []jetstream.KeyValueConfig{
		{Bucket: JobsBucket, Description: "n-queens jobs: what to count", Storage: jetstream.FileStorage, Replicas: r},
		{Bucket: WorkersBucket, Description: "n-queens workers' last reports", Storage: jetstream.MemoryStorage, TTL: workerTTL, Replicas: r},
	} {
		sctx, cancel := step()
		_, err := c.js.KeyValue(sctx, kv.Bucket)
		if errors.Is(err, jetstream.ErrBucketNotFound) {
			if _, err = c.js.CreateKeyValue(sctx, kv); errors.Is(err, jetstream.ErrBucketExists) {
				err = nil
			}
		} else if err == nil && update {
			err = c.raiseReplicas(sctx, "KV_"+kv.Bucket, r)
		}
		cancel()
		if err != nil {
			return fmt.Errorf("bucket %s: %w", kv.Bucket, err)
		}
	}
	cc := jetstream.ConsumerConfig{
		Durable: WorkConsumer, Description: "n-queens workers", FilterSubject: taskPrefix + ".>",
		AckPolicy: jetstream.AckExplicitPolicy, DeliverPolicy: jetstream.DeliverAllPolicy,
		AckWait: s.AckWait, MaxDeliver: s.MaxDeliver, BackOff: s.backOff(), MaxAckPending: 100000,
	}
	sctx, cancel := step()
	defer cancel()
	_, err := c.js.Consumer(sctx, TasksStream, cc.Durable)
	switch {
	case errors.Is(err, jetstream.ErrConsumerNotFound):
		_, err = c.js.CreateConsumer(sctx, TasksStream, cc)
	case err == nil && update:
		_, err = c.js.UpdateConsumer(sctx, TasksStream, cc)
	}
	if err != nil {
		return fmt.Errorf("consumer %s: %w", cc.Durable, err)
	}
	return nil
}

// ensureStream creates the stream cfg names if it is absent; with
// update, it raises the replicas of one that has fewer.
func (c *Client) ensureStream(ctx context.Context, cfg jetstream.StreamConfig, update bool) error {
	_, err := c.js.Stream(ctx, cfg.Name)
	switch {
	case errors.Is(err, jetstream.ErrStreamNotFound):
		if _, err := c.js.CreateStream(ctx, cfg); err != nil && !errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			return fmt.Errorf("creating stream %s: %w", cfg.Name, err)
		}
	case err != nil:
		return fmt.Errorf("stream %s: %w", cfg.Name, err)
	case update:
		if err := c.raiseReplicas(ctx, cfg.Name, cfg.Replicas); err != nil {
			return fmt.Errorf("stream %s: %w", cfg.Name, err)
		}
		// A tasks stream set up by an older version refused a new
		// message on a subject outright; now each publish says what it
		// expects there (nothing, or the message it replaces: a task
		// passed on by a worker that cannot count it).
		st, err := c.js.Stream(ctx, cfg.Name)
		if err != nil {
			return fmt.Errorf("stream %s: %w", cfg.Name, err)
		}
		if old := st.CachedInfo().Config; old.DiscardNewPerSubject && !cfg.DiscardNewPerSubject {
			old.DiscardNewPerSubject = false
			if _, err := c.js.UpdateStream(ctx, old); err != nil {
				return fmt.Errorf("stream %s: %w", cfg.Name, err)
			}
		}
	}
	return nil
}

// raiseReplicas makes a stream kept by r servers if it has fewer (a
// queue that started on one server, joined by others).
func (c *Client) raiseReplicas(ctx context.Context, name string, r int) error {
	st, err := c.js.Stream(ctx, name)
	if err != nil {
		return err
	}
	cfg := st.CachedInfo().Config
	if cfg.Replicas >= r {
		return nil
	}
	cfg.Replicas = r
	_, err = c.js.UpdateStream(ctx, cfg)
	return err
}

// jobIDPattern is what job.Plan.ID makes: a word of letters, digits and
// dashes, safe as a subject token and a key.
var jobIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]{0,127}$`)

// CheckJobID reports whether id can name a job.
func CheckJobID(id string) error {
	if !jobIDPattern.MatchString(id) {
		return fmt.Errorf("job %q: a job id is a word of letters, digits and dashes, as nqueens submit prints it", id)
	}
	return nil
}

func subject(prefix, jobID string, task int) string {
	return fmt.Sprintf("%s.%s.%d", prefix, jobID, task)
}

// connectInProcess connects to an embedded server without a socket.
func connectInProcess(ns nats.InProcessConnProvider, a Auth) (*Client, error) {
	opts := []nats.Option{nats.InProcessServer(ns), nats.Name("nqcount-serve")}
	switch {
	case a.User != "":
		opts = append(opts, nats.UserInfo(a.User, a.Token))
	case a.Token != "":
		opts = append(opts, nats.Token(a.Token))
	}
	nc, err := nats.Connect("", opts...)
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	return &Client{nc: nc, js: js, logf: func(string, ...any) {}}, nil
}
