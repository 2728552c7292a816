package worker

import (
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/count/queens/queue/server"
)

// BenchmarkQueue measures how many tasks per second the queue hands out
// and takes results back for, with small tasks (n = 11 to 14 at depths 1
// and 2: thousands of tasks of tens of µs each) counted by one worker
// with 4 slots, so that the queue's own cost per task dominates. b.N jobs
// of plans not seen before are submitted (untimed), then one worker,
// started and timed, counts them all and stops when the queue is empty.
func BenchmarkQueue(b *testing.B) {
	srv := serve(b, server.Config{Settings: queue.Settings{AckWait: 30 * time.Second}})
	c := connect(b, srv.URL(), client.Auth{})
	// Constellations, pinned: the join, the default from n = 12, cuts
	// these into fewer, larger tasks.
	cs := queens.Constellations
	specs := []queens.Spec{{N: 12, Method: cs, Depth: 1}, {N: 11, Method: cs, Depth: 1}, {N: 13, Method: cs, Depth: 1},
		{N: 11, Method: cs, Depth: 2}, {N: 12, Method: cs, Depth: 2}, {N: 14, Method: cs, Depth: 1}}
	tasks := 0
	for i := range b.N {
		tasks += submit(b, c, specs[i%len(specs)], client.SubmitOptions{}).Added
	}
	b.ResetTimer()
	start := time.Now()
	work(b, srv.URL(), 1, func(cfg *Config) { cfg.Workers = benchSlots; cfg.Logf = nil })
	b.ReportMetric(float64(tasks)/time.Since(start).Seconds(), "tasks/s")
	b.ReportMetric(float64(tasks), "tasks")
}

var benchSlots = 4
