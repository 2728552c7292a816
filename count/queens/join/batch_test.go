package join

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestBatches: the tasks of a layout cut into batches by Batches and
// counted by CountBatch give each task the count and the nodes it has
// counted alone, on the bounded path with arenas that force passes and
// the stream, whole and split layouts, odd and even cuts (the even ones
// under the diagonal symmetry); each task is in one batch, whose tasks
// share their south row lists; and a batch builds fewer row list entries
// than its tasks alone.
func TestBatches(t *testing.T) {
	for _, g := range []Geometry{Even(12), Column(13), Even(14), Column(15), Band(12, 2)} {
		for _, split := range []int{0, 3} {
			l, err := NewLayout(g, split)
			if err != nil {
				t.Fatal(err)
			}
			type result struct{ count, nodes uint64 }
			var want []result
			ids := rand.New(rand.NewPCG(uint64(g.N), 1)).Perm(l.Len())
			for _, arena := range []int{0, 1, 4096} {
				// Each task counted alone, and the Work of all.
				m := NewMeter(1 << 62)
				alone, err := NewCounter(l, Best(), CounterOptions{Bounded: true, Arena: arena, Meter: m})
				if err != nil {
					t.Fatal(err)
				}
				want = want[:0]
				for id := range l.Len() {
					n, nodes, err := alone.Count(context.Background(), id, nil)
					if err != nil {
						t.Fatal(err)
					}
					want = append(want, result{n, nodes})
				}
				wantWork := m.Report().Work
				for _, most := range []int{2, 5, 1 << 20} {
					t.Run(fmt.Sprintf("%s/split=%d/arena=%d/most=%d", g, split, arena, most), func(t *testing.T) {
						m := NewMeter(1 << 62)
						c, err := NewCounter(l, Best(), CounterOptions{Bounded: true, Arena: arena, Meter: m})
						if err != nil {
							t.Fatal(err)
						}
						seen := make([]bool, l.Len())
						batched := 0
						var total uint64
						for _, b := range c.Batches(ids, most) {
							if len(b) > most {
								t.Fatalf("a batch of %d tasks, most %d", len(b), most)
							}
							if len(b) > 1 {
								batched++
							}
							counts, nodes, err := c.CountBatch(context.Background(), b, nil)
							if err != nil {
								t.Fatal(err)
							}
							for i, id := range b {
								if seen[id] {
									t.Fatalf("task %d in two batches", id)
								}
								seen[id] = true
								if got := (result{counts[i], nodes[i]}); got != want[id] {
									t.Fatalf("task %d in a batch of %d: %+v, alone %+v", id, len(b), got, want[id])
								}
								total += counts[i]
							}
						}
						for id, ok := range seen {
							if !ok {
								t.Fatalf("task %d in no batch", id)
							}
						}
						if total != known[g.N] {
							t.Fatalf("total %d, want %d", total, known[g.N])
						}
						got := m.Report()
						if got.Tasks != l.Len() {
							t.Fatalf("metered %d tasks of %d", got.Tasks, l.Len())
						}
						if batched == 0 {
							t.Fatalf("no batch of more than one task")
						}
						// The same work but for the row lists, fewer.
						rows := got.Work.Rows
						got.Work.Rows = wantWork.Rows
						if rows >= wantWork.Rows || got.Work != wantWork {
							t.Fatalf("row entries %v and work %+v batched, %v and %+v alone", rows, got.Work, wantWork.Rows, wantWork)
						}
					})
				}
			}
		}
	}
}

// TestBatchRefused: tasks that share no south row lists, or out of range,
// are refused as a batch; on the table path every batch is one task.
func TestBatchRefused(t *testing.T) {
	l, err := NewLayout(Even(12), 0)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := NewCounter(l, Best(), CounterOptions{Bounded: true})
	var a, b int
	for id := 1; id < l.Len(); id++ {
		if c.batchKey(l.Task(id)) != c.batchKey(l.Task(0)) {
			a, b = 0, id
			break
		}
	}
	if _, _, err := c.CountBatch(context.Background(), []int{a, b}, nil); err == nil {
		t.Errorf("tasks %d and %d counted as a batch", a, b)
	}
	if _, _, err := c.CountBatch(context.Background(), []int{0, l.Len()}, nil); err == nil {
		t.Error("a task out of range counted")
	}
	tables, _ := NewCounter(l, Best(), CounterOptions{})
	for _, bt := range tables.Batches([]int{0, 1, 2, 3}, 4) {
		if len(bt) != 1 {
			t.Fatalf("a batch of %d tasks on the table path", len(bt))
		}
	}
}
