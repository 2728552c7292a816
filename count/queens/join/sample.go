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

// sampleRowsBounded makes a sample of the half boards of row set (rt,
// rb), each north entry's kept with chance g (keepEntry), joins the
// sampled sides with the index keys the count would choose, and returns
// the compatible pairs found (an estimate of g² of the row set's count)
// and the Work of counting the whole row set as the bounded path counts
// it, projected from the sampled buckets (see projectJoin): the lists
// joined whole, or the passes that the worker's budget requires.
func (f *frame) sampleRowsBounded(rt, rb uint32, g float64, s *bscratch) (uint64, Work, error) {
	ls := &s.ls
	ls.k, ls.yield, ls.keep = s.k, s.yield, nil
	var w Work
	lse, lsw := &s.south[1], &s.south[0]
	lse.build(f.g.HS, f.q, rb, f.ce, f.att[se])
	lsw.build(f.g.HS, f.q, f.fb&^rb, f.cw, f.att[sw])
	w.Rows = float64(lse.size() + lsw.size())
	east := f.makeSide(&f.sides[1], &s.north[1], lse, s.cols)
	if east.bound == 0 {
		return 0, w, nil
	}
	s.cols = east.cols[len(east.cols):]
	west := f.makeSide(&f.sides[0], &s.north[0], lsw, s.cols)
	s.cols = east.cols[:0]
	if !f.diag {
		n, sw, err := f.sampleSides(&east, &west, g, s)
		w.Add(sw)
		return n, w, err
	}
	var total uint64
	var first Work // the first join's
	err := f.eachDiag(rt, rb, &east, &west, s, func(e, wst *side, j diagJoin) error {
		n, sw, err := f.sampleSides(e, wst, g, s)
		total += j.weight * n
		w.Add(sw)
		if j.west == diagRest && j.east == diagRest {
			first = sw
		}
		return err
	})
	if err != nil {
		return total, w, err
	}
	// Where the count makes each side once, class after class
	// (joinListsDiag, joinDiagHeld), its half boards are the two sides'
	// once, not each join's parts again as eachDiag makes them.
	if nE, nW, once := f.diagOnce(rt, rb, &east, &west, g, s); once {
		w.Halves = nE + nW
	} else if wk, ok := f.diagKeptSample(rt, rb, &east, &west, g, s); ok {
		// Where it joins in passes under the diagonal symmetry
		// (joinPassesDiag): the first join as eachDiag's, the other
		// joins' as joinPassesDiag makes and joins them.
		wd := Work{Rows: w.Rows}
		wd.Add(first)
		wd.Add(wk)
		w = wd
	}
	return total, w, nil
}

// diagKeptSample reports whether the count joins row set (rt, rb), whose
// sides are east and west and which it makes neither as lists nor with
// one side held (diagOnce), in passes under the diagonal symmetry
// (joinPassesDiag), and then the Work of all but its first join: the
// kept classes made, and joined unkeyed with each other and with the
// other side's dAbove class, their sizes estimated from the north
// entries sampled with chance g.
func (f *frame) diagKeptSample(rt, rb uint32, east, west *side, g float64, s *bscratch) (Work, bool) {
	var w Work
	pl, ok := f.planDiagPasses(rt, rb, east, west, &s.ls, false)
	if !ok {
		return w, false
	}
	sides := [2]*side{west, east}
	var kept [2][dAbove + 1]float64
	var above [2]float64
	size := func(id int, c uint8) float64 {
		part := f.subSide(sides[id], id, 1<<c, pl.p1, pl.p2, s.sub[id][:0])
		s.sub[id] = part.cols
		return float64(f.sampleCount(&part, id, s)) / g
	}
	for id := range sides {
		kept[id][dEq1], kept[id][dEq2], above[id] = size(id, dEq1), size(id, dEq2), size(id, dAbove)
		w.Halves += kept[id][dEq1] + kept[id][dEq2]
	}
	if w.Halves > float64(s.capacity/8) {
		return w, false
	}
	// A kept class against a class of the other side made in batches of
	// diagBatch, the cheaper way round each (keptBlocks).
	batch := float64(diagBatch(s.capacity))
	join := func(kept, other float64) {
		if kept <= 0 || other <= 0 {
			return
		}
		b := min(other, batch)
		wk := s.ls.projectJoin([]float64{kept}, []float64{b}, 0, f.m)
		if !keptBlocks(&s.ls, int(kept), int(b), f.m) {
			wk = s.ls.projectJoin([]float64{b}, []float64{kept}, 0, f.m)
		}
		w.Add(wk.Scale(other / b))
	}
	for id := range pl.with {
		for _, x := range pl.with[id] {
			join(kept[1-id][x.class], above[id])
		}
	}
	for _, j := range pl.pairs {
		join(kept[1][classBit(j.east)], kept[0][classBit(j.west)])
	}
	return w, true
}

// diagMade is the classes of each side that the count of a row set under
// the diagonal symmetry makes (makeClasses).
const diagMade = 1<<dEq1 | 1<<dMid | 1<<dEq2 | 1<<dAbove

// diagOnce reports whether the count of row set (rt, rb), whose sides are
// east and west, makes each side once under the diagonal symmetry, as
// countRowsBounded chooses: as lists (joinListsDiag), or with the shorter
// side held whole (joinDiagHeld). nE and nW are the half boards it makes
// of each side, estimated from the north entries sampled with chance g.
func (f *frame) diagOnce(rt, rb uint32, east, west *side, g float64, s *bscratch) (nE, nW float64, once bool) {
	p1, p2 := f.diagKey(rt, rb)
	ue := f.subSide(east, 1, diagMade, p1, p2, s.sub[1][:0])
	s.sub[1] = ue.cols
	uw := f.subSide(west, 0, diagMade, p1, p2, s.sub[0][:0])
	s.sub[0] = uw.cols
	nE, nW = float64(f.sampleCount(&ue, 1, s))/g, float64(f.sampleCount(&uw, 0, s))/g
	most := float64(s.listMost())
	if s.listsFit(east.bound+west.bound) || nE+nW <= most {
		return nE, nW, true
	}
	held := nE
	if west.bound < east.bound {
		held = nW
	}
	return nE, nW, f.holdsShorter(east, west, s) && held*9/8 <= most
}

// sampleCount returns how many half boards of sd (side id) the sample of
// north entries makes: a count the sample's own half boards
// (RowSample.Halves) leave out.
func (f *frame) sampleCount(sd *side, id int, s *bscratch) int {
	ls := &s.ls
	made := ls.stat.made
	out := f.sampleHalves(sd, id, s, ls.e[:0])
	ls.e, ls.stat.made = out[:0], made
	return len(out)
}

// sampleHalves appends to out the half boards of sd (side id) that the
// sample of north entries makes (keepEntry).
func (f *frame) sampleHalves(sd *side, id int, s *bscratch, out []uint64) []uint64 {
	s.sideID = id
	for ci, c := range sd.cols {
		xs := s.kept(ci, sd.nl.list(c), 0, len(sd.nl.list(c)))
		if len(xs) == 0 {
			continue
		}
		if nb := f.southOf(sd, c, s); nb > 0 {
			out = f.crossNorth(sd, xs, nb, s, out)
		}
	}
	return out
}

// sampleSides is sampleRowsBounded's sample and projection of the join
// of sides east and west.
func (f *frame) sampleSides(east, west *side, g float64, s *bscratch) (uint64, Work, error) {
	ls := &s.ls
	var w Work
	made0 := ls.stat.made
	ls.e = f.sampleHalves(east, 1, s, ls.e[:0])
	if len(ls.e) == 0 {
		w.Halves = float64(ls.stat.made - made0)
		return 0, w, nil
	}
	ls.w = f.sampleHalves(west, 0, s, ls.w[:0])
	nE, nW := float64(len(ls.e))/g, float64(len(ls.w))/g
	if len(ls.w) == 0 {
		// The count makes the east side, and the west (empty).
		w.Halves = nE
		return 0, w, nil
	}
	// The keys, as the count chooses them: for the longer list.
	long, short := ls.e, ls.w
	if len(short) > len(long) {
		long, short = short, long
	}

	// Lists where the count makes them: where their bound fits, or where
	// their half boards do (listRoom).
	lists := s.listsFit(east.bound+west.bound) || nE+nW <= float64(s.listMost())
	if small, shortBlocks := f.smallPlan(east, west, ls); !lists && small {
		// joinSmall: each side made once, the short one's half boards
		// the blocks or the items of the long one's, unkeyed.
		n, err := f.join(ls.e, ls.w, ls)
		if err != nil {
			return 0, w, err
		}
		w.Halves = nE + nW
		short, long := nE, nW
		if west.bound < east.bound {
			short, long = nW, nE
		}
		hb, hi := []float64{short}, []float64{long}
		if !shortBlocks {
			hb, hi = hi, hb
		}
		w.Add(ls.projectJoin(hb, hi, 0, f.m))
		return n, w, nil
	}
	// The key choice below is the count's, made on the sample (its
	// samples of samples as large as the count's where the sample is).
	var kr keyer
	weighed := ls.stat.weighed
	if lists {
		k := f.indexBits(int(max(nE, nW)))
		if k > 0 && f.keylessCheaper(int(max(nE, nW)), int(min(nE, nW)), ls) {
			k = 0
		}
		kr = f.keys[k]
		if k > 0 && max(nE, nW)*min(nE, nW) >= keyChoiceWork {
			if c, ok := ls.joinBits(long, short, k, f.m, f.maxBits, 1/g, 1/g, 1, 1); ok {
				kr = c
			}
		}
	} else {
		sh, so := ls.e, ls.w
		if nW < nE {
			sh, so = ls.w, ls.e
		}
		kr = f.passKeys(ls, sh, so, 1/g, 1/g)
	}
	w.Weighed = float64(ls.stat.weighed - weighed)
	k := kr.bits
	// The whole row set's buckets, from the sample's (see smoothed),
	// before the sample's own join reorders its lists.
	he, hw := smoothed(ls.e, &kr, g), smoothed(ls.w, &kr, g)
	// The sample's own count, joined with keys for its own length.
	n, err := f.join(ls.e, ls.w, ls)
	if err != nil {
		return 0, w, err
	}
	w.Halves = nE + nW
	w.Sorted = nE + nW
	if k == 0 {
		w.Sorted = 0
	}
	hb, hi := he, hw
	if nW > nE {
		hb, hi = hw, he
	}
	if lists {
		w.Add(ls.projectJoin(hb, hi, k, f.m))
		return n, w, nil
	}
	// Passes: the samples that choose the keys, then the shorter side
	// by groups of classes (in rounds where a group outgrows its room),
	// and for each round the other side made again, in pieces.
	w.Halves += float64(s.sampleWant(east.bound, f.maxBits) + s.sampleWant(west.bound, f.maxBits))
	budget := 8*float64(s.capacity) - 64*vecPad
	held, other := min(nE, nW), max(nE, nW)
	hh, ho := he, hw
	if nW < nE {
		hh, ho = hw, he
	}
	heldMax, _ := passRoom(uint64(max(budget, 0)), math.MaxUint64)
	shift, groups := heldGroups(hh, k, heldMax)
	// The other side's classes, for otherGroups (where there are keys).
	var pb int
	var ocls [1 << passPrefix]float64
	if k > 0 {
		pb, ocls = classSizes(ho, k)
	}
	w.Halves += (held + other) * float64(len(groups)-1)
	for _, in := range groups {
		need := pairing(&in)
		gh, gi := make([]float64, len(hh)), make([]float64, len(ho))
		var hn, on float64
		for x := range hh {
			if in[x>>shift] {
				gh[x] = hh[x]
				hn += hh[x]
			}
			if need[x>>shift] {
				gi[x] = ho[x]
				on += ho[x]
			}
		}
		if hn == 0 {
			continue
		}
		rounds := math.Ceil(hn / float64(max(heldMax, 1)))
		_, room := passRoom(uint64(max(budget, 0)), uint64(hn/rounds))
		for x := range gh {
			gh[x] /= rounds
		}
		// The other side: in pieces cut in order, or made again for each
		// group of its classes (otherGroups), each then in pieces as few
		// as hold it.
		var subs []classSet
		if k > 0 {
			subs = otherGroups(&ocls, &need, k-int(shift), pb, room)
		}
		w.Sorted += hn + on*rounds
		w.Halves += other * (rounds*float64(max(len(subs), 1)) - 1)
		if subs == nil {
			op := max(1, math.Ceil(on/float64(room)))
			for x := range gi {
				gi[x] /= op
			}
			var pw Work
			if on/op > hn/rounds {
				pw = ls.projectJoin(gi, gh, k, f.m)
			} else {
				pw = ls.projectJoin(gh, gi, k, f.m)
			}
			w.Add(pw.Scale(rounds * op))
			continue
		}
		// Each group of classes makes the blocks, the held group the
		// items (the same for every group: their sums are kept).
		gs := gi // gi's room: it is not needed with groups
		for i := range subs {
			clear(gs)
			sn := 0.0
			for x := range ho {
				if subs[i][x>>uint(k-pb)] {
					gs[x] = ho[x]
					sn += ho[x]
				}
			}
			op := max(1, math.Ceil(sn/float64(room)))
			for x := range gs {
				gs[x] /= op
			}
			w.Add(ls.projectJoinItems(gs, gh, k, f.m, i > 0).Scale(rounds * op))
		}
	}
	return n, w, nil
}
