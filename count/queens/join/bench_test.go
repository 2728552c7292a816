package join

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// benchSizes are the boards BenchmarkJoin counts: n = 14 and 15 by
// default, or the list in NQCOUNT_JOIN_BENCH_N (for example "18,19" to
// profile the sizes the bar is set at).
func benchSizes(b *testing.B) []int {
	v := os.Getenv("NQCOUNT_JOIN_BENCH_N")
	if v == "" {
		return []int{14, 15}
	}
	var ns []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 4 || n > 23 {
			b.Fatalf("NQCOUNT_JOIN_BENCH_N=%q: want board sizes 4 to 23, comma-separated", v)
		}
		ns = append(ns, n)
	}
	return ns
}

// BenchmarkJoin counts whole boards by the join on one goroutine, tables
// built before the timer, per kernel and with the cut a count chooses
// first (Geometries(n)[0]), so that kernels and inner loops compare on
// the work count does:
//
//	go test -run '^$' -bench Join -count 6 ./count/queens/join | benchstat -col /kernel -
func BenchmarkJoin(b *testing.B) {
	for _, n := range benchSizes(b) {
		g := Geometries(n)[0]
		p, err := NewLayout(g, 0)
		if err != nil {
			b.Fatal(err)
		}
		for _, k := range Kernels() {
			if !k.Supported() {
				continue
			}
			b.Run(fmt.Sprintf("n=%d/kernel=%s", n, k.Name), func(b *testing.B) {
				c, err := NewCounter(p, k, CounterOptions{})
				if err != nil {
					b.Fatal(err)
				}
				ctx := context.Background()
				if err := c.Prepare(ctx, nil); err != nil {
					b.Fatal(err)
				}
				var total uint64
				for b.Loop() {
					total = 0
					for id := range p.Len() {
						x, _, err := c.Count(ctx, id, nil)
						if err != nil {
							b.Fatal(err)
						}
						total += x
					}
				}
				if total != known[n] {
					b.Fatalf("counted %d, want %d", total, known[n])
				}
				b.ReportMetric(float64(known[n])*float64(b.N)/b.Elapsed().Seconds(), "solutions/s")
			})
		}
	}
}
