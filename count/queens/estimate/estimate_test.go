package estimate

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/shard"
)

// TestCovers: the interval of the count covers the known value at small n
// on both of the join's paths and for the backtracker, and the estimate
// is reproducible: the same seed, the same count estimate.
func TestCovers(t *testing.T) {
	for _, c := range []struct {
		spec queens.Spec
		path string
	}{
		{queens.Spec{N: 14, Method: queens.Join}, "tables"},
		{queens.Spec{N: 16, Method: queens.Join}, "bounded"},
		{queens.Spec{N: 17, Method: queens.Join, Depth: 3}, "bounded"},
		{queens.Spec{N: 12, Method: queens.Constellations}, ""},
	} {
		e, opt := queens.Execution{Path: c.path, Workers: 2}, Options{Seed: 7, Samples: 60, Strata: 6, Budget: 2 * time.Second}
		a, err := Run(context.Background(), c.spec, e, opt)
		if err != nil {
			t.Fatal(err)
		}
		if a.Covered == nil || !*a.Covered {
			t.Errorf("n = %d %s: %+v does not cover %d", c.spec.N, c.path, a.Count, *a.Known)
		}
		if a.CPUSeconds.Estimate <= 0 || a.CPUSeconds.Low > a.CPUSeconds.Estimate || a.CPUSeconds.High < a.CPUSeconds.Estimate {
			t.Errorf("n = %d: CPU %+v", c.spec.N, a.CPUSeconds)
		}
		b, err := Run(context.Background(), c.spec, e, opt)
		if err != nil {
			t.Fatal(err)
		}
		if a.Count != b.Count {
			t.Errorf("n = %d seed 7 twice: %+v then %+v", c.spec.N, a.Count, b.Count)
		}
		// The join's Work does not depend on the machine or its load: the
		// same seed gives the same Work; only its prices move.
		if c.spec.Method == queens.Join {
			if a.Work == nil || b.Work == nil || *a.Work != *b.Work {
				t.Errorf("n = %d seed 7 twice: Work %+v then %+v", c.spec.N, a.Work, b.Work)
			}
			if a.Prices == nil || a.PriceRuns < 1 || a.PriceSpread < 1 || a.PriceMedian < 1 || a.PriceMedian > a.PriceSpread {
				t.Errorf("n = %d: prices %+v from %d runs, spread %g, median %g", c.spec.N, a.Prices, a.PriceRuns, a.PriceSpread, a.PriceMedian)
			}
		}
		if q := a.TaskHours; q == nil || !(0 < q.P50 && q.P50 <= q.P90 && q.P90 <= q.P99 && q.P99 <= q.Max) {
			t.Errorf("n = %d: task quantiles %+v", c.spec.N, a.TaskHours)
		}
		opt.Seed = 8
		d, _ := Run(context.Background(), c.spec, e, opt)
		if d.Count == a.Count && c.spec.N >= 16 {
			t.Errorf("n = %d: seeds 7 and 8 gave the same sample", c.spec.N)
		}
		t.Logf("n = %d %s: count %.4g (%.4g..%.4g), known %d; CPU %.3g s (%.3g..%.3g)", c.spec.N, c.path, a.Count.Estimate, a.Count.Low, a.Count.High, *a.Known, a.CPUSeconds.Estimate, a.CPUSeconds.Low, a.CPUSeconds.High)
	}
}

// TestShard: an estimate of one shard draws from the tasks count --shard
// counts; its interval covers that shard's exact total, and it names the
// shard instead of the whole count's known value.
func TestShard(t *testing.T) {
	spec := queens.Spec{N: 16, Method: queens.Join}
	e := queens.Execution{Path: "tables", Workers: 2}
	p, err := queens.NewPlan(spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, idx := range []shard.Index{{I: 0, K: 4}, {I: 3, K: 4}} {
		ids, err := shard.Select(p.Estimates(), idx)
		if err != nil {
			t.Fatal(err)
		}
		r, err := queens.Count(context.Background(), p, e, ids, queens.Options{})
		if err != nil {
			t.Fatal(err)
		}
		a, err := Run(context.Background(), spec, e, Options{Seed: 3, Samples: 40, Strata: 4, Budget: 2 * time.Second, Shard: idx})
		if err != nil {
			t.Fatal(err)
		}
		exact := float64(r.Total.Lo)
		if a.Shard != idx.String() || a.ShardTasks != len(ids) || a.Known != nil || !a.Count.Contains(exact) {
			t.Errorf("shard %s: %s, %d tasks, known %v, count %+v; want %d tasks and %g inside", idx, a.Shard, a.ShardTasks, a.Known, a.Count, len(ids), exact)
		}
	}
	if _, err := Run(context.Background(), spec, e, Options{Samples: 40, Shard: shard.Index{I: 0, K: 1000}}); !errors.Is(err, queens.ErrInvalid) {
		t.Errorf("a shard of more shards than tasks: %v, want queens.ErrInvalid", err)
	}
}

// TestBatchedRows: where the count counts its tasks in batches, which
// build their south row lists once, the estimate's row entries follow
// the count's (metered over the whole count), not those of tasks
// counted alone (several times more).
func TestBatchedRows(t *testing.T) {
	spec := queens.Spec{N: 16, Method: queens.Join}
	e := queens.Execution{Path: "bounded", Workers: 2, Memory: 256 << 20}
	p, err := queens.NewPlan(spec)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := p.Fit(e); err != nil || b.Batch < 2 {
		t.Fatalf("n = 16 in 256 MiB: %+v, %v; want batches", b, err)
	}
	r, err := queens.Count(context.Background(), p, e, count.All(p.Len()), queens.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, err := Run(context.Background(), spec, e, Options{Seed: 7, Samples: 60, Strata: 6, Budget: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	got, want := a.Work.Rows, r.Metered.Work.Rows
	if got < 0.75*want || got > want/0.75 {
		t.Errorf("estimated %.4g row entries, the count built %.4g", got, want)
	}
	t.Logf("row entries: estimated %.4g, counted %.4g", got, want)
}
