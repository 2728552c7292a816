package queens

import (
	"context"
	"errors"
	"math"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count"
)

func TestCountPartition(t *testing.T) {
	for _, m := range []Method{Constellations, Halving} {
		p, err := NewPlan(Spec{N: 12, Method: m, Depth: 2, Workers: StableWorkers})
		if err != nil {
			t.Fatal(err)
		}
		est := p.Estimates()
		var even, odd []int
		for id := range p.Tasks() {
			if est[id] == 0 {
				t.Fatalf("%s: task %d has estimate 0", m, id)
			}
			if id%2 == 0 {
				even = append(even, id)
			} else {
				odd = append(odd, id)
			}
		}
		var mu sync.Mutex
		seen := 0
		e, opt := Execution{Workers: 2, Path: "auto"}, Options{OnDone: func(int, count.Result) error { mu.Lock(); seen++; mu.Unlock(); return nil }}
		a, err := Count(context.Background(), p, e, even, opt)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Count(context.Background(), p, e, odd, opt)
		if err != nil {
			t.Fatal(err)
		}
		if a.Path != "" || a.MemoryLimit != 0 {
			t.Errorf("%s: path %q, memory limit %d: want none for a backtracking method", m, a.Path, a.MemoryLimit)
		}
		want, _ := Known(12)
		if got := a.Total.Add(b.Total); got != count.U128(want) || seen != len(p.Tasks()) || a.Tasks+b.Tasks != len(p.Tasks()) {
			t.Fatalf("%s: %s, %d tasks seen", m, got, seen)
		}
		if u, _ := KnownUnique(12); UniqueFrom(12, a.Total.Add(b.Total)) != count.U128(u) {
			t.Fatalf("%s: unique wrong", m)
		}
	}
	p, _ := NewPlan(Spec{N: 8, Method: Halving, Depth: 1, Workers: 1})
	if _, err := Count(context.Background(), p, Execution{}, []int{99}, Options{}); err == nil {
		t.Fatal("id out of range accepted")
	}
}

// The estimates must rank tasks roughly like their true cost.
func TestEstimatesCorrelate(t *testing.T) {
	p, _ := NewPlan(Spec{N: 13, Method: Constellations, Depth: 0, Workers: StableWorkers})
	est := p.Estimates()
	var mu sync.Mutex
	nodes := make([]uint64, len(p.Tasks()))
	if _, err := Count(context.Background(), p, Execution{Workers: 2}, count.All(len(p.Tasks())), Options{OnDone: func(id int, r count.Result) error {
		mu.Lock()
		nodes[id] = r.Nodes
		mu.Unlock()
		return nil
	}}); err != nil {
		t.Fatal(err)
	}
	// Pearson correlation of estimate and nodes.
	var se, sn, see, snn, sen float64
	for i := range est {
		e, n := float64(est[i]), float64(nodes[i])
		se, sn, see, snn, sen = se+e, sn+n, see+e*e, snn+n*n, sen+e*n
	}
	k := float64(len(est))
	cov := sen/k - se/k*sn/k
	r := cov / math.Sqrt((see/k-se/k*se/k)*(snn/k-sn/k*sn/k))
	t.Logf("correlation of estimate and nodes over %d tasks: %.3f", len(est), r)
	if r < 0.7 {
		t.Errorf("estimates correlate poorly with cost: r = %.3f", r)
	}
}

// TestCancelMidTask cancels a count whose every task takes minutes (n = 22
// in two tasks per worker at most): it must stop within a slice or so,
// with ctx's error, no result, nothing reported as done, and the live
// progress must have moved before.
func TestCancelMidTask(t *testing.T) {
	p, err := NewPlan(Spec{N: 22, Method: Halving, Depth: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var live atomic.Uint64
	var slices atomic.Int64
	var done atomic.Int64
	opt := Options{
		OnDone: func(int, count.Result) error { done.Add(1); return nil },
		OnProgress: func(id int, n uint64) {
			live.Add(sliceNodes) // n is the task's running total
			if slices.Add(1) == 4 {
				cancel()
			}
		},
	}
	start := time.Now()
	r, err := Count(ctx, p, Execution{Workers: 2}, []int{0, 1, 2, 3}, opt)
	el := time.Since(start)
	if !errors.Is(err, context.Canceled) || r.Total != (count.Uint128{}) {
		t.Fatalf("got %+v, %v; want context.Canceled and no total", r, err)
	}
	if done.Load() != 0 || live.Load() < 4*sliceNodes {
		t.Fatalf("%d tasks reported done, %d live nodes", done.Load(), live.Load())
	}
	// A task of n = 22 takes minutes; a slice a few milliseconds. The
	// bound is loose for loaded machines and -race.
	if el > 20*time.Second {
		t.Fatalf("cancel took %v", el)
	}
}

// TestProgressAddsUpToNodes: the last progress of every task adds up to
// the count's nodes.
func TestProgressAddsUpToNodes(t *testing.T) {
	var mu sync.Mutex
	last := map[int]uint64{}
	r, err := countN(context.Background(), 13, opts{Workers: 2, OnProgress: func(id int, n uint64) {
		mu.Lock()
		last[id] = n
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	var sum uint64
	for _, n := range last {
		sum += n
	}
	if r.Nodes != count.U128(sum) || len(last) != r.Tasks {
		t.Fatalf("nodes %s over %d tasks, progress %d over %d", r.Nodes, r.Tasks, sum, len(last))
	}
}
