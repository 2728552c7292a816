package server

import (
	"context"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// health is what a server knows of its cluster, watched every
// healthEvery: the other servers it has routes to, and whether the
// cluster has the quorum of its servers (a JetStream meta leader). Serve
// logs each change (Config.Events) and the metrics show it. One
// lock.
type health struct {
	mu        sync.Mutex
	clustered bool
	peers     map[string]bool // the servers with a route to this one
	size      int             // the cluster's known servers
	leader    string          // the meta leader, "" without quorum
	lost      bool            // the quorum was said lost
	hadQuorum bool            // the quorum was seen once (a cluster forming has none yet)
	known     bool            // watched at least once
	since     time.Time       // when the quorum was last lost or regained
	diskFull  string          // the last store error, while JetStream cannot write
}

// healthEvery is how often a server looks at its cluster.
var healthEvery = time.Second

// healthState is a copy of a server's health, for the metrics.
type healthState struct {
	Clustered bool
	Peers     int
	Size      int
	Quorum    bool
	DiskFull  string
}

func (h *health) state() healthState {
	h.mu.Lock()
	defer h.mu.Unlock()
	return healthState{Clustered: h.clustered, Peers: len(h.peers), Size: h.size, Quorum: !h.clustered || h.quorum(h.leader, h.peers), DiskFull: h.diskFull}
}

// watch looks at the cluster until ctx is done, telling events of each
// route lost or regained and of the quorum lost or regained.
func (h *health) watch(ctx context.Context, ns *server.Server, opts *server.Options, events func(string, ...any)) {
	t := time.NewTicker(healthEvery)
	defer t.Stop()
	for {
		h.look(ns, opts, events)
		h.resume(ns, opts, events)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// look takes one look at the cluster.
func (h *health) look(ns *server.Server, opts *server.Options, events func(string, ...any)) {
	if !ns.JetStreamIsClustered() {
		return
	}
	peers := map[string]bool{}
	if rz, err := ns.Routez(&server.RoutezOptions{}); err == nil {
		for _, r := range rz.Routes {
			if r.RemoteName != "" {
				peers[r.RemoteName] = true
			}
		}
	}
	leader, size := "", 0
	if strconv.IntSize == 64 {
		if jz, err := ns.Jsz(&server.JSzOptions{}); err == nil && jz.Meta != nil {
			leader, size = jz.Meta.Leader, jz.Meta.Size
		}
	} else {
		// On 32-bit platforms nats-server's Jsz reads a 64-bit counter of
		// the meta group unaligned, which panics: there the cluster's size
		// is the routes configured and this server, and its leader is
		// taken as there while a majority is reachable.
		size = len(opts.Routes) + 1
		if 2*(len(peers)+1) > size {
			leader = "?"
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	first := !h.known
	h.known, h.clustered, h.size = true, true, size
	if !first {
		for _, p := range slices.Sorted(maps.Keys(h.peers)) {
			if !peers[p] {
				events("cluster: lost the route to server %s (%d other servers reachable: %s)", p, len(peers), names(peers))
			}
		}
		for _, p := range slices.Sorted(maps.Keys(peers)) {
			if !h.peers[p] {
				events("cluster: route to server %s up (%d other servers reachable: %s)", p, len(peers), names(peers))
			}
		}
	}
	quorum := h.quorum(leader, peers)
	switch {
	case quorum && !h.hadQuorum:
		h.hadQuorum = true
	case !quorum && !h.lost && h.hadQuorum:
		events("cluster: QUORUM LOST: %d of the %d servers reachable, fewer than a majority; the queue waits (clients retry, workers keep counting) until enough are back", len(peers)+1, size)
		h.lost, h.since = true, time.Now()
	case quorum && h.lost:
		events("cluster: quorum back after %v (%d of %d servers, leader %s)", time.Since(h.since).Round(time.Second), len(peers)+1, size, leader)
		h.lost = false
	}
	h.peers, h.leader = peers, leader
}

// quorum reports whether the cluster has a leader and this server
// reaches a majority of its servers (the leader notices a lost majority
// only after a while).
func (h *health) quorum(leader string, peers map[string]bool) bool {
	return leader != "" && (h.size == 0 || 2*(len(peers)+1) > h.size)
}

func names(set map[string]bool) string {
	if len(set) == 0 {
		return "none"
	}
	return strings.Join(slices.Sorted(maps.Keys(set)), ", ")
}

// noteStore records a store error of JetStream's (a full disk), or its
// end (""), telling events once of each change.
func (h *health) noteStore(msg string, events func(string, ...any)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if msg == h.diskFull {
		return
	}
	if msg != "" {
		events("storage: JetStream cannot write: %s; the queue waits (results are kept by the workers that hold them) until there is space, then goes on by itself", msg)
	} else {
		events("storage: writing again: the queue goes on")
	}
	h.diskFull = msg
}

// resume starts again the JetStream that the server shut down when its
// store was full (the NATS server does so, and waits for a restart), as
// soon as a probe of probeSize can be written in the store's folder.
func (h *health) resume(ns *server.Server, opts *server.Options, events func(string, ...any)) {
	h.mu.Lock()
	full := h.diskFull
	h.mu.Unlock()
	if full == "" || ns.JetStreamEnabled() || !probe(opts.StoreDir) {
		return
	}
	err := ns.EnableJetStream(&server.JetStreamConfig{StoreDir: opts.StoreDir, MaxMemory: opts.JetStreamMaxMemory, MaxStore: opts.JetStreamMaxStore})
	if err != nil {
		events("storage: there is space again, but JetStream did not start again: %v (restart the server)", err)
		return
	}
	h.noteStore("", events)
}

// probeSize is the space that must be free before a full store is used
// again.
const probeSize = 1 << 20

// probe reports whether probeSize bytes can be written in dir.
func probe(dir string) bool {
	f, err := os.CreateTemp(dir, ".space-probe-*")
	if err != nil {
		return false
	}
	defer os.Remove(f.Name())
	_, err = f.Write(make([]byte, probeSize))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err == nil
}
