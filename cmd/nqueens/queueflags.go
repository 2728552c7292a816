package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/nqcount/nqcount/count/queens/queue"
)

// serverFlags are the flags of the commands that talk to a queue's server:
// where it is and how to show who we are.
type serverFlags struct {
	url       string
	token     string
	tokenFile string
	creds     string
	ca        string
	cert, key string
}

func (f *serverFlags) add(fs *flag.FlagSet) {
	def := os.Getenv("NQCOUNT_SERVER")
	if def == "" {
		def = queue.DefaultURL
	}
	fs.StringVar(&f.url, "server", def, "the queue's NATS server `URL`s, comma-separated: every server of a cluster, for failing over (nqueens serve prints one; default $NQCOUNT_SERVER)")
	fs.StringVar(&f.token, "token", "", "the server's token (default $NQCOUNT_TOKEN; --token-file keeps it out of the process list)")
	fs.StringVar(&f.tokenFile, "token-file", "", "read the server's token from `FILE`")
	fs.StringVar(&f.creds, "creds", "", "NATS credentials `FILE`, for an existing NATS deployment")
	fs.StringVar(&f.ca, "tls-ca", "", "PEM `FILE` of the authority that signed the server's certificate")
	fs.StringVar(&f.cert, "tls-cert", "", "client certificate `FILE`, for a server that checks them")
	fs.StringVar(&f.key, "tls-key", "", "the client certificate's key `FILE`")
}

// readToken returns the token from --token, --token-file or
// $NQCOUNT_TOKEN.
func readToken(token, file string) (string, error) {
	if token != "" && file != "" {
		return "", errors.New("give --token or --token-file, not both")
	}
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("--token-file: %v", err)
		}
		token = strings.TrimSpace(string(b))
		if token == "" {
			return "", fmt.Errorf("--token-file %s is empty", file)
		}
	}
	if token == "" {
		token = os.Getenv("NQCOUNT_TOKEN")
	}
	return token, nil
}

// connect connects to the server, retrying while it is unreachable if
// retry (a worker).
func (f *serverFlags) connect(ctx context.Context, e *env, name string, retry bool) (*queue.Client, int) {
	return f.connectFor(ctx, e, name, retry, 0)
}

// connectFor is connect, retrying at most retryFor (0: until ctx is
// done).
func (f *serverFlags) connectFor(ctx context.Context, e *env, name string, retry bool, retryFor time.Duration) (*queue.Client, int) {
	if err := queue.CheckURL(f.url); err != nil {
		e.Errorf("--server: %v", err)
		return nil, exitUsage
	}
	token, err := readToken(f.token, f.tokenFile)
	if err != nil {
		e.Errorf("%v", err)
		return nil, exitUsage
	}
	if (f.cert == "") != (f.key == "") {
		e.Errorf("--tls-cert and --tls-key go together")
		return nil, exitUsage
	}
	c, err := queue.Connect(ctx, f.url, queue.ConnectOptions{
		Auth: queue.Auth{Token: token, Creds: f.creds, CA: f.ca, Cert: f.cert, Key: f.key},
		Name: "nqueens " + name, Retry: retry, RetryFor: retryFor,
		Logf: func(format string, args ...any) { e.Errorf(format, args...) },
	})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, exitInterrupted
		}
		e.Errorf("%v", err)
		return nil, exitFail
	}
	return c, exitOK
}

// oneJob reads the single JOB argument.
func oneJob(e *env, cmd string, pos []string) (string, bool) {
	if len(pos) != 1 {
		e.Errorf("%s takes one job id, as nqueens submit printed it (usage: nqueens %s JOB)", cmd, cmd)
		return "", false
	}
	if err := queue.CheckJobID(pos[0]); err != nil {
		e.Errorf("%v", err)
		return "", false
	}
	return pos[0], true
}
