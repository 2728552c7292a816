package estimate

import (
	"testing"

	"github.com/nqcount/nqcount/count/queens/join"
)

// TestMedianRun: the headline prices are one run's, the run at which the
// Work costs the median (the upper median of an even number), whatever
// order the runs came in; the least is taken price by price over all
// runs, so it may be no run's.
func TestMedianRun(t *testing.T) {
	work := join.Work{Large: 100, Sorted: 10}
	run := func(large, sorted float64) join.Prices { return join.Prices{Large: large, Sorted: sorted} }
	for _, c := range []struct {
		name                string
		runs                []join.Prices
		med, least, dearest join.Prices
	}{
		{"one", []join.Prices{run(2, 5)}, run(2, 5), run(2, 5), run(2, 5)},
		// Costs 250, 205, 310: the median is the second run's.
		{"three", []join.Prices{run(2, 5), run(1.5, 5.5), run(3, 1)}, run(2, 5), run(1.5, 1), run(3, 1)},
		// Costs 120, 400, 210, 300: the upper median, 300.
		{"four", []join.Prices{run(1, 2), run(4, 0), run(2, 1), run(2.5, 5)}, run(2.5, 5), run(1, 0), run(4, 0)},
	} {
		med, least, dearest := medianRun(c.runs, work)
		if med != c.med || least != c.least || dearest != c.dearest {
			t.Errorf("%s: median %+v, least %+v, dearest %+v; want %+v, %+v, %+v", c.name, med, least, dearest, c.med, c.least, c.dearest)
		}
	}
}
