// Package server runs the queue's server: an embedded nats-server with
// JetStream file storage (Serve), alone or as one of a cluster, with TLS,
// roles (the operator's, the workers' and the routes' credentials, see
// roles.go), its health watched (health.go), NATS monitoring and the
// queue's metrics in the Prometheus text format (Config.Metrics). It is
// the only part of the queue that links nats-server; clients and workers
// are packages client's and worker's, what they share package queue's.
package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
)

// Config configures Serve.
type Config struct {
	// Listen is host:port for clients; "" means 127.0.0.1:4222. Port 0
	// picks a free port (see Server.URL).
	Listen string
	// DataDir holds JetStream's files: the tasks, the results and the
	// consumers' state. A server restarted on the same folder goes on
	// where it stopped. One server at a time may use a folder: Serve
	// locks it.
	DataDir string
	// Token, if not empty, must be shown by every client, and by every
	// other server of a cluster on its routes. It has MinTokenLength to
	// MaxTokenLength printable ASCII characters (see CheckToken).
	Token string
	// TLSCert and TLSKey, if set, are the PEM contents of a certificate
	// and its key, and make the server speak TLS, to clients and on its
	// routes; TLSClientCA (PEM: one or more certificates of authorities)
	// further makes it accept only clients and servers with a
	// certificate signed by one of them. They are the files' contents,
	// not their names: the caller reads them (in bounded memory, see
	// MaxPEMSize).
	TLSCert, TLSKey, TLSClientCA []byte

	// WorkerToken, if set, gives the server roles (see roles.go): Token
	// is then the operator's, WorkerToken the workers', who may take
	// tasks and store results but not cancel or requeue jobs; clients
	// show a role with Auth.User. RouteToken, if set, is the routes'
	// password instead of Token: a worker's token never opens a route.
	WorkerToken string
	RouteToken  string

	// Name names this server among the servers of a cluster: unique, and
	// the same each time it is started on its folder. "" means "nqcount"
	// alone, and HOST-PORT (this machine's name and the cluster port) in
	// a cluster.
	Name string
	// ClusterListen, if set, is the host:port other servers of a cluster
	// connect to (their Routes name it); it makes this server one of a
	// JetStream cluster, whose queue is replicated on Replicas servers.
	// Beyond loopback it needs a token or TLS client certificates, as
	// Listen does.
	ClusterListen string
	// Routes are the cluster addresses (host:port, or nats://host:port)
	// of the other servers; this server's own may be among them, so that
	// every server can be given the same list.
	Routes []string
	// ClusterName names the cluster; "" means "nqcount".
	ClusterName string
	// HTTP, if set, is the loopback host:port of the NATS monitoring
	// endpoint (/varz, /jsz, /healthz ...), which has no authentication.
	HTTP string
	// Metrics, if set, is the host:port of an HTTP endpoint with the
	// queue's metrics in the Prometheus text format, at /metrics (see
	// metrics.go); beyond loopback it needs the token, which scrapers
	// show as a bearer token.
	Metrics string

	// Settings tune the consumers and the replicas; Serve applies them
	// to existing ones.
	Settings queue.Settings
	// Logf, if set, receives the server's notices and errors.
	Logf func(format string, args ...any)
	// Events, if set, receives what an operator should always hear: a
	// route to another server lost or back, the cluster's quorum lost
	// or back, the store full or writing again.
	Events func(format string, args ...any)
}

// ErrExposed is wrapped by Serve's error when it would listen beyond this
// machine without a token or client certificates.
var ErrExposed = errors.New("refusing to listen beyond loopback without a token or TLS client certificates")

// ErrCluster32 refuses a cluster on a 32-bit build: nats-server's
// clustered JetStream reads 64-bit counters of its meta group unaligned
// there, and crashes.
var ErrCluster32 = errors.New("--cluster-listen: a cluster needs a 64-bit build of nqueens (nats-server's clustered JetStream crashes on 32-bit platforms); a single server works")

// ErrInUse is wrapped by Serve's error when its data folder is another
// running server's.
var ErrInUse = errors.New("the data folder is in use by another server")

// Server is an embedded NATS server with JetStream, set up for the queue.
type Server struct {
	ns   *server.Server
	url  string
	lock *os.File
	// setUp is closed once the queue's streams exist (at once for a
	// server alone; once the cluster has formed for one of a cluster),
	// with setupErr set if the server stopped first.
	setUp    chan struct{}
	setupErr error
	stop     context.CancelFunc
	done     sync.WaitGroup
	metrics  *metricsServer
	nc       *nats.Conn // the metrics' connection
	peers    *peerRelay // a cluster with roles: the removal of peers
	health   *health
	log      *logger
}

// CheckListen splits listen (host:port) and refuses a host other than a
// loopback address or "localhost" unless the server is protected: by a
// token, or by TLS with client certificates. ":4222" and "0.0.0.0:4222"
// listen on every interface, so they need protection too. It binds
// nothing.
func CheckListen(listen string, protected bool) (host string, port int, err error) {
	if listen == "" {
		listen = "127.0.0.1:4222"
	}
	return checkAddr("--listen", listen, protected)
}

// checkAddr is CheckListen for the address of any listener (flag names
// it in errors).
func checkAddr(flag, listen string, protected bool) (host string, port int, err error) {
	h, p, err := net.SplitHostPort(listen)
	if err != nil {
		return "", 0, fmt.Errorf("%s %q: want HOST:PORT (127.0.0.1:4222): %v", flag, listen, err)
	}
	port, err = strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("%s %q: port %q is not 0 to 65535", flag, listen, p)
	}
	if !isLoopback(h) && !protected {
		where := h
		if where == "" || where == "0.0.0.0" || where == "::" {
			where = "every interface"
		}
		return "", 0, fmt.Errorf("%w: %s %s would accept anyone who can reach %s; give --token (or --token-file), or TLS with client certificates, or listen on 127.0.0.1", ErrExposed, flag, listen, where)
	}
	return h, port, nil
}

func isLoopback(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// Serve starts an embedded NATS server with JetStream file storage in
// cfg.DataDir and sets up the queue's streams and consumers. It refuses,
// before binding anything, to listen beyond loopback unprotected
// (ErrExposed), a short token, a data folder another server holds
// (ErrInUse) and a port in use. A server of a cluster returns as soon
// as it listens: the queue is set up once enough servers have joined
// (Server.WaitSetup). A cancelled ctx stops a start that waits.
func Serve(ctx context.Context, cfg Config) (*Server, error) {
	opts, err := serverOptions(cfg)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data folder: %w", err)
	}
	lock, err := lockDir(cfg.DataDir)
	if err != nil {
		return nil, err
	}
	for _, l := range []struct {
		flag string
		host string
		port int
	}{{"--listen", opts.Host, opts.Port}, {"--cluster-listen", opts.Cluster.Host, opts.Cluster.Port}, {"--http", opts.HTTPHost, opts.HTTPPort}} {
		if err := portFree(l.flag, l.host, l.port); err != nil {
			lock.Close()
			return nil, err
		}
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		lock.Close()
		return nil, err
	}
	events := cfg.Events
	if events == nil {
		events = func(string, ...any) {}
	}
	h := &health{}
	log := &logger{logf: cfg.Logf, health: h, events: events}
	ns.SetLogger(log, false, false)
	ns.Start()
	s := &Server{ns: ns, url: ns.ClientURL(), lock: lock, setUp: make(chan struct{}), health: h, log: log}
	for !ns.ReadyForConnections(100 * time.Millisecond) {
		if f := log.fatal(); f != "" {
			s.Close()
			return nil, fmt.Errorf("the server did not start: %s", f)
		}
		if ctx.Err() != nil {
			s.Close()
			return nil, ctx.Err()
		}
	}
	s.url = ns.ClientURL()
	if cfg.Metrics != "" {
		user, token := operatorAuth(cfg)
		if s.nc, _, err = layout.ConnectInProcess(ns, user, token); err == nil {
			s.metrics, err = serveMetrics(s.nc, cfg.Metrics, cfg.Token, h.state)
		}
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("--metrics %s: %w", cfg.Metrics, err)
		}
	}
	for _, u := range opts.Users {
		if u.Username == sysUser {
			user, token := operatorAuth(cfg)
			if s.peers, err = startPeerRelay(ns, user, token, u.Password); err != nil {
				s.Close()
				return nil, fmt.Errorf("the removal of peers: %w", err)
			}
		}
	}
	setupCtx, stop := context.WithCancel(context.Background())
	s.stop = stop
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		h.watch(setupCtx, ns, opts, events)
	}()
	replicas := layout.Replicas(cfg.Settings, cfg.ClusterListen != "")
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		defer close(s.setUp)
		s.setupErr = s.setup(setupCtx, cfg, replicas, log)
	}()
	if cfg.ClusterListen == "" {
		if err := s.WaitSetup(ctx); err != nil {
			s.Close()
			return nil, fmt.Errorf("setting up the queue: %w", err)
		}
	}
	return s, nil
}

// setup creates the queue's streams through an in-process connection
// (the server trusts its own process, with or without TLS client
// certificates), waiting for a cluster to form.
func (s *Server) setup(ctx context.Context, cfg Config, replicas int, log *logger) error {
	user, token := operatorAuth(cfg)
	nc, js, err := layout.ConnectInProcess(s.ns, user, token)
	if err != nil {
		return err
	}
	defer nc.Close()
	set := cfg.Settings
	set.Replicas = replicas
	return layout.Setup(ctx, nc, js, set, true, func(err error) {
		log.Noticef("waiting for the cluster to set up the queue (%d replicas): %v", replicas, err)
	})
}

// WaitSetup waits until the queue's streams and buckets exist on the
// server (for a server of a cluster: once enough servers have joined it),
// or ctx is done.
func (s *Server) WaitSetup(ctx context.Context) error {
	select {
	case <-s.setUp:
		return s.setupErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// serverOptions checks cfg and turns it into the NATS server's options.
func serverOptions(cfg Config) (*server.Options, error) {
	verify := cfg.TLSClientCA != nil
	if verify && (cfg.TLSCert == nil || cfg.TLSKey == nil) {
		return nil, errors.New("TLS client certificates need the server's own certificate and key too (--tls-cert, --tls-key)")
	}
	if (cfg.TLSCert == nil) != (cfg.TLSKey == nil) {
		return nil, errors.New("TLS needs both a certificate and its key (--tls-cert, --tls-key)")
	}
	if err := queue.CheckToken(cfg.Token); err != nil {
		return nil, err
	}
	protected := cfg.Token != "" || verify
	host, port, err := CheckListen(cfg.Listen, protected)
	if err != nil {
		return nil, err
	}
	if cfg.DataDir == "" {
		return nil, errors.New("the server needs a data folder (--data DIR) to keep the queue in")
	}
	name := cfg.Name
	if name == "" {
		name = "nqcount"
	}
	var users []*server.User
	if cfg.WorkerToken != "" {
		var err error
		if users, err = roleUsers(cfg); err != nil {
			return nil, err
		}
	}
	if err := queue.CheckToken(cfg.RouteToken); err != nil {
		return nil, fmt.Errorf("the routes' token: %w", err)
	}
	opts := &server.Options{
		ServerName:    name,
		Host:          host,
		Port:          port,
		JetStream:     true,
		StoreDir:      cfg.DataDir,
		Authorization: cfg.Token,
		NoSigs:        true,
		MaxPayload:    1 << 20,
	}
	if users != nil {
		opts.Authorization, opts.Users = "", users
	}
	if port == 0 {
		opts.Port = server.RANDOM_PORT
	}
	opts.JetStreamMaxMemory = jetStreamMemory() // bounded by a container's limit too
	if cfg.HTTP != "" {
		// The monitoring endpoint only reads (/healthz, /varz, /jsz: never
		// the token); beyond loopback, for a kubelet's probes, it takes a
		// server protected by a token, like --metrics.
		h, p, err := checkAddr("--http", cfg.HTTP, cfg.Token != "")
		if err != nil {
			return nil, fmt.Errorf("%w (the NATS monitoring endpoint itself asks for no token: beyond loopback, keep it to the cluster's network)", err)
		}
		opts.HTTPHost, opts.HTTPPort = h, p
		if p == 0 {
			opts.HTTPPort = server.RANDOM_PORT
		}
	}
	if cfg.Metrics != "" {
		if _, _, err := checkAddr("--metrics", cfg.Metrics, cfg.Token != ""); err != nil {
			return nil, fmt.Errorf("%w (scrapers show the token as a bearer token)", err)
		}
	}
	var tc *tls.Config // the clients' and (a copy) the routes'
	if cfg.TLSCert != nil {
		var err error
		if tc, err = serverTLS(cfg); err != nil {
			return nil, err
		}
		opts.TLSConfig, opts.TLS, opts.TLSVerify, opts.TLSTimeout = tc, true, verify, 2
	}
	if cfg.ClusterListen == "" {
		if len(cfg.Routes) > 0 {
			return nil, errors.New("--routes goes with --cluster-listen: a server joins a cluster on its own cluster address")
		}
		return opts, nil
	}
	if strconv.IntSize == 32 {
		return nil, ErrCluster32
	}
	ch, cp, err := checkAddr("--cluster-listen", cfg.ClusterListen, protected)
	if err != nil {
		return nil, err
	}
	if cp == 0 {
		return nil, fmt.Errorf("--cluster-listen %s: give a fixed port: the other servers' --routes name it", cfg.ClusterListen)
	}
	if cfg.Name == "" {
		h, _ := os.Hostname()
		if h == "" {
			h = "nqcount"
		}
		opts.ServerName = fmt.Sprintf("%s-%d", h, cp)
	}
	opts.Cluster = server.ClusterOpts{Name: cfg.ClusterName, Host: ch, Port: cp}
	if opts.Cluster.Name == "" {
		opts.Cluster.Name = "nqcount"
	}
	routeToken := cfg.Token
	if cfg.RouteToken != "" {
		routeToken = cfg.RouteToken
	}
	if routeToken != "" {
		opts.Cluster.Username, opts.Cluster.Password = routeUser, routeToken
	}
	if tc != nil {
		// A route is a client of the other server too: it checks that
		// server's certificate against the authority given for clients
		// (a private one; the system's roots do not know it).
		rt := tc.Clone()
		if rt.ClientCAs != nil {
			rt.RootCAs = rt.ClientCAs
		}
		opts.Cluster.TLSConfig, opts.Cluster.TLSTimeout = rt, 2
	}
	if users != nil {
		sysUserFor(opts) // for the removal of peers
	}
	for _, r := range cfg.Routes {
		u, err := routeURL(r, routeToken)
		if err != nil {
			return nil, err
		}
		opts.Routes = append(opts.Routes, u)
	}
	return opts, nil
}

// serverTLS is the server's TLS configuration from cfg's PEM contents:
// what the NATS server's GenTLSConfig makes of files, from bytes.
func serverTLS(cfg Config) (*tls.Config, error) {
	cert, err := layout.KeyPair(cfg.TLSCert, cfg.TLSKey)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert, --tls-key: %w", err)
	}
	t := &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}
	if cfg.TLSClientCA != nil {
		pool, err := layout.CertPool(cfg.TLSClientCA)
		if err != nil {
			return nil, fmt.Errorf("--tls-client-ca: %w", err)
		}
		t.ClientAuth, t.ClientCAs = tls.RequireAndVerifyClientCert, pool
	}
	return t, nil
}

// routeUser is the user name of the routes between the servers of a
// cluster; the token is their password.
const routeUser = "nqcount"

// routeURL reads one of --routes: host:port or nats://host:port (also
// nats-route:// and tls://), with the token as the route's password.
func routeURL(r, token string) (*url.URL, error) {
	r = strings.TrimSpace(r)
	if !strings.Contains(r, "://") {
		r = "nats://" + r
	}
	u, err := url.Parse(r)
	if err != nil || u.Host == "" || u.Port() == "" {
		return nil, fmt.Errorf("--routes %q: want HOST:PORT, another server's --cluster-listen", layout.Redact(r))
	}
	switch u.Scheme {
	case "nats", "nats-route", "tls":
	default:
		return nil, fmt.Errorf("--routes %q: the scheme is nats:// (or none)", layout.Redact(r))
	}
	if token != "" && u.User == nil {
		u.User = url.UserPassword(routeUser, token)
	}
	return u, nil
}

// portFree reports a listener's port that is already taken, before the
// server tries it (the server's own error would come as a log line, and
// its start would wait for it).
func portFree(flag, host string, port int) error {
	if port <= 0 {
		return nil
	}
	l, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return fmt.Errorf("%s %s: %v (another server is there? choose another port, or stop it)", flag, net.JoinHostPort(host, strconv.Itoa(port)), err)
	}
	return l.Close()
}

// URL is the address clients connect to (nats://host:port).
func (s *Server) URL() string { return s.url }

// Name is the server's name (Config.Name, or the one made for it).
func (s *Server) Name() string { return s.ns.Name() }

// MonitorURL is the address of the NATS monitoring endpoint, "" without
// one.
func (s *Server) MonitorURL() string {
	if a := s.ns.MonitorAddr(); a != nil {
		return "http://" + a.String()
	}
	return ""
}

// MetricsURL is the address of the queue's metrics, "" without them.
func (s *Server) MetricsURL() string {
	if s.metrics != nil {
		return s.metrics.url
	}
	return ""
}

// ClusterAddr is the address other servers of the cluster route to, ""
// for a server alone.
func (s *Server) ClusterAddr() string {
	if a := s.ns.ClusterAddr(); a != nil {
		return a.String()
	}
	return ""
}

// Close shuts the server down, its files synced; the queue goes on from
// them when a server starts again on the same folder.
func (s *Server) Close() {
	if s.stop != nil {
		s.stop()
	}
	if s.metrics != nil {
		s.metrics.close()
	}
	if s.peers != nil {
		s.peers.close()
	}
	if s.nc != nil && !s.nc.IsClosed() {
		s.nc.Drain()
		s.nc.Close()
	}
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
	s.done.Wait()
	s.lock.Close()
}

// logger adapts the server's logger to a Logf, and keeps the last fatal
// error (a port it could not listen on), which Serve reports.
type logger struct {
	logf   func(string, ...any)
	health *health
	events func(string, ...any)
	mu     sync.Mutex
	last   string
}

func (l *logger) printf(format string, v ...any) {
	if l.logf != nil {
		l.logf(format, v...)
	}
}

func (l *logger) fatal() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last
}

func (l *logger) Noticef(format string, v ...any) { l.printf(format, v...) }
func (l *logger) Warnf(format string, v ...any)   { l.printf("warning: "+format, v...) }
func (l *logger) Fatalf(format string, v ...any) {
	l.mu.Lock()
	l.last = fmt.Sprintf(format, v...)
	l.mu.Unlock()
	l.printf("fatal: "+format, v...)
}
func (l *logger) Errorf(format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	if l.health != nil && outOfSpace(msg) {
		l.health.noteStore(msg, l.events)
	}
	l.printf("error: %s", msg)
}

// outOfSpace reports whether a server's error says that its store is
// full.
func outOfSpace(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "no space left") || strings.Contains(m, "out of") && strings.Contains(m, "resources") || strings.Contains(m, "insufficient storage")
}
func (l *logger) Debugf(string, ...any) {}
func (l *logger) Tracef(string, ...any) {}
