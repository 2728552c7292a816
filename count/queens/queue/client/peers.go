package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/nats-io/nats.go"

	"github.com/nqcount/nqcount/count/queens/queue"
)

// ErrPeer is wrapped by RemovePeer's error when the cluster did not
// remove the server (not a member, no quorum, no server that answers).
var ErrPeer = errors.New("the peer was not removed")

// RemovePeer asks the cluster to remove server name, stopped for good,
// from its JetStream meta group, so that it no longer counts in the
// quorum; it returns the group's servers after the removal. Only the
// operator may, on a cluster whose servers have roles (package server,
// Config.WorkerToken): a worker's credentials are refused (ErrDenied).
// The streams' copies it kept are made again on the others where the
// cluster has enough servers.
func (c *Client) RemovePeer(ctx context.Context, name string) (*queue.PeerRemoved, error) {
	if name == "" || len(name) > 256 || strings.ContainsFunc(name, func(r rune) bool { return unicode.IsSpace(r) || !unicode.IsPrint(r) }) {
		return nil, fmt.Errorf("server name %q: give the name of a server of the cluster (nqueens jobs lists the streams' servers)", name)
	}
	body, _ := json.Marshal(queue.PeerRemoval{Server: name})
	var out queue.PeerRemoved
	err := c.retry(ctx, "removing server "+name, func(ctx context.Context) error {
		m, err := c.nc.RequestWithContext(ctx, queue.PeerRemoveSubject, body)
		if errors.Is(err, nats.ErrNoResponders) {
			return fmt.Errorf("%w: no server answers the removal of peers: it takes a cluster whose servers have roles (--worker-token-file)", ErrPeer)
		}
		if err != nil {
			return err
		}
		out = queue.PeerRemoved{}
		return json.Unmarshal(m.Data, &out)
	})
	if err != nil {
		return nil, err
	}
	if out.Error != "" {
		return &out, fmt.Errorf("removing server %s: %w: %s", name, ErrPeer, out.Error)
	}
	return &out, nil
}
