package worker

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

// stopOnFetch is the work consumer of a worker that stops a moment
// (delay, busy-waited) after a fetch has gone to the server.
type stopOnFetch struct {
	jetstream.Consumer
	stop  context.CancelFunc
	delay time.Duration
}

func (c stopOnFetch) Fetch(n int, opts ...jetstream.FetchOpt) (jetstream.MessageBatch, error) {
	b, err := c.Consumer.Fetch(n, opts...)
	for t0 := time.Now(); time.Since(t0) < c.delay; {
	}
	c.stop()
	return b, err
}

// A worker that stopped while its fetch was at the server lost the tasks
// the server had sent to it: they counted as delivered and arrived
// nowhere, so under a delivery limit of 1 they were given up
// (TestQueueJobControl failed so in about 1 run of 6; this test lost all
// 32 tasks before the fix). Here a puller stops during its fetch, 300
// times, at moments from 0 to 300 µs after it: every task stays in the
// queue once the ack wait has passed.
func TestStopDuringFetch(t *testing.T) {
	srv := serve(t, server.Config{Settings: queue.Settings{AckWait: time.Second, MaxDeliver: 1}})
	c := connect(t, srv.URL(), client.Auth{})
	sub := submit(t, c, queens.Spec{N: 12}, client.SubmitOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	js := jsOf(c)
	cons, err := js.Consumer(ctx, queue.TasksStream, queue.WorkConsumer)
	if err != nil {
		t.Fatal(err)
	}
	giveBack := func(h held) {
		if !republish(js, h.msg) {
			h.msg.Nak()
		}
	}
	newHeld := func(m jetstream.Msg, pulled bool) held { return held{msg: m, stop: func() {}, pulled: pulled} }
	for round := range 300 {
		pctx, stop := context.WithCancel(ctx)
		p := newPuller(stopOnFetch{cons, stop, time.Duration(round%30) * 10 * time.Microsecond}, 6, 2, newHeld, giveBack, t.Logf)
		<-p.start(pctx)
		for h := range p.in {
			giveBack(h)
		}
		stop()
	}
	time.Sleep(1500 * time.Millisecond) // the ack wait, and some
	info, err := cons.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.NumPending != uint64(sub.Tasks) || info.NumAckPending != 0 {
		t.Fatalf("%d tasks in the queue and %d waiting for an answer; want %d and 0", info.NumPending, info.NumAckPending, sub.Tasks)
	}
}
