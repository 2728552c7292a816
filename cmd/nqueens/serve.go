package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/server"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "serve", Summary: "run the work queue's server (embedded NATS JetStream), alone or one of a cluster", Run: runServe})
}

func runServe(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "serve", "--data DIR [flags]")
	var (
		cfg       server.Config
		tokenFile string
		tlsCert   string
		tlsKey    string
		tlsCA     string
		routes    string
		verbose   bool
	)
	fs.StringVar(&cfg.Listen, "listen", "127.0.0.1:4222", "`HOST:PORT` to listen on (port 0: any free port); beyond loopback it needs --token or TLS client certificates")
	fs.StringVar(&cfg.DataDir, "data", "", "`DIR` for the queue's files (tasks, results); a server restarted on it goes on where it stopped (one server per folder)")
	fs.StringVar(&cfg.Token, "token", "", fmt.Sprintf("token every client (and every other server of a cluster) must show: %d to %d printable ASCII characters, no spaces (default $NQCOUNT_TOKEN; --token-file keeps it out of the process list)", queue.MinTokenLength, queue.MaxTokenLength))
	fs.StringVar(&tokenFile, "token-file", "", "read the token from `FILE`")
	var workerTokenFile, routeTokenFile string
	fs.StringVar(&workerTokenFile, "worker-token-file", "", "give the server roles: workers show this token (from `FILE`) as user worker and may take tasks and store results, not cancel or requeue jobs; --token-file is then the operator's (user operator)")
	fs.StringVar(&routeTokenFile, "route-token-file", "", "the other servers of a cluster show this token (from `FILE`) on their routes instead of --token-file's")
	fs.StringVar(&tlsCert, "tls-cert", "", "serve TLS, to clients and on the routes, with this certificate `FILE` (PEM)")
	fs.StringVar(&tlsKey, "tls-key", "", "the certificate's key `FILE`")
	fs.StringVar(&tlsCA, "tls-client-ca", "", "accept only clients and servers whose certificate this authority (PEM `FILE`) signed")
	fs.StringVar(&cfg.Name, "name", "", "this server's `NAME` in a cluster: unique, and the same at every start on its folder (default: HOST-CLUSTERPORT)")
	fs.StringVar(&cfg.ClusterListen, "cluster-listen", "", "`HOST:PORT` the other servers of a cluster route to: makes this server one of a JetStream cluster (three or five servers) whose queue survives losing one")
	fs.StringVar(&routes, "routes", "", "the other servers' --cluster-listen addresses, `HOST:PORT,...` (this server's own may be among them)")
	fs.StringVar(&cfg.ClusterName, "cluster-name", "nqcount", "the cluster's `NAME`, the same on every server")
	fs.IntVar(&cfg.Settings.Replicas, "replicas", 0, "servers that keep each stream (0: 3 in a cluster, 1 alone)")
	fs.StringVar(&cfg.HTTP, "http", "", "serve the NATS monitoring endpoint (/varz, /jsz, /healthz) on this `HOST:PORT`; beyond loopback (a kubelet's probes) it needs --token")
	fs.StringVar(&cfg.Metrics, "metrics", "", "serve the queue's metrics (Prometheus text format) at http://`HOST:PORT`/metrics; beyond loopback scrapers show the token as a bearer token")
	fs.DurationVar(&cfg.Settings.AckWait, "ack-wait", 30*time.Second, "how long a task stays with a worker that stopped answering before it goes to another")
	fs.IntVar(&cfg.Settings.MaxDeliver, "max-deliver", 5, "times a task is handed out before it is set aside as failing")
	fs.BoolVar(&verbose, "v", false, "print the NATS server's notices on stderr")
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if len(pos) != 0 {
		e.Errorf("serve takes no arguments, got %q (usage: nqueens serve --data DIR)", pos)
		return cli.ExitUsage
	}
	if cfg.Token, err = readToken(ctx, cfg.Token, tokenFile); err != nil {
		return inputExit(e, err)
	}
	for _, f := range []struct {
		flag, path string
		into       *string
	}{{"--worker-token-file", workerTokenFile, &cfg.WorkerToken}, {"--route-token-file", routeTokenFile, &cfg.RouteToken}} {
		if f.path == "" {
			continue
		}
		b, err := readFlagFile(ctx, f.flag, f.path, maxTokenFile, "a token file")
		if err != nil {
			return inputExit(e, err)
		}
		*f.into = strings.TrimSpace(string(b))
		if err := queue.CheckToken(*f.into); err != nil {
			e.Errorf("%s %s: %v", f.flag, f.path, err)
			return cli.ExitUsage
		}
		if err := privateFile(f.flag, f.path); err != nil {
			e.Errorf("%v", err)
			return cli.ExitUsage
		}
	}
	err = readFlagFiles(ctx, queue.MaxPEMSize,
		flagFile{"--tls-cert", tlsCert, "a PEM certificate file", &cfg.TLSCert},
		flagFile{"--tls-key", tlsKey, "a PEM key file", &cfg.TLSKey},
		flagFile{"--tls-client-ca", tlsCA, "a PEM file of certificates", &cfg.TLSClientCA})
	if err != nil {
		return inputExit(e, err)
	}
	if err := queue.CheckToken(cfg.Token); err != nil {
		e.Errorf("%v", err)
		return cli.ExitUsage
	}
	if cfg.Settings.AckWait < time.Second || cfg.Settings.MaxDeliver < 1 {
		e.Errorf("--ack-wait must be at least 1s and --max-deliver at least 1")
		return cli.ExitUsage
	}
	if cfg.Settings.Replicas < 0 || cfg.Settings.Replicas > 5 {
		e.Errorf("--replicas %d: choose 1 to 5 (0: 3 in a cluster)", cfg.Settings.Replicas)
		return cli.ExitUsage
	}
	if routes != "" {
		cfg.Routes = strings.Split(routes, ",")
	}
	if verbose {
		cfg.Logf = func(format string, args ...any) { e.Errorf("server: "+format, args...) }
	}
	// What an operator should always hear (a peer or the quorum lost or
	// back, a full store), with the time.
	cfg.Events = func(format string, args ...any) {
		e.Errorf("%s %s", time.Now().UTC().Format("2006-01-02T15:04:05Z"), fmt.Sprintf(format, args...))
	}
	s, err := server.Serve(ctx, cfg)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return cli.ExitInterrupted
		}
		e.Errorf("%v", err)
		if errors.Is(err, server.ErrExposed) || errors.Is(err, queue.ErrBadTLS) || cfg.DataDir == "" {
			return cli.ExitUsage
		}
		return cli.ExitFail
	}
	defer s.Close()
	if _, err := fmt.Fprintln(e.Stdout, s.URL()); err != nil {
		e.Errorf("writing the URL: %v", err)
		return cli.ExitFail
	}
	auth := ""
	if cfg.Token != "" {
		auth = " --token-file FILE"
	}
	where := s.URL()
	if cfg.ClusterListen != "" {
		where = s.URL() + ",OTHER-SERVERS"
		e.Errorf("server %s of cluster %s, routes on %s; waiting for the cluster to set up the queue", s.Name(), cfg.ClusterName, s.ClusterAddr())
	}
	for _, u := range []struct{ what, url string }{{"NATS monitoring", s.MonitorURL()}, {"metrics", s.MetricsURL()}} {
		if u.url != "" {
			e.Errorf("%s at %s", u.what, u.url)
		}
	}
	e.Errorf("serving the queue at %s, data in %s; submit with 'nqueens submit N --server %s%s', count with 'nqueens work --server %s%s'; Ctrl-C stops", s.URL(), cfg.DataDir, where, auth, where, auth)
	if cfg.ClusterListen != "" {
		if err := s.WaitSetup(ctx); err == nil {
			e.Errorf("the cluster has set up the queue")
		}
	}
	<-ctx.Done()
	s.Close()
	e.Errorf("stopped; the queue is kept in %s", cfg.DataDir)
	return cli.ExitOK
}
