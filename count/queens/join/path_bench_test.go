package join

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/nqcount/nqcount/internal/cputime"
)

// BenchmarkPaths counts the same random tasks of n = 20, 21 and 22 on the
// table path and on the bounded path, alternately, each iteration both
// ways, and reports each path's CPU time (the counting thread's own) and
// their ratio: the price of bounded memory, paired on one thread in one
// run.
//
//	go test -run '^$' -bench Paths -benchtime 3x ./count/queens/join
func BenchmarkPaths(b *testing.B) {
	for _, n := range []int{20, 21, 22} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			l, err := NewLayout(Cut(n), 0)
			if err != nil {
				b.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(uint64(n), 3))
			ids := make([]int, 6)
			for i := range ids {
				ids[i] = rng.IntN(l.Len())
			}
			tables, _ := NewCounter(l, Best(), CounterOptions{})
			if err := tables.Prepare(context.Background(), nil); err != nil {
				b.Fatal(err)
			}
			bounded, _ := NewCounter(l, Best(), CounterOptions{Bounded: true, Arena: 1 << 26})
			var cpu [2]time.Duration
			b.ResetTimer()
			counters := []*Counter{tables, bounded}
			for i := 0; b.Loop(); i++ {
				for k := range 2 {
					j := k ^ i&1 // alternate which path goes first
					c := counters[j]
					t0, _ := cputime.Thread()
					var sum uint64
					for _, id := range ids {
						x, _, err := c.Count(context.Background(), id, nil)
						if err != nil {
							b.Fatal(err)
						}
						sum += x
					}
					t1, _ := cputime.Thread()
					cpu[j] += t1 - t0
					_ = sum
				}
			}
			b.ReportMetric(cpu[0].Seconds()/float64(b.N), "tables-cpu-s/op")
			b.ReportMetric(cpu[1].Seconds()/float64(b.N), "bounded-cpu-s/op")
			b.ReportMetric(cpu[1].Seconds()/cpu[0].Seconds(), "bounded/tables")
		})
	}
}
