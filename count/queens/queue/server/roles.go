package server

import (
	"errors"
	"fmt"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
)

// Roles: a server given a worker token (Config.WorkerToken) keeps
// three credentials apart, on the NATS server's own users and
// permissions:
//
//   - the operator (user "operator", Config.Token): everything:
//     submit, cancel, requeue, export;
//   - workers (user "worker", WorkerToken): take tasks, store results,
//     report, and nothing else (workerPublish, workerSubscribe): they may
//     not write the jobs bucket (cancel, requeue), purge or delete
//     streams, consumers of the tasks or messages, nor change a stream;
//   - routes (RouteToken, else Token): the other servers of a cluster. A
//     worker's token does not open a route.
//
// Clients show a role with client.Auth.User and the role's token.

// workerPublish and workerSubscribe are all a worker may publish and
// subscribe to (an allow-list: a subject not named is refused, so that
// what the engine adds later is not open to workers by default): the
// tasks and results subjects (passing a task on, addressing a verify
// task, storing a record), its report, the acknowledgements of the tasks
// it holds, and the JetStream API's requests that read (stream, consumer
// and message lookups) or that make and remove the short-lived consumers
// its reads use, and its own verify consumer on the tasks stream, which
// it never deletes (the server removes it once inactive). Not the jobs'
// records (cancel, requeue), nor any request that creates, changes,
// purges or deletes a stream or a message, moves a leader or removes a
// server. Its replies come on inboxes.
var (
	workerPublish = []string{
		layout.TaskPrefix + ".>", layout.VerifyPrefix + ".>",
		layout.ResultPrefix + ".>", layout.VerifiedPrefix + ".>", layout.FailPrefix + ".>",
		"$KV." + queue.WorkersBucket + ".>",
		"$JS.ACK." + queue.TasksStream + ".>", "$JS.FC.>",
		"$JS.API.INFO", "$JS.API.STREAM.INFO.>", "$JS.API.STREAM.NAMES", "$JS.API.STREAM.LIST",
		"$JS.API.STREAM.MSG.GET.>", "$JS.API.DIRECT.GET.>",
		"$JS.API.CONSUMER.CREATE.>", "$JS.API.CONSUMER.DURABLE.CREATE.>",
		"$JS.API.CONSUMER.INFO.>", "$JS.API.CONSUMER.NAMES.>", "$JS.API.CONSUMER.LIST.>",
		"$JS.API.CONSUMER.MSG.NEXT.>",
		"$JS.API.CONSUMER.DELETE." + queue.ResultsStream + ".>", "$JS.API.CONSUMER.DELETE." + queue.EventsStream + ".>",
		"$JS.API.CONSUMER.DELETE.KV_" + queue.JobsBucket + ".>", "$JS.API.CONSUMER.DELETE.KV_" + queue.WorkersBucket + ".>",
	}
	workerSubscribe = []string{"_INBOX.>"}
)

// roleUsers returns the NATS users of a server with roles.
func roleUsers(cfg Config) ([]*server.User, error) {
	if cfg.Token == "" {
		return nil, errors.New("a worker token (--worker-token-file) needs the operator's token too (--token-file)")
	}
	if err := queue.CheckToken(cfg.WorkerToken); err != nil {
		return nil, fmt.Errorf("the worker token: %w", err)
	}
	if cfg.WorkerToken == cfg.Token || cfg.RouteToken != "" && (cfg.RouteToken == cfg.WorkerToken || cfg.RouteToken == cfg.Token) {
		return nil, errors.New("the operator's, the workers' and the routes' tokens must differ")
	}
	return []*server.User{
		{Username: queue.OperatorUser, Password: cfg.Token},
		{Username: queue.WorkerUser, Password: cfg.WorkerToken, Permissions: &server.Permissions{
			Publish:   &server.SubjectPermission{Allow: workerPublish},
			Subscribe: &server.SubjectPermission{Allow: workerSubscribe},
		}},
	}, nil
}

// operatorAuth is what the server's own connections show: a user (on a
// server with roles) and a token.
func operatorAuth(cfg Config) (user, token string) {
	if cfg.WorkerToken != "" {
		return queue.OperatorUser, cfg.Token
	}
	return "", cfg.Token
}
