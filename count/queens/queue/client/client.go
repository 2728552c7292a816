// Package client is the queue's client: Connect reaches a server, and a
// Client submits jobs, reads them back (Status, Wait, Jobs, Export,
// Cluster), cancels and requeues them, and removes a server gone for good
// from a cluster (RemovePeer). It links no NATS server and no worker: a
// front end that only submits or reads needs no more (package server runs
// a server, package worker counts through a Client). The queue's streams,
// subjects, records and trust are described in package queue.
package client

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

	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
)

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
	info queue.JobInfo
	plan *queue.Plan
}

// jobsBucket returns the jobs bucket.
func (c *Client) jobsBucket(ctx context.Context) (jetstream.KeyValue, error) {
	c.jobsMu.Lock()
	defer c.jobsMu.Unlock()
	if c.jobs != nil {
		return c.jobs, nil
	}
	kv, err := c.js.KeyValue(ctx, queue.JobsBucket)
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
				return fmt.Errorf("server URL %q: the scheme is nats://, tls://, ws:// or wss://", layout.Redact(u))
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
			return fmt.Errorf("server URL %q: port %q is not a number from 1 to 65535", layout.Redact(u), port)
		}
		if net.ParseIP(strings.Trim(host, "[]")) == nil && !hostPattern.MatchString(host) {
			return fmt.Errorf("server URL %q: %q is not a host name or IP address", layout.Redact(u), host)
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
			return nil, fmt.Errorf("%s: %w (wrong or missing token or credentials): %v", layout.Redact(url), ErrAuth, err)
		}
		if !opt.Retry {
			return nil, fmt.Errorf("%s: %v", layout.Redact(url), err)
		}
		if opt.RetryFor > 0 && time.Since(began)+wait > opt.RetryFor {
			return nil, fmt.Errorf("%s: %w for %v: %v", layout.Redact(url), ErrUnreachable, opt.RetryFor, err)
		}
		// Said once, then once a minute: a retry is not news.
		if lastTold.IsZero() || time.Since(lastTold) >= time.Minute {
			logf("cannot reach %s: %v; trying again%s", layout.Redact(url), err, retryText(opt.RetryFor, began))
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
		if err := queue.CheckTokenText(a.Token); err != nil {
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
			cert, err := layout.KeyPair(a.Cert, a.Key)
			if err != nil {
				return nil, fmt.Errorf("--tls-cert, --tls-key: %w", err)
			}
			certCB = func() (tls.Certificate, error) { return cert, nil }
		}
		if a.CA != nil {
			pool, err := layout.CertPool(a.CA)
			if err != nil {
				return nil, fmt.Errorf("--tls-ca: %w", err)
			}
			rootCB = func() (*x509.CertPool, error) { return pool, nil }
		}
		opts = append(opts, nats.ClientTLSConfig(certCB, rootCB))
	}
	return opts, nil
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
func (c *Client) Setup(ctx context.Context, s queue.Settings, update bool) error {
	return layout.Setup(ctx, c.nc, c.js, s, update, nil)
}

// Close closes the connection, after sending what is buffered.
func (c *Client) Close() {
	if c != nil && c.nc != nil && !c.nc.IsClosed() {
		c.nc.Drain()
		c.nc.Close()
	}
}
