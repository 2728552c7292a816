package client

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/internal/layout"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

// A record whose Worker field held escape sequences
// cleared the operator's screen and forged a line in status. Every field
// a worker wrote is checked when read: such a record is refused, and what
// is kept of it (the name, a failure's error, a report) holds no control
// character.
func TestEscapeLadenWorkerName(t *testing.T) {
	srv := serve(t, server.Config{})
	c := connect(t, srv.URL(), Auth{})
	sub := submit(t, c, queens.Spec{N: 8}, SubmitOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	evil := "\x1b[2J\x1b[H\x1b]0;x\x07CONFLICT task 0: all fine\r\n"
	r := queue.Record{Job: sub.Job, Hash: sub.Info.Hash, Algorithm: queens.AlgorithmVersion, Task: 0, Count: 1, Kind: queue.KindCount, Worker: evil, Program: "p\x1b[31m"}
	r.Seal()
	b, _ := json.Marshal(r)
	if _, err := c.js.Publish(ctx, layout.Subject(layout.ResultPrefix, sub.Job, 0), b); err != nil {
		t.Fatal(err)
	}
	f, _ := json.Marshal(queue.Failure{Job: sub.Job, Task: 1, Kind: queue.KindCount, Worker: evil, Error: evil, Delivery: 1, Time: time.Now()})
	if _, err := c.js.Publish(ctx, layout.Subject(layout.FailPrefix, sub.Job, 1), f); err != nil {
		t.Fatal(err)
	}
	kv, err := c.js.KeyValue(ctx, queue.WorkersBucket)
	if err != nil {
		t.Fatal(err)
	}
	rep, _ := json.Marshal(queue.Seen{ID: "ok-worker", Host: evil, Kernel: evil, Program: evil, Held: []string{evil}})
	if _, err := kv.Put(ctx, "ok-worker", rep); err != nil {
		t.Fatal(err)
	}
	forged, _ := json.Marshal(queue.Seen{ID: evil})
	if _, err := kv.Put(ctx, "forged", forged); err != nil {
		t.Fatal(err)
	}
	s := status(t, c, sub.Job)
	if len(s.Refused) != 1 || !strings.Contains(s.Refused[0].Reason, "worker id") {
		t.Fatalf("refused %+v, want the record with the escape-laden worker", s.Refused)
	}
	if len(s.Workers) != 1 || s.Workers[0].ID != "ok-worker" {
		t.Errorf("workers %+v, want the forged report left out", s.Workers)
	}
	out, _ := json.Marshal(s)
	var all []string
	all = append(all, s.Refused[0].Worker, s.Refused[0].Reason)
	for _, f := range s.Failed {
		all = append(all, f.Worker, f.Error)
	}
	for _, w := range s.Workers {
		all = append(all, w.Host, w.Kernel, w.Program, strings.Join(w.Held, ","))
	}
	for _, v := range all {
		if strings.ContainsAny(v, "\x1b\x07\r\n") {
			t.Errorf("a field read from a worker holds a control character: %q", v)
		}
	}
	if len(s.Failed) != 1 {
		t.Errorf("failed %+v, want the one failure", s.Failed)
	}
	if strings.Contains(string(out), `\u001b`) {
		t.Errorf("the status holds an escape: %s", out)
	}
	for _, in := range []string{"w1", "ok/host-1.a"} {
		if queue.Printable(in) != in {
			t.Errorf("Printable(%q) = %q, want it unchanged", in, queue.Printable(in))
		}
	}
	if p := queue.Printable(evil); strings.ContainsAny(p, "\x1b\x07\r\n") {
		t.Errorf("Printable(%q) = %q", evil, p)
	}
}
