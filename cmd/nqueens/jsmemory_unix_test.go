//go:build unix

package main

import (
	"encoding/json"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/nqcount/nqcount/internal/sysmem"
)

// A server's monitoring endpoint answers the kubelet's probes, and
// JetStream's memory is bounded by the least of the machine's limits (a
// container's included), not three quarters of the physical memory
// (once: 17.7 GiB inside a 256 MiB cgroup). Read from the server's own
// monitoring endpoint, /varz.
func TestJetStreamMaxMemory(t *testing.T) {
	l, ok := sysmem.Smallest()
	if !ok {
		t.Fatal("this system states no memory limit")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	srv := startServe(t, "--listen", "127.0.0.1:0", "--http", addr, "--data", t.TempDir())
	defer srv.stop(t)
	var varz struct {
		JetStream struct {
			Config struct {
				MaxMemory int64 `json:"max_memory"`
			} `json:"config"`
		} `json:"jetstream"`
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Get("http://" + addr + "/varz")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&varz); err != nil {
		t.Fatal(err)
	}
	if got, want := varz.JetStream.Config.MaxMemory, int64(l.Bytes/4); got != want {
		t.Errorf("JetStream max_memory %d, want %d (a quarter of the %s, %d)", got, want, l.Source, l.Bytes)
	}
	// The paths scripts/k8s-queue.yaml's probes ask.
	for _, path := range []string{"/healthz?js-enabled-only=true", "/healthz"} {
		deadline := time.Now().Add(waitBound)
		for {
			resp, err := client.Get("http://" + addr + path)
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					break
				}
			}
			if time.Now().After(deadline) {
				t.Fatalf("GET %s: %v %v", path, resp, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}
