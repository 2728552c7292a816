package queens

import (
	"context"
	"fmt"
	"runtime"
	"testing"

	"github.com/nqcount/nqcount/count/queens/kernel"
)

// BenchmarkCount measures whole counts per n, method, kernel and worker
// count, named so that benchstat can compare columns, e.g.
//
//	go test -run '^$' -bench 'Count/n=16' -count 6 ./count/queens | benchstat -col /kernel -
func BenchmarkCount(b *testing.B) {
	workers := []int{1}
	if p := runtime.GOMAXPROCS(0); p > 1 {
		workers = append(workers, p)
	}
	for n := 12; n <= 16; n++ {
		for _, m := range backtracking {
			for _, k := range kernel.All() {
				if !k.Supported() {
					continue
				}
				for _, w := range workers {
					name := fmt.Sprintf("n=%d/method=%s/kernel=%s/workers=%d", n, m, k.Name, w)
					b.Run(name, func(b *testing.B) {
						var nodes, sols float64
						for b.Loop() {
							r, err := countN(context.Background(), n, opts{Method: m, Kernel: k.Name, Workers: w})
							if err != nil {
								b.Fatal(err)
							}
							nf, _ := r.Nodes.Big().Float64()
							sf, _ := r.Total.Big().Float64()
							nodes += nf
							sols += sf
						}
						s := b.Elapsed().Seconds()
						b.ReportMetric(nodes/s, "nodes/s")
						b.ReportMetric(sols/s, "solutions/s")
					})
				}
			}
		}
	}
}

// BenchmarkStartup measures what a count does before its workers start:
// cutting the plan and ordering its tasks largest first (which computes
// the size estimates). It runs on one goroutine of the caller, so on a
// machine with many cores it is time every worker waits.
//
//	go test -run '^$' -bench Startup -count 6 ./count/queens
func BenchmarkStartup(b *testing.B) {
	for _, n := range []int{19, 22, 27} {
		for _, w := range []int{64, 256} {
			b.Run(fmt.Sprintf("n=%d/workers=%d", n, w), func(b *testing.B) {
				for b.Loop() {
					p, err := NewPlan(Spec{N: n, Method: Constellations, Depth: 0, Workers: w})
					if err != nil {
						b.Fatal(err)
					}
					ids := make([]int, len(p.Tasks()))
					for i := range ids {
						ids[i] = i
					}
					p.LargestFirst(ids)
				}
			})
		}
	}
}

// BenchmarkSymmetric times the search for the symmetric solutions that
// the unique count needs (searchSymmetric; symmetricCounts keeps its
// result per process).
func BenchmarkSymmetric(b *testing.B) {
	for _, n := range []int{14, 17} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for b.Loop() {
				searchSymmetric(n)
			}
		})
	}
}
