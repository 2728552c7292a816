package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/readfile"
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
	timeout   time.Duration
	user      string
}

func (f *serverFlags) add(fs *flag.FlagSet) {
	def := os.Getenv("NQCOUNT_SERVER")
	if def == "" {
		def = queue.DefaultURL
	}
	fs.StringVar(&f.url, "server", def, "the queue's NATS server `URL`s, comma-separated: every server of a cluster, for failing over (nqueens serve prints one; default $NQCOUNT_SERVER)")
	fs.StringVar(&f.token, "token", "", "the server's token (default $NQCOUNT_TOKEN; --token-file keeps it out of the process list)")
	fs.StringVar(&f.tokenFile, "token-file", "", "read the server's token from `FILE`")
	fs.StringVar(&f.user, "user", "", "on a server with roles (serve --worker-token-file): the role the token is for, operator or worker")
	fs.StringVar(&f.creds, "creds", "", "NATS credentials `FILE`, for an existing NATS deployment")
	fs.StringVar(&f.ca, "tls-ca", "", "PEM `FILE` of the authority that signed the server's certificate")
	fs.StringVar(&f.cert, "tls-cert", "", "client certificate `FILE`, for a server that checks them")
	fs.StringVar(&f.key, "tls-key", "", "the client certificate's key `FILE`")
	fs.DurationVar(&f.timeout, "timeout", 2*time.Minute, "how long to keep trying while the queue cannot answer (a cluster without quorum, a server restarting) before failing, 0: no limit; for wait, the longest outage it waits through (a server that cannot be reached at all fails a one-shot command at once)")
}

// op bounds a one-shot command (jobs, submit, status ...) by --timeout.
func (f *serverFlags) op(ctx context.Context) (context.Context, context.CancelFunc) {
	if f.timeout <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, f.timeout)
}

// maxTokenFile bounds a token file: the longest token, with room for
// blank lines and a CRLF around it.
const maxTokenFile = 4 << 10

// readToken returns the token from --token, --token-file or
// $NQCOUNT_TOKEN. The file is read in bounded memory, and the read (of a
// FIFO that never comes, say) ends with ctx.
func readToken(ctx context.Context, token, file string) (string, error) {
	if token != "" && file != "" {
		return "", errors.New("give --token or --token-file, not both")
	}
	what := "--token"
	if file != "" {
		b, err := readFlagFile(ctx, "--token-file", file, maxTokenFile, "a token file")
		if err != nil {
			return "", err
		}
		token, what = strings.TrimSpace(string(b)), "--token-file "+file
		if err := queue.CheckTokenText(token); err != nil {
			return "", fmt.Errorf("%s: %v", what, err)
		}
		if err := privateFile("--token-file", file); err != nil {
			return "", err
		}
	}
	if token == "" {
		token, what = os.Getenv("NQCOUNT_TOKEN"), "$NQCOUNT_TOKEN"
	}
	if err := queue.CheckTokenText(token); err != nil {
		return "", fmt.Errorf("%s: %v", what, err)
	}
	return token, nil
}

// privateFile refuses a secret's file that every user of this machine
// may read: a token is all that guards the queue.
func privateFile(flag, path string) error {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o004 == 0 {
		return nil
	}
	return fmt.Errorf("%s %s is readable by every user of this machine (mode %04o): chmod o-r %s (600, or 640 for a group; in Kubernetes, defaultMode: 0440 on the secret's volume)", flag, path, fi.Mode().Perm(), path)
}

// readFlagFile reads the file a flag names (a token, credentials,
// certificates), at most limit bytes, refusing an empty one; the read
// ends with ctx (its error is then ctx's).
func readFlagFile(ctx context.Context, flag, path string, limit int64, what string) ([]byte, error) {
	b, err := readfile.Read(ctx, path, limit, what)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", flag, err)
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, fmt.Errorf("%s %s is empty", flag, path)
	}
	return b, nil
}

// readFlagFiles reads the files the flags name into the pointers, each at
// most limit bytes (see readFlagFile); a flag not given leaves nil.
func readFlagFiles(ctx context.Context, limit int64, files ...flagFile) error {
	for _, f := range files {
		if f.path == "" {
			continue
		}
		b, err := readFlagFile(ctx, f.flag, f.path, limit, f.what)
		if err != nil {
			return err
		}
		*f.into = b
	}
	return nil
}

// flagFile is a file named by a flag, for readFlagFiles.
type flagFile struct {
	flag, path, what string
	into             *[]byte
}

// readAuth reads what the flags say to show the server.
func (f *serverFlags) readAuth(ctx context.Context) (client.Auth, error) {
	var a client.Auth
	var err error
	if a.Token, err = readToken(ctx, f.token, f.tokenFile); err != nil {
		return a, err
	}
	switch f.user {
	case "", queue.OperatorUser, queue.WorkerUser:
		a.User = f.user
	default:
		return a, fmt.Errorf("--user %s: the roles are %s and %s", queue.Printable(f.user), queue.OperatorUser, queue.WorkerUser)
	}
	if a.User != "" && a.Token == "" {
		return a, fmt.Errorf("--user %s goes with the role's token (--token-file)", a.User)
	}
	if (f.cert == "") != (f.key == "") {
		return a, errors.New("--tls-cert and --tls-key go together")
	}
	if err := readFlagFiles(ctx, queue.MaxCredsSize, flagFile{"--creds", f.creds, "a NATS credentials file", &a.Creds}); err != nil {
		return a, err
	}
	err = readFlagFiles(ctx, queue.MaxPEMSize,
		flagFile{"--tls-ca", f.ca, "a PEM file of certificates", &a.CA},
		flagFile{"--tls-cert", f.cert, "a PEM certificate file", &a.Cert},
		flagFile{"--tls-key", f.key, "a PEM key file", &a.Key})
	if err != nil {
		return a, err
	}
	return a, a.Check()
}

// connect connects to the server, retrying while it is unreachable if
// retry (a worker).
func (f *serverFlags) connect(ctx context.Context, e *cli.Env, name string, retry bool) (*client.Client, int) {
	return f.connectFor(ctx, e, name, retry, 0)
}

// connectFor is connect, retrying at most retryFor (0: until ctx is
// done).
func (f *serverFlags) connectFor(ctx context.Context, e *cli.Env, name string, retry bool, retryFor time.Duration) (*client.Client, int) {
	return f.connectLog(ctx, e, name, retry, retryFor, func(format string, args ...any) { e.Errorf(format, args...) })
}

// connectLog is connectFor with the client's log going to logf.
func (f *serverFlags) connectLog(ctx context.Context, e *cli.Env, name string, retry bool, retryFor time.Duration, logf func(string, ...any)) (*client.Client, int) {
	if f.timeout < 0 {
		e.Errorf("--timeout %v: need 0 (no limit) or more", f.timeout)
		return nil, cli.ExitUsage
	}
	if err := client.CheckURL(f.url); err != nil {
		e.Errorf("--server: %v", err)
		return nil, cli.ExitUsage
	}
	auth, err := f.readAuth(ctx)
	if err != nil {
		return nil, inputExit(e, err)
	}
	c, err := client.Connect(ctx, f.url, client.ConnectOptions{
		Auth: auth,
		Name: "nqueens " + name, Retry: retry, RetryFor: retryFor, Patience: f.timeout,
		Logf: logf,
	})
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, cli.ExitInterrupted
		}
		if errors.Is(err, context.DeadlineExceeded) {
			e.Errorf("no server of %s answered within --timeout %v", f.url, f.timeout)
			return nil, cli.ExitFail
		}
		e.Errorf("%v", err)
		return nil, cli.ExitFail
	}
	return c, cli.ExitOK
}

// inputExit reports an error reading the flags' files: an interrupt
// (exitInterrupted), or a bad file (exitUsage).
func inputExit(e *cli.Env, err error) int {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		e.Errorf("interrupted")
		return cli.ExitInterrupted
	}
	e.Errorf("%v", err)
	return cli.ExitUsage
}

// oneJob reads the single JOB argument.
func oneJob(e *cli.Env, cmd string, pos []string) (string, bool) {
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
