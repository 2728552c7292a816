package queue

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// ServerConfig configures Serve.
type ServerConfig struct {
	// Listen is host:port; "" means 127.0.0.1:4222. Port 0 picks a free
	// port (see Server.URL).
	Listen string
	// DataDir holds JetStream's files: the tasks, the results and the
	// consumers' state. A server restarted on the same folder goes on
	// where it stopped.
	DataDir string
	// Token, if not empty, must be shown by every client.
	Token string
	// TLSCert and TLSKey, if set, make the server speak TLS; TLSClientCA
	// further makes it accept only clients with a certificate signed by
	// that authority.
	TLSCert, TLSKey, TLSClientCA string
	// Settings tune the consumers; Serve applies them to existing ones.
	Settings Settings
	// Logf, if set, receives the server's notices and errors.
	Logf func(format string, args ...any)
}

// ErrExposed is wrapped by Serve's error when it would listen beyond this
// machine without a token or client certificates.
var ErrExposed = errors.New("refusing to listen beyond loopback without a token or TLS client certificates")

// Server is an embedded NATS server with JetStream, set up for the queue.
type Server struct {
	ns  *server.Server
	url string
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
	h, p, err := net.SplitHostPort(listen)
	if err != nil {
		return "", 0, fmt.Errorf("--listen %q: want HOST:PORT (127.0.0.1:4222): %v", listen, err)
	}
	port, err = strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("--listen %q: port %q is not 0 to 65535", listen, p)
	}
	loopback := h == "localhost"
	if ip := net.ParseIP(h); ip != nil && ip.IsLoopback() {
		loopback = true
	}
	if !loopback && !protected {
		where := h
		if where == "" || where == "0.0.0.0" || where == "::" {
			where = "every interface"
		}
		return "", 0, fmt.Errorf("%w: --listen %s would accept anyone who can reach %s; give --token (or --token-file), or TLS with client certificates, or listen on 127.0.0.1", ErrExposed, listen, where)
	}
	return h, port, nil
}

// Serve starts an embedded NATS server with JetStream file storage in
// cfg.DataDir and sets up the queue's streams and consumers. It refuses to
// listen beyond loopback unprotected (ErrExposed), before binding anything.
func Serve(cfg ServerConfig) (*Server, error) {
	verify := cfg.TLSClientCA != ""
	if verify && (cfg.TLSCert == "" || cfg.TLSKey == "") {
		return nil, errors.New("TLS client certificates need the server's own certificate and key too (--tls-cert, --tls-key)")
	}
	if (cfg.TLSCert == "") != (cfg.TLSKey == "") {
		return nil, errors.New("TLS needs both a certificate and its key (--tls-cert, --tls-key)")
	}
	host, port, err := CheckListen(cfg.Listen, cfg.Token != "" || verify)
	if err != nil {
		return nil, err
	}
	if cfg.DataDir == "" {
		return nil, errors.New("the server needs a data folder (--data DIR) to keep the queue in")
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data folder: %w", err)
	}
	opts := &server.Options{
		ServerName:    "nqcount",
		Host:          host,
		Port:          port,
		JetStream:     true,
		StoreDir:      cfg.DataDir,
		Authorization: cfg.Token,
		NoSigs:        true,
		MaxPayload:    1 << 20,
	}
	if port == 0 {
		opts.Port = server.RANDOM_PORT
	}
	if cfg.TLSCert != "" {
		tc, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: cfg.TLSCert, KeyFile: cfg.TLSKey, CaFile: cfg.TLSClientCA, Verify: verify})
		if err != nil {
			return nil, fmt.Errorf("TLS: %w", err)
		}
		opts.TLSConfig, opts.TLS, opts.TLSVerify, opts.TLSTimeout = tc, true, verify, 2
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, err
	}
	if cfg.Logf != nil {
		ns.SetLogger(logger{cfg.Logf}, false, false)
	}
	ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("the server did not start listening on %s within 30 s (port in use? see the messages above)", net.JoinHostPort(host, strconv.Itoa(port)))
	}
	s := &Server{ns: ns, url: ns.ClientURL()}
	// The setup goes through an in-process connection: the server
	// trusts its own process, with or without TLS client certificates.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := connectInProcess(ns, cfg.Token)
	if err == nil {
		err = c.Setup(ctx, cfg.Settings, true)
		c.Close()
	}
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("setting up the queue: %w", err)
	}
	return s, nil
}

// URL is the address clients connect to (nats://host:port).
func (s *Server) URL() string { return s.url }

// Close shuts the server down, its files synced; the queue goes on from
// them when a server starts again on the same folder.
func (s *Server) Close() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}

// logger adapts the server's logger to a Logf.
type logger struct{ logf func(string, ...any) }

func (l logger) Noticef(format string, v ...any) { l.logf(format, v...) }
func (l logger) Warnf(format string, v ...any)   { l.logf("warning: "+format, v...) }
func (l logger) Fatalf(format string, v ...any)  { l.logf("fatal: "+format, v...) }
func (l logger) Errorf(format string, v ...any)  { l.logf("error: "+format, v...) }
func (l logger) Debugf(string, ...any)           {}
func (l logger) Tracef(string, ...any)           {}
