package queue

import (
	"errors"
	"fmt"
	"regexp"
	"time"
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

// DefaultURL is the server address when none is given: an embedded server
// started by server.Serve with its defaults.
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

// jobIDPattern is what queens.Plan.ID makes: a word of letters, digits
// and dashes, safe as a subject token and a key.
var jobIDPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]{0,127}$`)

// CheckJobID reports whether id can name a job.
func CheckJobID(id string) error {
	if !jobIDPattern.MatchString(id) {
		return fmt.Errorf("job %q: a job id is a word of letters, digits and dashes, as nqueens submit prints it", id)
	}
	return nil
}

// ErrNoJob is wrapped by the error for a job the queue does not hold.
var ErrNoJob = errors.New("no such job")

// Users of a server with roles (see package server): clients show a
// role with their Auth.User and the role's token.
const (
	OperatorUser = "operator"
	WorkerUser   = "worker"
)

// MinTokenLength is the shortest token a server takes: a token is all
// that keeps a server beyond loopback from anyone who can reach its port.
const MinTokenLength = 16

// MaxTokenLength is the longest token a server or a client takes: the
// token travels in the client's CONNECT line, which the server bounds
// (4 KiB with the client's other fields), and a longer one would leave
// the connection waiting for the server's authentication timeout.
const MaxTokenLength = 1024

// MaxPEMSize bounds a PEM file of certificates or a key (a server's TLS
// files, a client's CA, certificate and key), and MaxCredsSize a NATS
// credentials file: far beyond any real one, small enough to read whole.
const (
	MaxPEMSize   = 1 << 20
	MaxCredsSize = 64 << 10
)

// CheckToken reports why token cannot protect a server, or nil: an empty
// token (no token) is fine, a short one is not, nor one that
// CheckTokenText refuses.
func CheckToken(token string) error {
	if err := CheckTokenText(token); err != nil {
		return err
	}
	if token != "" && len(token) < MinTokenLength {
		return fmt.Errorf("the token has %d characters: use at least %d (for example: head -c 24 /dev/urandom | base64), since it is all that keeps the queue from anyone who can reach its port", len(token), MinTokenLength)
	}
	return nil
}

// CheckTokenText reports why token cannot be shown to a server, or nil:
// a token is at most MaxTokenLength characters, each printable ASCII
// without spaces (what base64 or a password generator writes). A client
// checks no least length: a NATS deployment not ours may take short
// tokens.
func CheckTokenText(token string) error {
	if len(token) > MaxTokenLength {
		return fmt.Errorf("the token has %d characters, more than a token can (%d): is this the token's file?", len(token), MaxTokenLength)
	}
	for i := 0; i < len(token); i++ {
		if c := token[i]; c <= ' ' || c > '~' {
			return fmt.Errorf("the token holds byte %#02x at %d: a token is printable ASCII without spaces (for example: head -c 24 /dev/urandom | base64)", c, i)
		}
	}
	return nil
}

// ErrBadTLS is wrapped by the error for a certificate, key or authority
// that does not parse.
var ErrBadTLS = errors.New("not usable for TLS")

// JobLine is a job as client.Client.Jobs lists it: its record and counts of its stored
// records, read from the server's per-subject counts without reading the
// records (Status reads and checks every one, and gives the total).
type JobLine struct {
	JobInfo
	// Counted is the number of tasks with a stored count record,
	// Verified those with a stored verify record, Chosen those chosen
	// for one.
	Counted  int `json:"counted"`
	Verified int `json:"verified"`
	Chosen   int `json:"chosen"`
	// Failed is the number of tasks with a failure record and no count.
	Failed int `json:"failed"`
	// State is "cancelled", "done" (every task has a count and every
	// chosen one a verification stored), "failing" (tasks failed: see
	// status), "running" or "queued" (nothing stored yet).
	State string `json:"state"`
}

// PeerRemoveSubject is where an operator asks the servers of a cluster
// with roles to remove a server that is gone from the cluster's JetStream
// meta group (nqueens remove-peer): a PeerRemoval request, answered with a
// PeerRemoved. Only the operator may publish on it.
const PeerRemoveSubject = "nqcount.admin.remove-peer"

// PeerRemoval asks for the removal of one server from a cluster's
// JetStream meta group.
type PeerRemoval struct {
	// Server is the server's name (nqueens serve --name; its peers'
	// monitoring and nqueens jobs list it).
	Server string `json:"server"`
}

// PeerRemoved answers a PeerRemoval.
type PeerRemoved struct {
	// Removed is the server removed, when it was.
	Removed string `json:"removed,omitempty"`
	// Peers are the servers of the meta group after the removal, as the
	// server that answered knows them.
	Peers []string `json:"peers,omitempty"`
	// Error says why the server was not removed.
	Error string `json:"error,omitempty"`
}
