package client

import (
	"context"
	"strings"
	"testing"
)

func TestCheckURL(t *testing.T) {
	for _, u := range []string{
		"nats://127.0.0.1:4222", "localhost:4222", "nats://a:4222,nats://b.example.com:4222", "tls://host.example.com:4222",
		"nats://tok@127.0.0.1:4222", "nats://user:pw@127.0.0.1", "nats://[::1]:4222", "ws://h:80/path", "queue-0.queue.default.svc.cluster.local",
	} {
		if err := CheckURL(u); err != nil {
			t.Errorf("CheckURL(%q): %v", u, err)
		}
	}
	for _, u := range []string{
		"", "--progress-every", "-x", "http://h:4222", "nats://h:99999", "nats://h:0", "nats://h:abc", "nats://bad host:4222",
		"nats://:4222", "nats://a:4222,", "nats://h\th:4222",
	} {
		if err := CheckURL(u); err == nil {
			t.Errorf("CheckURL(%q) accepted it", u)
		}
	}
	if _, err := Connect(context.Background(), "--progress-every", ConnectOptions{Retry: true}); err == nil || !strings.Contains(err.Error(), "looks like a flag") {
		t.Errorf("Connect to a flag: %v, want a refusal at once", err)
	}
}

func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"nats://127.0.0.1:4222", "a:1,b:2", "nats://u:p@[::1]:4222/x", "--server"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if CheckURL(s) == nil && (s == "" || strings.HasPrefix(s, "-")) {
			t.Errorf("CheckURL(%q) accepted it", s)
		}
	})
}
