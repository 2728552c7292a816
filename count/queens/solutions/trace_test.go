package solutions

import (
	"context"
	"slices"
	"testing"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/kernel"
)

// traced runs a whole traced search and checks every event on the way:
// the board it carries is the one a reader rebuilds from the events alone
// (the rule the web page follows), placements are safe, solutions verify.
func traced(t *testing.T, n int, order Order) (sols [][]int, places, backtracks uint64) {
	t.Helper()
	// The reader's view: the queens in the order they were placed.
	type queen struct{ r, c int }
	var stack []queen
	err := TraceOrder(n, order, 0, func(ev Event) bool {
		switch ev.Kind {
		case Place:
			places++
			if ev.Depth < 1 || ev.Depth > len(stack)+1 {
				t.Fatalf("n=%d %v: place at depth %d with %d queens before", n, order, ev.Depth, len(stack))
			}
			stack = append(stack[:ev.Depth-1], queen{ev.Row, ev.Col})
		case Backtrack:
			backtracks++
			if ev.Depth > len(stack) {
				t.Fatalf("n=%d %v: backtrack to depth %d with %d queens", n, order, ev.Depth, len(stack))
			}
			stack = stack[:ev.Depth]
		case Found:
			if ev.Depth != n || len(stack) != n {
				t.Fatalf("n=%d %v: solution at depth %d", n, order, ev.Depth)
			}
			if err := Verify(ev.Cols); err != nil {
				t.Fatalf("n=%d %v: solution %v: %v", n, order, ev.Cols, err)
			}
			if ev.Index != len(sols)+1 {
				t.Fatalf("n=%d %v: solution index %d, want %d", n, order, ev.Index, len(sols)+1)
			}
			sols = append(sols, slices.Clone(ev.Cols))
		}
		want := make([]int, n)
		for i := range want {
			want[i] = -1
		}
		for _, q := range stack {
			if want[q.r] >= 0 {
				t.Fatalf("n=%d %v: two queens in row %d", n, order, q.r)
			}
			want[q.r] = q.c
		}
		if !slices.Equal(ev.Board, want) {
			t.Fatalf("n=%d %v: event %v carries board %v, the events so far give %v", n, order, ev, ev.Board, want)
		}
		if ev.Kind == Place {
			partial := slices.DeleteFunc(slices.Clone(ev.Board), func(c int) bool { return c < 0 })
			rows := make([]int, 0, n)
			for r, c := range ev.Board {
				if c >= 0 {
					rows = append(rows, r)
				}
			}
			for i := range partial {
				for j := i + 1; j < len(partial); j++ {
					dr, dc := rows[j]-rows[i], partial[j]-partial[i]
					if dc == 0 || dc == dr || dc == -dr {
						t.Fatalf("n=%d %v: board %v has attacking queens", n, order, ev.Board)
					}
				}
			}
		}
		if order == TopDown && !slices.Equal(ev.Cols, ev.Board[:ev.Depth]) {
			t.Fatalf("n=%d: Cols %v and Board %v disagree", n, ev.Cols, ev.Board)
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	return sols, places, backtracks
}

// TestTraceOrdersFindEverySolution checks that both orders find exactly
// the solutions the counter counts: as many as queens.Count and OEIS
// A000170 say, each
// once, the same set as Enumerator's; the top-down trace in Enumerator's
// order with its node count, the most-constrained one with the nodes the
// kernels count on the empty board.
func TestTraceOrdersFindEverySolution(t *testing.T) {
	maxN := 12
	if testing.Short() {
		maxN = 10
	}
	generic, err := kernel.Lookup("generic")
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= maxN; n++ {
		known, _ := queens.Known(n)
		var ref [][]int
		var refNodes uint64
		if n <= 10 {
			ref = all(t, n, false)
		}
		e, _ := NewEnumerator(n)
		for e.Next() {
		}
		refNodes = e.Nodes()
		var f kernel.Frame
		f.Empty(n)
		kSols, kNodes, err := generic.Count(&f)
		if err != nil {
			t.Fatal(err)
		}

		top, topNodes, _ := traced(t, n, TopDown)
		mc, mcNodes, _ := traced(t, n, MostConstrained)
		p, err := queens.NewPlan(queens.Spec{N: n, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		res, err := queens.Count(context.Background(), p, queens.Execution{Workers: 1}, count.All(p.Len()), queens.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if uint64(len(top)) != known || uint64(len(mc)) != known || !res.Total.IsUint64() || res.Total.Lo != known {
			t.Errorf("n=%d: top-down found %d, most-constrained %d, the counter %s, OEIS %d", n, len(top), len(mc), res.Total, known)
		}
		if topNodes != refNodes {
			t.Errorf("n=%d: top-down trace placed %d queens, Enumerator %d", n, topNodes, refNodes)
		}
		if mcNodes != kNodes || uint64(len(mc)) != kSols {
			t.Errorf("n=%d: most-constrained trace %d solutions %d nodes, generic kernel %d solutions %d nodes", n, len(mc), mcNodes, kSols, kNodes)
		}
		if ref != nil {
			if !slices.EqualFunc(top, ref, slices.Equal) {
				t.Errorf("n=%d: top-down trace and Enumerator list different solutions", n)
			}
			sorted := slices.Clone(mc)
			slices.SortFunc(sorted, slices.Compare)
			if !slices.EqualFunc(sorted, ref, slices.Equal) {
				t.Errorf("n=%d: most-constrained trace finds another set of solutions", n)
			}
		}
		if n >= 8 && mcNodes >= topNodes {
			t.Errorf("n=%d: most-constrained order placed %d queens, top-down %d: no saving", n, mcNodes, topNodes)
		}
	}
}

func TestTraceOrderStops(t *testing.T) {
	for _, order := range []Order{TopDown, MostConstrained} {
		k := 0
		if err := TraceOrder(8, order, 3, func(ev Event) bool {
			if ev.Kind == Found {
				k++
			}
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if k != 3 {
			t.Errorf("%v: %d solutions traced, want 3", order, k)
		}
		steps := 0
		TraceOrder(8, order, 0, func(ev Event) bool { steps++; return steps < 10 })
		if steps != 10 {
			t.Errorf("%v: %d steps after f said stop at 10", order, steps)
		}
	}
	if TraceOrder(8, Order(7), 0, func(Event) bool { return true }) == nil {
		t.Error("unknown order accepted")
	}
	if TraceOrder(0, MostConstrained, 0, nil) == nil || TraceOrder(MaxN+1, MostConstrained, 0, nil) == nil {
		t.Error("bad n accepted")
	}
}

func TestParseOrder(t *testing.T) {
	for s, want := range map[string]Order{"topdown": TopDown, "rows": TopDown, "Constrained": MostConstrained, "kernel": MostConstrained} {
		if got, err := ParseOrder(s); err != nil || got != want {
			t.Errorf("ParseOrder(%q) = %v, %v", s, got, err)
		}
		if got, _ := ParseOrder(want.String()); got != want {
			t.Errorf("%v does not round-trip", want)
		}
	}
	if _, err := ParseOrder("diagonal"); err == nil {
		t.Error("bad order accepted")
	}
}
