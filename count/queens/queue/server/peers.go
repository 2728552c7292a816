package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
)

// Removing a peer: a server that is gone for good stays a member of the
// cluster's JetStream meta group, and counts in its quorum, until it is
// removed with nats-server's own request ($JS.API.SERVER.REMOVE), which
// the system account alone may make. A server of a cluster with roles
// keeps a connection of its own in the system account: its user
// (sysUser) has a password made at random at each start and kept in
// memory only, and is let in through the server's in-process connection
// only, never the network. The server relays to it the operator's
// requests on queue.PeerRemoveSubject, which workers may not publish on
// (their allow-list does not name it) and the routes' token does not
// reach (a route is no client). A server without roles has no system
// user: its token's holders are all operators, and nothing tells them
// apart from a worker.

// sysUser is the server's own user in the system account.
const sysUser = "nqcount-system"

// sysAccount names the system account of a server with roles.
const sysAccount = "SYS"

// inProcess is nats-server's name for a connection made in the server's
// own process (jwt.ConnectionTypeInProcess).
const inProcess = "IN_PROCESS"

// peerRelayGroup is the queue group of the servers' relays: one server
// answers each request.
const peerRelayGroup = "nqcount-remove-peer"

// sysUserFor adds the system account and its user to opts (a cluster
// with roles), and returns the user's password.
func sysUserFor(opts *server.Options) string {
	var b [32]byte
	rand.Read(b[:])
	secret := hex.EncodeToString(b[:])
	acc := server.NewAccount(sysAccount)
	opts.Accounts = append(opts.Accounts, acc)
	opts.SystemAccount = sysAccount
	opts.Users = append(opts.Users, &server.User{
		Username: sysUser, Password: secret, Account: acc,
		AllowedConnectionTypes: map[string]struct{}{inProcess: {}},
	})
	return secret
}

// peerRelay answers the operator's PeerRemoval requests through the
// system account.
type peerRelay struct {
	ns     *server.Server
	secret string     // the system user's password
	op     *nats.Conn // the operator's (in-process): the requests
	sys    *nats.Conn // the system account's (in-process): the removals
}

// startPeerRelay connects as the operator and as the system user and
// subscribes to the requests.
func startPeerRelay(ns *server.Server, user, token, secret string) (*peerRelay, error) {
	op, _, err := layout.ConnectInProcess(ns, user, token)
	if err != nil {
		return nil, err
	}
	sys, err := nats.Connect("", nats.InProcessServer(ns), nats.Name("nqcount-system"), nats.UserInfo(sysUser, secret))
	if err != nil {
		op.Close()
		return nil, fmt.Errorf("the system account: %w", err)
	}
	r := &peerRelay{ns: ns, secret: secret, op: op, sys: sys}
	if _, err := op.QueueSubscribe(queue.PeerRemoveSubject, peerRelayGroup, r.serve); err != nil {
		r.close()
		return nil, err
	}
	return r, nil
}

func (r *peerRelay) close() {
	r.op.Close()
	r.sys.Close()
}

// serve answers one request.
func (r *peerRelay) serve(m *nats.Msg) {
	var req queue.PeerRemoval
	var out queue.PeerRemoved
	if err := json.Unmarshal(m.Data, &req); err != nil || req.Server == "" {
		out.Error = "the request names no server"
	} else {
		out = r.remove(req.Server)
	}
	body, _ := json.Marshal(out)
	m.Respond(body)
}

// removeWait bounds a removal and the wait for the meta group to show it.
const removeWait = 10 * time.Second

// remove asks nats-server to remove server name from the meta group, and
// waits until this server's view of the group has it gone.
func (r *peerRelay) remove(name string) queue.PeerRemoved {
	if name == r.ns.Name() {
		return queue.PeerRemoved{Error: fmt.Sprintf("server %s is the one answering: a server does not remove itself (ask another, after stopping it)", name)}
	}
	if r.routedTo(name) {
		return queue.PeerRemoved{Peers: r.peers(), Error: fmt.Sprintf("server %s is up (server %s has a route to it): removing is for a server stopped for good; stop it first", name, r.ns.Name())}
	}
	peers := r.peers()
	if !slices.Contains(peers, name) {
		return queue.PeerRemoved{Peers: peers, Error: fmt.Sprintf("no server %q in the cluster's meta group", name)}
	}
	body, _ := json.Marshal(server.JSApiMetaServerRemoveRequest{Server: name})
	msg, err := r.sys.Request(server.JSApiRemoveServer, body, removeWait)
	if err != nil {
		return queue.PeerRemoved{Peers: peers, Error: fmt.Sprintf("the cluster did not answer the removal: %v (is a leader elected? the others need a quorum)", err)}
	}
	var resp server.JSApiMetaServerRemoveResponse
	if err := json.Unmarshal(msg.Data, &resp); err != nil {
		return queue.PeerRemoved{Peers: peers, Error: fmt.Sprintf("the removal's answer: %v", err)}
	}
	if resp.Error != nil {
		return queue.PeerRemoved{Peers: peers, Error: resp.Error.Error()}
	}
	if !resp.Success {
		return queue.PeerRemoved{Peers: peers, Error: "the cluster did not remove it"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), removeWait)
	defer cancel()
	for ctx.Err() == nil && slices.Contains(peers, name) {
		time.Sleep(100 * time.Millisecond)
		peers = r.peers()
	}
	return queue.PeerRemoved{Removed: name, Peers: peers}
}

// routedTo reports whether this server has a route to server name: it
// is up.
func (r *peerRelay) routedTo(name string) bool {
	rz, err := r.ns.Routez(&server.RoutezOptions{})
	if err != nil {
		return false
	}
	for _, rt := range rz.Routes {
		if rt.RemoteName == name {
			return true
		}
	}
	return false
}

// peers are the servers of the meta group as this server knows it: the
// leader and the replicas, itself included.
func (r *peerRelay) peers() []string {
	jsz, err := r.ns.Jsz(&server.JSzOptions{})
	if err != nil || jsz.Meta == nil {
		return nil
	}
	names := []string{r.ns.Name()}
	if l := jsz.Meta.Leader; l != "" {
		names = append(names, l)
	}
	for _, p := range jsz.Meta.Replicas {
		names = append(names, p.Name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}
