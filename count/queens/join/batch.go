package join

import (
	"context"
	"fmt"
	"math/bits"
)

// Tasks of the bounded path counted together. A task builds the north
// row lists of its top and, for each of its south row sets, the south
// ones: the same south lists again for every top of the frame with as
// many queens (n = 20: each 48 times, n = 22: 87), which makes building
// row lists most of what the bounded path costs beyond the table path at
// small n. A batch of such tasks builds each top's north lists once and
// holds them, then each south row set's lists once for all of its tasks.
// Each task's count and nodes are its own, as counted alone.

// batchKey is what the tasks of a batch share: their frame, the size of
// their top (which fixes their south row sets) and their part of them.
type batchKey struct {
	frame, size, part int
}

func (c *Counter) batchKey(t Task) batchKey {
	return batchKey{t.Frame, bits.OnesCount32(t.Top), t.Part}
}

// Batches cuts ids into batches of at most most tasks that share their
// south row lists, in the order of their first ids; on the table path,
// or with most < 2, each task is a batch of its own. Ids out of range
// are batches of their own (Count refuses them).
func (c *Counter) Batches(ids []int, most int) [][]int {
	if !c.bounded || most < 2 {
		out := make([][]int, len(ids))
		for i := range ids {
			out[i] = ids[i : i+1]
		}
		return out
	}
	open := map[batchKey]int{} // the batch of out still taking tasks
	var out [][]int
	for _, id := range ids {
		if id < 0 || id >= c.layout.Len() {
			out = append(out, []int{id})
			continue
		}
		k := c.batchKey(c.layout.Task(id))
		if i, ok := open[k]; ok && len(out[i]) < most {
			out[i] = append(out[i], id)
			continue
		}
		open[k] = len(out)
		out = append(out, []int{id})
	}
	return out
}

// CountBatch counts tasks ids together: their counts and nodes, each as
// Count gives it. On the bounded path the tasks must share their south
// row lists (one batch of Batches; Count counts a batch of one); on the
// table path they are counted one by one. progress and ctx are Count's,
// for the whole batch.
func (c *Counter) CountBatch(ctx context.Context, ids []int, progress func(work uint64)) (counts, nodes []uint64, err error) {
	counts, nodes = make([]uint64, len(ids)), make([]uint64, len(ids))
	if !c.bounded {
		for i, id := range ids {
			if counts[i], nodes[i], err = c.Count(ctx, id, progress); err != nil {
				return nil, nil, err
			}
		}
		return counts, nodes, nil
	}
	if len(ids) == 0 {
		return counts, nodes, nil
	}
	tops := make([]uint32, len(ids))
	var t0 Task
	for i, id := range ids {
		if id < 0 || id >= c.layout.Len() {
			return nil, nil, fmt.Errorf("join: task %d out of range 0..%d", id, c.layout.Len()-1)
		}
		t := c.layout.Task(id)
		if i == 0 {
			t0 = t
		} else if c.batchKey(t) != c.batchKey(t0) {
			return nil, nil, fmt.Errorf("join: tasks %d and %d share no south row lists", ids[0], id)
		}
		tops[i] = t.Top
	}
	if c.meter != nil {
		c.meter.maybeCalibrate(c.kernel)
	}
	f := c.frames[t0.Frame]
	s := c.getB()
	defer c.putB(s)
	s.yield, s.work, s.keep = yielder(ctx, progress), 0, nil
	s.rbs = c.layout.southSets(f, t0, s.rbs)
	rows0, st0 := s.rows, s.ls.stat
	err = f.countBatch(tops, s.rbs, s, counts, nodes)
	s.yield = nil
	if err != nil {
		return nil, nil, err
	}
	if progress != nil && s.work > 0 {
		progress(s.work)
	}
	if c.meter != nil {
		c.meter.add(workSince(&st0, &s.ls.stat, rows0, s.rows), len(ids))
	}
	for i := range counts {
		if counts[i], err = c.weigh(t0.Frame, counts[i]); err != nil {
			return nil, nil, err
		}
	}
	return counts, nodes, ctx.Err()
}

// countBatch counts the completions of f whose east queens take the rows
// of each top of tops in the north quadrants and, for each of rbs, the
// rows rb of the south ones (each weighted by its mirror class, see
// canonical), adding them to counts and their half boards (the table
// path's nodes) to halves.
func (f *frame) countBatch(tops, rbs []uint32, s *bscratch, counts, halves []uint64) error {
	for len(s.batch) < len(tops) {
		s.batch = append(s.batch, [2]rowList{})
	}
	held := s.batch[:len(tops)]
	for i, rt := range tops {
		if err := f.buildNorth(rt, s); err != nil {
			return err
		}
		held[i][0].swapLists(&s.north[0])
		held[i][1].swapLists(&s.north[1])
	}
	s.wts = resize(s.wts, len(tops))
	for _, rb := range rbs {
		some := false
		for i, rt := range tops {
			s.wts[i] = f.canonical(rt, rb)
			some = some || s.wts[i] != 0
		}
		if !some {
			continue
		}
		if err := f.buildSouth(rb, s); err != nil {
			return err
		}
		for i, rt := range tops {
			if s.wts[i] == 0 {
				continue
			}
			s.north[0].swapLists(&held[i][0])
			s.north[1].swapLists(&held[i][1])
			h0 := s.halves
			n, err := f.countRowsBuilt(rt, rb, s)
			s.north[0].swapLists(&held[i][0])
			s.north[1].swapLists(&held[i][1])
			if err != nil {
				return err
			}
			counts[i] += s.wts[i] * n
			halves[i] += s.halves - h0
		}
	}
	return nil
}

// swapLists swaps the lists of l and o, each keeping its leaf groups
// (what building a list needs, not reading it).
func (l *rowList) swapLists(o *rowList) {
	l.h, o.h = o.h, l.h
	l.q, o.q = o.q, l.q
	l.rows, o.rows = o.rows, l.rows
	l.start, o.start = o.start, l.start
	l.ents, o.ents = o.ents, l.ents
}
