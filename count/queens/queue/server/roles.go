package server

import (
	"errors"
	"fmt"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/nqcount/nqcount/count/queens/queue"
)

// Roles: a server given a worker token (Config.WorkerToken) keeps
// three credentials apart, on the NATS server's own users and
// permissions:
//
//   - the operator (user "operator", Config.Token): everything:
//     submit, cancel, requeue, export;
//   - workers (user "worker", WorkerToken): take tasks, store results,
//     report; they may not write the jobs bucket (cancel, requeue), purge
//     or delete streams, consumers or messages, nor change a stream;
//   - routes (RouteToken, else Token): the other servers of a cluster. A
//     worker's token does not open a route.
//
// Clients show a role with client.Auth.User and the role's token.

// workerDeny is what a worker may not publish: the jobs' records, and the
// JetStream API's destructive requests (but the deletion of the
// short-lived consumers its reads make, outside the tasks stream).
var workerDeny = []string{
	"$KV." + queue.JobsBucket + ".>",
	"$JS.API.STREAM.CREATE.>", "$JS.API.STREAM.UPDATE.>", "$JS.API.STREAM.DELETE.>", "$JS.API.STREAM.PURGE.>",
	"$JS.API.STREAM.MSG.DELETE.>", "$JS.API.STREAM.SNAPSHOT.>", "$JS.API.STREAM.RESTORE.>", "$JS.API.STREAM.PEER.>",
	"$JS.API.STREAM.LEADER.>", "$JS.API.META.>", "$JS.API.SERVER.>", "$JS.API.ACCOUNT.>",
	"$JS.API.CONSUMER.DELETE." + queue.TasksStream + ".>", "$JS.API.CONSUMER.PAUSE.>", "$JS.API.CONSUMER.LEADER.>", "$JS.API.CONSUMER.UNPIN.>",
	"$SYS.>",
}

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
			Publish: &server.SubjectPermission{Allow: []string{">"}, Deny: workerDeny},
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
