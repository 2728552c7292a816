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
	// index key of the streamed side (of the blocks' side, for a row set
	// joined as lists) is joined (0 or 1: all of them);
	// EntryFraction the chance with which each north entry of either
	// side makes its half boards (0 or 1: all of them), so that a row set
	// whose half boards alone take minutes to make is sampled too. Seed,
	// with the task and row set, decides which keys and entries.
	KeyFraction, EntryFraction float64
	Seed                       uint64
	// Clock reads the CPU time of the calling thread (the caller keeps
	// the goroutine on one thread); nil times nothing.
	Clock func() time.Duration
}

// TaskSample is what Counter.Sample measured of a task.
type TaskSample struct {
	// Rows is the number of the task's canonical row sets.
	Rows int
	// Fixed is the CPU time of what the task does once whatever its row
	// sets (its north row lists on the bounded path), FixedWork its Work.
	Fixed     time.Duration
	FixedWork Work
	// Each holds a RowSample per row set of SampleOptions.Rows.
	Each []RowSample
}

// RowSample is one row set's sample: Estimate and CPU are its unbiased
// estimates of the row set's count and CPU time.
type RowSample struct {
	// Count is the completions found through the keys and entries
	// sampled, times the row set's mirror weight and the frame's weight.
	Count uint64
	// KeyFraction and EntryFraction are the shares of keys and entries
	// sampled: those asked for, or 1 on the table path and for row sets
	// counted whole.
	KeyFraction, EntryFraction float64
	// The CPU times of the row set's parts: its lists and what does not
	// depend on the sample (Lists), making and filing the held side's
	// half boards (Fill), making and staging the streamed side's (Stream,
	// over Passes passes), and joining the pairs sampled (Joined). On
	// the table path the whole row set is in Lists.
	Lists, Fill, Stream, Joined time.Duration
	// Passes is the passes the sample took, Whole the passes the whole
	// row set takes in an arena of the count's size (the streamed side is
	// made again for each).
	Passes, Whole int
	// Halves is the half boards made (the nodes of what was sampled).
	Halves uint64
	// JoinedWhole, for a sample of keys or entries, is its estimate of
	// joining the whole row set (see joinEstimate); 0 otherwise.
	JoinedWhole time.Duration
	// Work is the Work of counting the whole row set: counted as it ran,
	// or, for a sample of entries, projected from the sample's buckets
	// (the keys and passes the count would take).
	Work Work
}

// Estimate is the sample's estimate of the row set's count: each pair of
// half boards was joined with chance KeyFraction·EntryFraction².
func (r RowSample) Estimate() float64 {
	return float64(r.Count) / (r.KeyFraction * r.EntryFraction * r.EntryFraction)
}

// CPU is the sample's estimate of the row set's CPU time counted whole:
// each side's making scaled by the entries sampled, the streamed side's
// by the passes of the whole row set, the joining by the pairs sampled.
func (r RowSample) CPU() time.Duration {
	g := r.EntryFraction
	j := float64(r.JoinedWhole)
	if j == 0 {
		j = float64(r.Joined) / (r.KeyFraction * g * g)
	}
	t := float64(r.Lists) + float64(r.Fill)/g + j
	if r.Passes > 0 {
		t += float64(r.Stream) / float64(r.Passes) * float64(r.Whole) / g
	}
	return time.Duration(t)
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
		out.FixedWork.Rows = float64(s.north[0].size() + s.north[1].size())
		frac, efrac := unit(opt.KeyFraction), unit(opt.EntryFraction)
		for _, i := range opt.Rows {
			if i < 0 || i >= len(rows) {
				return out, fmt.Errorf("join: row set %d of task %d out of range 0..%d", i, id, len(rows)-1)
			}
			rb := rows[i]
			seed := opt.Seed ^ uint64(id)<<20 ^ uint64(rb)
			s.halves, s.joinTime, s.fillTime, s.streamTime, s.listTime = 0, 0, 0, 0, 0
			s.passes, s.held = 0, 0
			s.keep, s.usedFrac = nil, 1
			s.keepSeed, s.keepFrac = seed, frac
			s.entryThresh, s.entrySeed = 0, mix(seed)
			if efrac < 1 {
				s.entryThresh = uint64(efrac * (1 << 63) * 2)
			}
			s.clock = opt.Clock
			if efrac < 1 {
				// A sample of entries, joined as the count would join the
				// whole row set; its Work projected.
				t0, made := clock(), s.ls.stat.made
				n, w, err := f.sampleRowsBounded(t.Top, rb, efrac, s)
				d := clock() - t0
				s.clock, s.keepFrac, s.entryThresh = nil, 1, 0
				if err != nil {
					return out, err
				}
				wt := f.canonical(t.Top, rb) * weight
				out.Each = append(out.Each, RowSample{
					Count: n * wt, KeyFraction: 1, EntryFraction: efrac, Joined: d, Work: w,
					Halves: s.ls.stat.made - made,
				})
				continue
			}
			rows0, st0 := s.rows, s.ls.stat
			n, err := f.countRowsBounded(t.Top, rb, s)
			s.clock, s.keepFrac, s.entryThresh = nil, 1, 0
			if err != nil {
				return out, err
			}
			w := f.canonical(t.Top, rb) * weight
			r := RowSample{
				Count: n * w, KeyFraction: s.usedFrac, EntryFraction: efrac,
				Lists: s.listTime, Fill: s.fillTime, Stream: s.streamTime - s.joinTime, Joined: s.joinTime,
				Passes: s.passes, Whole: s.passes, Halves: s.halves,
				Work: workSince(&st0, &s.ls.stat, rows0, s.rows),
			}
			if s.keep != nil && !f.diag {
				// The whole held side, in the count's arena (a row set
				// of several joins, under the diagonal symmetry, is
				// scaled by its joining time instead).
				r.Whole = c.passes(float64(s.held))
				r.JoinedWhole = s.joinEstimate(1, r.Whole)
			}
			out.Each = append(out.Each, r)
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
		out.Each = append(out.Each, RowSample{Count: n * w, KeyFraction: 1, EntryFraction: 1, Lists: d, Halves: s.stat.halves, Work: s.stat.work()})
	}
	return out, nil
}

// workSince is the Work between two readings of a scratch's stats and
// its row entries built.
func workSince(a, b *stats, rows0, rows1 uint64) Work {
	w := b.work()
	w.Add(a.work().Scale(-1))
	w.Rows = float64(rows1 - rows0)
	return w
}

// unit is x as a sampling chance: 1 (all) unless 0 < x < 1.
func unit(x float64) float64 {
	if x <= 0 || x >= 1 {
		return 1
	}
	return x
}

// passes is the passes of the bounded path's arena that a held side of
// held half boards takes, its last chunks part filled.
func (c *Counter) passes(held float64) int {
	room := float64(c.arena) - float64(arenaChunk)*float64(1<<streamMaxBits)/2
	room = max(room, float64(c.arena)/2)
	return max(1, int(math.Ceil(held/room)))
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

// keepEntry reports whether north entry x of column set c of the side
// being made is made: always, unless the estimator samples the entries.
func (s *bscratch) keepEntry(c, x int) bool {
	if s.entryThresh == 0 {
		return true
	}
	return mix(s.entrySeed^uint64(s.sideID)<<62^uint64(c)<<32^uint64(x)) < s.entryThresh
}

// keyStat is what one key of the streamed side staged (over all passes)
// and what its blocks cost: flushes, the held patterns they were counted
// against, and their CPU time.
type keyStat struct {
	staged         uint64
	flushes, items int
	time           time.Duration
}

// joinEstimate estimates, from a sampled row set's per-key costs, the CPU
// time of joining the whole row set in whole passes, with entries the
// share of north entries sampled. A block costs about the same whatever
// its fill (the matcher's tables are as wide for 20 patterns as for
// 512): a block's cost is B to build plus c per held pattern counted
// against it. The sample's keys fit B and c (least squares over keys, no
// intercept; c alone when B comes out below 0); the whole row set has, per key, the blocks its staged
// patterns fill at 1/entries times the sample's, each counted against
// 1/entries times the held patterns, in each of whole passes; keys not
// kept count as the kept ones do on average. It falls back to scaling
// the time by the pairs sampled when the fit fails.
func (s *bscratch) joinEstimate(entries float64, whole int) time.Duration {
	plain := time.Duration(float64(s.joinTime) / (s.usedFrac * entries * entries))
	var sff, sfa, saa, sfj, saj float64
	keys := 0
	for _, k := range s.kstat {
		if k.flushes == 0 {
			continue
		}
		f, a, j := float64(k.flushes), float64(k.items), float64(k.time)
		sff += f * f
		sfa += f * a
		saa += a * a
		sfj += f * j
		saj += a * j
		keys++
	}
	det := sff*saa - sfa*sfa
	if keys < 8 || det <= 0 || saa == 0 {
		return plain
	}
	b := (sfj*saa - saj*sfa) / det
	c := (sff*saj - sfa*sfj) / det
	if b < 0 {
		// Building is lost in the noise: c alone.
		b, c = 0, saj/saa
	}
	if c < 0 {
		return plain
	}
	passes := float64(max(1, s.passes))
	var t float64
	for _, k := range s.kstat {
		if k.flushes == 0 {
			continue
		}
		perPass := float64(k.flushes) / passes
		sweep := float64(k.items) / perPass // held patterns one block meets over all passes
		blocks := math.Ceil(float64(k.staged) / passes / entries / blockSize)
		t += blocks * (float64(whole)*b + c*sweep/entries)
	}
	return time.Duration(t / s.usedFrac)
}
