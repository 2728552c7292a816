package join

import (
	"context"
	"testing"
	"time"
)

// TestMeterMatchesSample checks the Work a Meter records of a count
// against the Work the estimator's samples measure of the same tasks
// counted whole: the same accounting, so the same sums, on both paths and
// with an arena small enough for many passes.
func TestMeterMatchesSample(t *testing.T) {
	ctx := context.Background()
	for _, g := range []Geometry{Even(14), Column(15)} {
		l, err := NewLayout(g, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range []CounterOptions{{}, {Bounded: true}, {Bounded: true, Arena: 4 * arenaChunk}} {
			m := NewMeter(0)
			mopt := opt
			mopt.Meter = m
			counted, _ := NewCounter(l, Best(), mopt)
			sampled, _ := NewCounter(l, Best(), opt)
			var want Work
			for id := range l.Len() {
				ts, err := sampled.Sample(ctx, id, SampleOptions{})
				if err != nil {
					t.Fatal(err)
				}
				rows := make([]int, ts.Rows)
				for i := range rows {
					rows[i] = i
				}
				if ts, err = sampled.Sample(ctx, id, SampleOptions{Rows: rows}); err != nil {
					t.Fatal(err)
				}
				want.Add(ts.FixedWork)
				for _, r := range ts.Each {
					want.Add(r.Work)
				}
				if _, _, err := counted.Count(ctx, id, nil); err != nil {
					t.Fatal(err)
				}
			}
			got := m.Report()
			if got.Tasks != l.Len() || got.Work != want {
				t.Errorf("n=%d %+v: metered %d tasks, %+v; the samples' Work %+v", g.N, opt, got.Tasks, got.Work, want)
			}
			if got.PriceRuns != 0 || got.Prices != nil {
				t.Errorf("n=%d: %d reference runs with no interval", g.N, got.PriceRuns)
			}
			if want.Halves == 0 || (opt.Bounded && want.Rows == 0) {
				t.Errorf("n=%d %+v: no Work measured: %+v", g.N, opt, want)
			}
		}
	}
}

// TestMeterPrices checks that a Meter takes its reference runs between
// tasks once its interval has passed, and prices the Work by them.
func TestMeterPrices(t *testing.T) {
	l, err := NewLayout(Even(12), 2)
	if err != nil {
		t.Fatal(err)
	}
	m := NewMeter(time.Nanosecond)
	c, _ := NewCounter(l, Best(), CounterOptions{Bounded: true, Meter: m})
	for id := range 2 {
		if _, _, err := c.Count(context.Background(), id, nil); err != nil {
			t.Fatal(err)
		}
	}
	r := m.Report()
	if r.Tasks != 2 || r.Work.Halves == 0 {
		t.Fatalf("metered %+v", r)
	}
	if _, ok := cpuThread(); !ok {
		if r.PriceRuns != 0 {
			t.Fatalf("%d reference runs without a thread clock", r.PriceRuns)
		}
		return
	}
	if r.PriceRuns != 2 || r.Prices == nil {
		t.Fatalf("%d reference runs after 2 tasks, prices %v", r.PriceRuns, r.Prices)
	}
	if r.LeastSeconds <= 0 || r.MedianSeconds < r.LeastSeconds {
		t.Fatalf("least %v s, median %v s", r.LeastSeconds, r.MedianSeconds)
	}
	if got := r.Prices.Cost(r.Work).Seconds(); got != r.LeastSeconds {
		t.Fatalf("least %v s, the Work at the least prices %v s", r.LeastSeconds, got)
	}
	if never := NewMeter(time.Hour); never.Report().PriceRuns != 0 {
		t.Fatal("a reference run before the interval")
	}
}
