package join

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"time"
)

// The estimator (package estimate) counts a random sample of a plan's
// work to predict a whole count's CPU time and total. Its unit is the row
// set (a task, a south row set of it) counted as the count would count it,
// on the same path; on the bounded path it may join only a random share of
// the streamed side's index keys, so that a row set of minutes at n = 28
// costs seconds, and scale what those keys gave.

// SampleOptions say which of a task's row sets Counter.Sample counts, and
// how.
type SampleOptions struct {
	// Rows are indexes into the task's canonical row sets (those with a
	// mirror weight, in the order Count takes them; see
	// TaskSample.Rows), each counted once.
	Rows []int
	// KeyFraction is, on the bounded path, the chance with which each
	// index key of the streamed side is joined (0 or 1: all of them);
	// Seed, with the task and row set, decides which keys.
	KeyFraction float64
	Seed        uint64
	// Clock reads the CPU time of the calling thread (the caller keeps
	// the goroutine on one thread); nil times nothing.
	Clock func() time.Duration
}

// TaskSample is what Counter.Sample measured of a task.
type TaskSample struct {
	// Rows is the number of the task's canonical row sets.
	Rows int
	// Fixed is the CPU time of what the task does once whatever its row
	// sets (its north row lists on the bounded path).
	Fixed time.Duration
	// Each holds a RowSample per row set of SampleOptions.Rows.
	Each []RowSample
}

// RowSample is one row set's sample. Its estimate of the row set's count
// is Count / KeyFraction, of its CPU time Made + Joined / KeyFraction.
type RowSample struct {
	// Count is the completions found through the keys joined, times the
	// row set's mirror weight and the frame's weight.
	Count uint64
	// KeyFraction is the share of keys joined: the one asked for, or 1 on
	// the table path and for row sets joined whole.
	KeyFraction float64
	// Made is the CPU time of what the row set does whatever the keys
	// (its south lists, both sides' half boards), Joined that of joining
	// the keys kept; Halves the half boards made (its nodes).
	Made, Joined time.Duration
	Halves       uint64
}

// Sample counts the row sets of task id that opt names, as Count would
// (on the same path), and times them. Tables, if the path uses them,
// must be built first (Prepare). ctx stops it as it stops Count.
func (c *Counter) Sample(ctx context.Context, id int, opt SampleOptions) (TaskSample, error) {
	if id < 0 || id >= c.layout.Len() {
		return TaskSample{}, fmt.Errorf("join: task %d out of range 0..%d", id, c.layout.Len()-1)
	}
	if err := c.prepare(ctx, func(uint64) error { return ctx.Err() }); err != nil {
		return TaskSample{}, err
	}
	clock := opt.Clock
	if clock == nil {
		clock = func() time.Duration { return 0 }
	}
	t := c.layout.Task(id)
	f := c.frames[t.Frame]
	var rows []uint32
	for _, rb := range c.layout.southSets(f, t, nil) {
		if f.canonical(t.Top, rb) > 0 {
			rows = append(rows, rb)
		}
	}
	out := TaskSample{Rows: len(rows)}
	weight := c.layout.Frames[t.Frame].Weight
	yield := func(uint64) error { return ctx.Err() }
	if c.bounded {
		s := c.getB()
		defer c.putB(s)
		s.yield, s.work, s.keep = yield, 0, nil
		t0 := clock()
		s.north[1].build(f.g.HN, f.q, t.Top, f.ce, f.att[ne])
		s.north[0].build(f.g.HN, f.q, f.ft&^t.Top, f.cw, f.att[nw])
		out.Fixed = clock() - t0
		frac := opt.KeyFraction
		if frac <= 0 || frac >= 1 {
			frac = 1
		}
		for _, i := range opt.Rows {
			if i < 0 || i >= len(rows) {
				return out, fmt.Errorf("join: row set %d of task %d out of range 0..%d", i, id, len(rows)-1)
			}
			rb := rows[i]
			s.halves, s.joinTime, s.clock = 0, 0, nil
			s.keep, s.usedFrac = nil, 1
			if frac < 1 {
				s.keepSeed, s.keepFrac = opt.Seed^uint64(id)<<20^uint64(rb), frac
			} else {
				s.keepFrac = 1
			}
			s.clock = opt.Clock
			t0 := clock()
			n, err := f.countRowsBounded(t.Top, rb, s)
			total := clock() - t0
			s.clock, s.keepFrac = nil, 1
			if err != nil {
				return out, err
			}
			w := f.canonical(t.Top, rb) * weight
			out.Each = append(out.Each, RowSample{
				Count: n * w, KeyFraction: s.usedFrac, Made: total - s.joinTime, Joined: s.joinTime, Halves: s.halves,
			})
		}
		return out, nil
	}
	s := scratchPool.Get().(*scratch)
	defer scratchPool.Put(s)
	s.k, s.work, s.yield = c.kernel, 0, yield
	defer func() { s.yield = nil }()
	for _, i := range opt.Rows {
		if i < 0 || i >= len(rows) {
			return out, fmt.Errorf("join: row set %d of task %d out of range 0..%d", i, id, len(rows)-1)
		}
		rb := rows[i]
		s.stat = stats{}
		t0 := clock()
		n, err := f.countRows(t.Top, rb, s)
		d := clock() - t0
		if err != nil {
			return out, err
		}
		w := f.canonical(t.Top, rb) * weight
		out.Each = append(out.Each, RowSample{Count: n * w, KeyFraction: 1, Made: d, Halves: s.stat.halves})
	}
	return out, nil
}

// keepKeys sets s.keep for a join of nkeys keys: each key kept with
// chance s.keepFrac, decided by a hash of s.keepSeed and the key; with a
// fraction of 1 (or when every key would be kept) s.keep is nil. It
// records the fraction used in s.usedFrac.
func (s *bscratch) keepKeys(nkeys int) {
	s.keep = nil
	s.usedFrac = 1
	if s.keepFrac >= 1 || s.keepFrac <= 0 {
		return
	}
	// Keep ⌈f·nkeys⌉ keys, at least one: with few keys a draw of each
	// alone would often keep none. They are the keys with the least
	// hashes of the seed, a uniform choice of k of them, so that each is
	// kept with the same chance, k/nkeys: the fraction the join scales
	// by.
	k := min(nkeys, max(1, int(math.Ceil(s.keepFrac*float64(nkeys)))))
	if k == nkeys {
		return
	}
	order := make([]int, nkeys)
	for key := range order {
		order[key] = key
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Compare(mix(s.keepSeed+uint64(a)), mix(s.keepSeed+uint64(b)))
	})
	s.keep = resize(s.keepBuf, nkeys)
	s.keepBuf = s.keep
	clear(s.keep)
	for _, key := range order[:k] {
		s.keep[key] = true
	}
	s.usedFrac = float64(k) / float64(nkeys)
}

// mix is a 64-bit finaliser (SplitMix64's).
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	x ^= x >> 31
	return x
}

// needKeys returns, when s.keep samples the streamed side's keys, which
// of the held side's keys some kept key can pair with (those disjoint
// from it): only they are filed. nil when every key is kept.
func (s *bscratch) needKeys(nkeys int) []bool {
	if s.keep == nil {
		return nil
	}
	s.need = resize(s.need, nkeys)
	clear(s.need)
	all := nkeys - 1
	for x, kept := range s.keep {
		if !kept {
			continue
		}
		comp := all &^ x
		for z := comp; ; z = (z - 1) & comp {
			s.need[z] = true
			if z == 0 {
				break
			}
		}
	}
	return s.need
}
