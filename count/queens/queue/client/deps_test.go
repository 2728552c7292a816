package client

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// What a program links is what it imports, whatever it calls: a front end
// that only submits or reads imports package client (and the records of
// package queue), so neither may bring in the NATS server (package
// server's alone), its metrics or the worker (package worker's); a worker
// imports package worker, which brings in no server either; the records
// and the memory table link no NATS at all, and the memory table no
// queue. The server package is
// listed too, as the control: it must show nats-server, or the check
// sees nothing.
func TestImports(t *testing.T) {
	const mod = "github.com/nqcount/nqcount/"
	for _, c := range []struct {
		pkg         string
		never, must []string
	}{
		{pkg: mod + "count/queens/queue/client", never: []string{"github.com/nats-io/nats-server/", "github.com/prometheus/", mod + "count/queens/queue/server", mod + "count/queens/queue/worker"}},
		{pkg: mod + "count/queens/queue/worker", never: []string{"github.com/nats-io/nats-server/", "github.com/prometheus/", mod + "count/queens/queue/server"}, must: []string{mod + "count/queens/queue/client"}},
		{pkg: mod + "count/queens/queue", never: []string{"github.com/nats-io/", "github.com/prometheus/"}},
		{pkg: mod + "count/queens/queue/internal/layout", never: []string{"github.com/nats-io/nats-server/", "github.com/prometheus/"}},
		{pkg: mod + "scripts/memtable", never: []string{"github.com/nats-io/", mod + "count/queens/queue"}},
		{pkg: mod + "count/queens/queue/server", must: []string{"github.com/nats-io/nats-server/"}},
	} {
		out, err := exec.Command("go", "list", "-deps", c.pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", c.pkg, err)
		}
		deps := strings.Fields(string(out))
		has := func(prefix string) []string {
			var in []string
			for _, d := range deps {
				if d == prefix || strings.HasPrefix(d, prefix) || strings.HasPrefix(d, prefix+"/") {
					in = append(in, d)
				}
			}
			return in
		}
		for _, p := range c.never {
			if in := has(p); len(in) > 0 {
				t.Errorf("%s links %s (%d packages, the first %s)", c.pkg, p, len(in), slices.Min(in))
			}
		}
		for _, p := range c.must {
			if len(has(p)) == 0 {
				t.Errorf("%s does not link %s: the check cannot see what it looks for", c.pkg, p)
			}
		}
	}
}
