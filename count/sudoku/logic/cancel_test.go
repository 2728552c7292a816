package logic

import (
	"context"
	"sync/atomic"
	"testing"
)

// countdown is a context that ends at the n-th look at it: a solve
// cancelled at a point that does not depend on the machine's speed.
type countdown struct {
	context.Context
	n atomic.Int64
}

func (c *countdown) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestCancelledSolveLeavesNoTrace cancels solves of chain puzzles at
// several points and rates each puzzle again afterwards: the rating must
// be serate's. (A cancelled solve once handed its engine, with the chain
// searches it had cut short, to the next solve, which took the partial
// search's step: 10.8 for a 10.3 puzzle.)
func TestCancelledSolveLeavesNoTrace(t *testing.T) {
	for _, f := range loadSEFixtures(t) {
		if f.er < 6.5 || (slowFixture(f) && (testing.Short() || raceEnabled)) {
			continue
		}
		for _, n := range []int64{5, 15, 50, 150, 500} {
			ctx := &countdown{Context: context.Background()}
			ctx.n.Store(n)
			if _, err := ExplainContext(ctx, f.puzzle); err == nil {
				continue // solved before the countdown ended
			}
			r, err := Rate(f.puzzle)
			if err != nil || r.ER != f.er || r.EP != f.ep || r.ED != f.ed {
				t.Errorf("%s (%s), after a solve cancelled at look %d: %v %v, serate %.1f/%.1f/%.1f", f.puzzle, f.rule, n, r, err, f.er, f.ep, f.ed)
			}
		}
	}
}
