package join

import (
	"context"
	"math"
	"testing"
)

// TestSampleWhole: sampling every row set of every task whole gives the
// count, on both paths, and the nodes Count gives.
func TestSampleWhole(t *testing.T) {
	for _, g := range []Geometry{Even(12), Column(13)} {
		l, err := NewLayout(g, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range []CounterOptions{{}, {Bounded: true}} {
			c, _ := NewCounter(l, Best(), opt)
			var total uint64
			for id := range l.Len() {
				ts, err := c.Sample(context.Background(), id, SampleOptions{Rows: nil})
				if err != nil {
					t.Fatal(err)
				}
				rows := make([]int, ts.Rows)
				for i := range rows {
					rows[i] = i
				}
				ts, err = c.Sample(context.Background(), id, SampleOptions{Rows: rows})
				if err != nil {
					t.Fatal(err)
				}
				var halves uint64
				for _, r := range ts.Each {
					if r.KeyFraction != 1 {
						t.Fatalf("fraction %v", r.KeyFraction)
					}
					total += r.Count
					halves += r.Halves
				}
				_, nodes, _ := c.Count(context.Background(), id, nil)
				if halves != nodes {
					t.Fatalf("%s task %d: %d half boards sampled, Count made %d", g, id, halves, nodes)
				}
			}
			if total != known[g.N] {
				t.Fatalf("%s bounded %v: sampled whole %d, want %d", g, opt.Bounded, total, known[g.N])
			}
		}
	}
}

// TestSampleShares: joining a share of the keys, making the half boards
// of a share of the north entries, or both, and scaling gives the count
// on average over seeds (unbiased), different counts for different seeds
// (it does sample), and entries sampled make fewer half boards.
func TestSampleShares(t *testing.T) {
	l, err := NewLayout(Even(16), 0)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := NewCounter(l, Best(), CounterOptions{Bounded: true})
	// The largest task, whose row sets have many keys.
	est := l.Estimates()
	id := 0
	for i := range est {
		if est[i] > est[id] {
			id = i
		}
	}
	ts, _ := c.Sample(context.Background(), id, SampleOptions{})
	rows := make([]int, ts.Rows)
	for i := range rows {
		rows[i] = i
	}
	whole, _ := c.Sample(context.Background(), id, SampleOptions{Rows: rows})
	var truth float64
	var halves uint64
	var work Work
	for _, r := range whole.Each {
		truth += float64(r.Count)
		halves += r.Halves
		work.Add(r.Work)
	}
	for _, tc := range []struct{ keys, entries float64 }{{0.25, 1}, {1, 0.5}, {0.5, 0.5}} {
		const seeds = 60
		var sum, sum2 float64
		var made uint64
		var projected Work
		distinct := map[float64]bool{}
		for seed := range uint64(seeds) {
			s, err := c.Sample(context.Background(), id, SampleOptions{Rows: rows, KeyFraction: tc.keys, EntryFraction: tc.entries, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			var x float64
			for _, r := range s.Each {
				x += r.Estimate()
				made += r.Halves
				projected.Add(r.Work.Scale(1.0 / seeds))
			}
			sum += x
			sum2 += x * x
			distinct[x] = true
		}
		mean := sum / seeds
		se := math.Sqrt((sum2/seeds - mean*mean) / seeds)
		if len(distinct) < seeds/2 {
			t.Errorf("%+v: only %d distinct estimates over %d seeds", tc, len(distinct), seeds)
		}
		if math.Abs(mean-truth) > 4*se {
			t.Errorf("%+v: mean estimate %.0f ± %.0f, truth %.0f: biased", tc, mean, se, truth)
		}
		if share := float64(made) / seeds / float64(halves); tc.entries < 1 && math.Abs(share-tc.entries) > 0.1 {
			t.Errorf("%+v: made %.2f of the half boards", tc, share)
		}
		// A sample of entries projects the whole row sets' Work: the
		// half boards (and the sample's own), the lookups.
		if tc.entries < 1 {
			look := func(w Work) float64 { return w.Small + w.Large + w.Half }
			if r := projected.Sorted / work.Sorted; math.Abs(r-1) > 0.05 {
				t.Errorf("%+v: projected %.0f half boards sorted, whole %.0f", tc, projected.Sorted, work.Sorted)
			}
			if r := projected.Halves / work.Halves; math.Abs(r-1) > 0.15 {
				t.Errorf("%+v: projected %.0f half boards made, whole %.0f", tc, projected.Halves, work.Halves)
			}
			if r := look(projected) / look(work); math.Abs(r-1) > 0.25 {
				t.Errorf("%+v: projected %.0f lookups, whole %.0f (%+v against %+v)", tc, look(projected), look(work), projected, work)
			}
			t.Logf("%+v: projected %+v, whole %+v", tc, projected, work)
		}
	}
}
