package server

import (
	"net"
	"strconv"
	"testing"

	"github.com/nats-io/nats.go"
)

// The system user of a cluster with roles exists (its relay connected
// with it) and is let in from the server's own process only: its
// password, were it known, opens no connection over the network. A
// server without roles has no system user.
func TestSystemUserInProcessOnly(t *testing.T) {
	if strconv.IntSize == 32 {
		t.Skip("a cluster needs a 64-bit build: nats-server's clustered JetStream crashes on 32-bit platforms (ErrCluster32)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	s := serve(t, Config{Token: "operator-token-0123456789", WorkerToken: "worker-token-0123456789", ClusterListen: addr, Routes: []string{addr}})
	if s.peers == nil || s.peers.secret == "" {
		t.Fatal("a server of a cluster with roles has no relay of peer removals")
	}
	in, err := nats.Connect("", nats.InProcessServer(s.ns), nats.UserInfo(sysUser, s.peers.secret))
	if err != nil {
		t.Fatalf("the system user in the server's process: %v", err)
	}
	in.Close()
	nc, err := nats.Connect(s.URL(), nats.UserInfo(sysUser, s.peers.secret))
	if err == nil {
		nc.Close()
		t.Fatal("the system user connected over the network")
	}
	if alone := serve(t, Config{Token: "operator-token-0123456789", WorkerToken: "worker-token-0123456789"}); alone.peers != nil {
		t.Error("a server alone has a system user")
	}
	if plain := serve(t, Config{Token: "operator-token-0123456789"}); plain.peers != nil {
		t.Error("a server without roles has a system user")
	}
}
