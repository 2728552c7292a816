package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nqcount/nqcount/count/queens/queue"
)

func init() {
	register(&command{Name: "serve", Summary: "run the work queue's server (embedded NATS JetStream)", Run: runServe})
}

func runServe(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "serve", "--data DIR [flags]")
	var (
		cfg       queue.ServerConfig
		tokenFile string
		verbose   bool
	)
	fs.StringVar(&cfg.Listen, "listen", "127.0.0.1:4222", "`HOST:PORT` to listen on (port 0: any free port); beyond loopback it needs --token or TLS client certificates")
	fs.StringVar(&cfg.DataDir, "data", "", "`DIR` for the queue's files (tasks, results); a server restarted on it goes on where it stopped")
	fs.StringVar(&cfg.Token, "token", "", "token every client must show (default $NQCOUNT_TOKEN; --token-file keeps it out of the process list)")
	fs.StringVar(&tokenFile, "token-file", "", "read the token from `FILE`")
	fs.StringVar(&cfg.TLSCert, "tls-cert", "", "serve TLS with this certificate `FILE` (PEM)")
	fs.StringVar(&cfg.TLSKey, "tls-key", "", "the certificate's key `FILE`")
	fs.StringVar(&cfg.TLSClientCA, "tls-client-ca", "", "accept only clients whose certificate this authority (PEM `FILE`) signed")
	fs.DurationVar(&cfg.Settings.AckWait, "ack-wait", 30*time.Second, "how long a task stays with a worker that stopped answering before it goes to another")
	fs.IntVar(&cfg.Settings.MaxDeliver, "max-deliver", 5, "times a task is handed out before it is set aside as failing")
	fs.BoolVar(&verbose, "v", false, "print the NATS server's notices on stderr")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) != 0 {
		e.Errorf("serve takes no arguments, got %q (usage: nqueens serve --data DIR)", pos)
		return exitUsage
	}
	if cfg.Token, err = readToken(cfg.Token, tokenFile); err != nil {
		e.Errorf("%v", err)
		return exitUsage
	}
	if cfg.Settings.AckWait < time.Second || cfg.Settings.MaxDeliver < 1 {
		e.Errorf("--ack-wait must be at least 1s and --max-deliver at least 1")
		return exitUsage
	}
	if verbose {
		cfg.Logf = func(format string, args ...any) { e.Errorf("server: "+format, args...) }
	}
	s, err := queue.Serve(ctx, cfg)
	if err != nil {
		e.Errorf("%v", err)
		if errors.Is(err, queue.ErrExposed) || cfg.DataDir == "" {
			return exitUsage
		}
		return exitFail
	}
	if _, err := fmt.Fprintln(e.Stdout, s.URL()); err != nil {
		s.Close()
		e.Errorf("writing the URL: %v", err)
		return exitFail
	}
	auth := ""
	if cfg.Token != "" {
		auth = " --token-file FILE"
	}
	e.Errorf("serving the queue at %s, data in %s; submit with 'nqueens submit N --server %s%s', count with 'nqueens work --server %s%s'; Ctrl-C stops", s.URL(), cfg.DataDir, s.URL(), auth, s.URL(), auth)
	<-ctx.Done()
	s.Close()
	e.Errorf("stopped; the queue is kept in %s", cfg.DataDir)
	return exitOK
}
