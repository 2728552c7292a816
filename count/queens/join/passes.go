package join

import (
	"errors"
	"math"
	"time"
)

// The bounded path's passes. A row set whose two lists of half boards do
// not fit in a worker's budget is still joined as lists, at the list
// join's speed, in passes: its index keys are chosen first, on samples
// of both sides; a counting pass then makes each side once and counts its
// half boards by the top bits of their keys (its class); the classes are
// grouped so that a group of the blocks' side and a chunk of the classes
// of the other side that can pair with it (whose keys' top bits are
// disjoint) fit in the budget together; each pass makes the two sides
// again, keeping the half boards of its group and its chunk, and joins
// them as the list join does, with the same keys. Making half boards is
// cheap beside joining them (a few per cent at n = 22, less as n grows:
// the lists grow, their join as their product), so memory is traded for
// passes, never for a slower join. Every pair of half boards is joined
// in exactly one pass: its blocks' side's class is in one group, its
// other side's in one chunk of that group.

// passPrefix is the most top key bits that cut a row set into passes:
// 256 classes a side.
const passPrefix = 8

// passSample is about how many half boards of each side the key choice
// of a row set joined in passes looks at.
const passSample = 8192

// passSide is one side of a row set joined in passes: its half boards'
// count by class (the top bits of their keys) and in all.
type passSide struct {
	sd    *side
	hist  [1 << passPrefix]uint64
	total uint64
}

// joinPasses counts the completions of a row set whose sides are east
// and west, in passes that each hold at most what the worker's budget
// allows, and adds its nodes (as the table path's) to s.halves. It
// reports false, having done nothing, when even passes of one class a
// side do not fit: the caller then streams.
//
// The side that the samples say is the shorter is made whole and
// bucketed by the row set's keys, when it takes at most three quarters
// of the budget; the other is then made once, in pieces that fill what
// is left, each bucketed and joined with the held side as lists: each
// side is made once, as by the list join, and only the held side's
// blocks are built again for each piece. A row set whose shorter side
// does not fit so is cut by classes (joinClasses).
func (f *frame) joinPasses(east, west *side, s *bscratch) (uint64, bool, error) {
	ls := &s.ls
	ls.k, ls.yield, ls.work, ls.keep = s.k, s.yield, 0, nil
	defer func() {
		s.work += ls.work
		ls.yield = nil
	}()
	var t0 time.Duration
	if s.clock != nil {
		t0 = s.clock()
	}
	// The keys, from samples: every stride-th north entry's half boards.
	se, fe := f.sampleSide(east, s, s.sampE[:0])
	sw, fw := f.sampleSide(west, s, s.sampW[:0])
	s.sampE, s.sampW = se, sw
	estE, estW := float64(len(se))*fe, float64(len(sw))*fw
	held, other, sh, so := east, west, se, sw
	if estW < estE {
		held, other, sh, so = west, east, sw, se
	}
	k := f.indexBits(int(max(estE, estW)))
	kr := f.keys[k]
	if k > 0 {
		if c, ok := ls.chooseKeys(so, sh, k, f.m); ok {
			kr = c
		}
	}
	budget := s.passBudget()
	// The held side, whole, unless it outgrows three quarters of the
	// budget.
	limit := budget / 4 * 3
	var nh uint64
	ls.w = ls.w[:0]
	over := f.genSide(held, s, func(pats []uint64) error {
		nh += uint64(len(pats))
		if uint64(len(ls.w)+len(pats)) > limit {
			return errFull
		}
		if need := len(ls.w) + len(pats); cap(ls.w) < need {
			ls.w = append(make([]uint64, 0, max(need+need/4, int(min(held.bound/2, limit))+vecPad)), ls.w...)
		}
		ls.w = append(ls.w, pats...)
		return nil
	})
	if over == errFull {
		ls.w = ls.w[:0]
		return f.joinClasses(east, west, &kr, s)
	}
	if over != nil {
		return 0, true, over
	}
	if held == east && nh == 0 {
		return 0, true, nil // no east half board: no nodes, as the table path
	}
	if s.clock != nil {
		s.fillTime += s.clock() - t0
	}
	nkeys := 1 << uint(kr.bits)
	m := f.m - kr.bits
	ls.iw, ls.kw, ls.cw = bucket(&ls.k, &kr, ls.w, nkeys, ls.iw, ls.kw, ls.cw)
	ls.stat.sorted += uint64(len(ls.w))
	hb, hc := ls.iw, ls.cw
	// The other side, in pieces; the held side's raw list is no longer
	// needed, so a piece is made in its room.
	room := max(budget-nh, 1)
	piece := ls.w[:0]
	var total, no uint64
	flush := func() error {
		if len(piece) == 0 || nh == 0 {
			piece = piece[:0]
			return nil
		}
		var t1 time.Duration
		if s.clock != nil {
			t1 = s.clock()
		}
		ls.ie, ls.ke, ls.ce = bucket(&ls.k, &kr, piece, nkeys, ls.ie, ls.ke, ls.ce)
		ls.stat.sorted += uint64(len(piece))
		var n uint64
		var err error
		if uint64(len(piece)) <= nh {
			n, err = ls.joinBuckets(hb, hc, ls.ie, ls.ce, nkeys, m)
		} else {
			n, err = ls.joinBuckets(ls.ie, ls.ce, hb, hc, nkeys, m)
		}
		total += n
		s.passes++
		piece = piece[:0]
		if s.clock != nil {
			d := s.clock() - t1
			s.joinTime += d
			s.streamTime += d
		}
		return err
	}
	s.passes = 0
	err := f.genSide(other, s, func(pats []uint64) error {
		no += uint64(len(pats))
		if uint64(len(piece)+len(pats)) > room {
			if err := flush(); err != nil {
				return err
			}
		}
		if need := len(piece) + len(pats); cap(piece) < need {
			piece = append(make([]uint64, 0, need+need/4), piece...)
		}
		piece = append(piece, pats...)
		return nil
	})
	if err == nil {
		err = flush()
	}
	ls.w = piece[:0]
	if err != nil {
		return 0, true, err
	}
	ne := nh
	if held != east {
		ne = no
	}
	if ne > 0 {
		s.halves += nh + no
	}
	return total, true, nil
}

// errFull stops the making of a held side that outgrows its room.
var errFull = errors.New("join: held side over its room")

// joinClasses counts the completions of a row set whose shorter side
// does not fit in three quarters of the worker's budget, with keys kr:
// a counting pass makes each side once and counts its half boards by
// class (the top bits of their keys); the classes are grouped so that a
// group of the blocks' side and a chunk of the classes of the other side
// that can pair with it (those whose top bits are disjoint from the
// group's) fit in the budget together; each pass makes the two sides
// again, keeping the half boards of its group and its chunk. Every pair
// of half boards is joined in exactly one pass: its blocks' side's class
// is in one group, its other side's in one chunk of that group.
func (f *frame) joinClasses(east, west *side, kr *keyer, s *bscratch) (uint64, bool, error) {
	ls := &s.ls
	var t0 time.Duration
	if s.clock != nil {
		t0 = s.clock()
	}
	k := kr.bits
	pb := min(k, passPrefix)
	// The counting pass: each side's half boards by class.
	var pe, pw passSide
	pe.sd, pw.sd = east, west
	for _, ps := range []*passSide{&pe, &pw} {
		err := f.genSide(ps.sd, s, func(pats []uint64) error {
			for _, p := range pats {
				ps.hist[kr.key(p)>>uint(k-pb)]++
			}
			ps.total += uint64(len(pats))
			return nil
		})
		if err != nil {
			return 0, true, err
		}
		if ps == &pe && pe.total == 0 {
			return 0, true, nil // no east half board: no nodes, as the table path
		}
	}
	blocks, items := east, west // the blocks' side: the longer
	pbk, pit := &pe, &pw
	if pw.total > pe.total {
		blocks, items, pbk, pit = west, east, &pw, &pe
	}
	if pw.total == 0 {
		s.halves += pe.total
		return 0, true, nil
	}
	plan, ok := planPasses(pbk, pit, pb, s.passBudget())
	if !ok {
		return 0, false, nil
	}
	s.halves += pe.total + pw.total
	if s.clock != nil {
		s.fillTime += s.clock() - t0
	}
	s.passes = len(plan.passes)
	s.listsFit(plan.most) // lets the arena's slabs go if need be
	var total uint64
	var inG, inC [1 << passPrefix]bool
	shift := uint(k - plan.p)
	nkeys := 1 << uint(k)
	last := -1
	for _, ps := range plan.passes {
		if s.clock != nil {
			t0 = s.clock()
		}
		if ps.group != last {
			// The blocks' side of a new group, bucketed once for its
			// chunks.
			last = ps.group
			clear(inG[:])
			for _, c := range plan.groups[ps.group] {
				inG[c] = true
			}
			ls.e = ls.e[:0]
			if err := f.genSide(blocks, s, func(pats []uint64) error {
				for _, p := range pats {
					if inG[kr.key(p)>>shift] {
						ls.e = append(ls.e, p)
					}
				}
				return nil
			}); err != nil {
				return 0, true, err
			}
			ls.ie, ls.ke, ls.ce = bucket(&ls.k, kr, ls.e, nkeys, ls.ie, ls.ke, ls.ce)
			ls.stat.sorted += uint64(len(ls.e))
		}
		clear(inC[:])
		for _, c := range ps.chunk {
			inC[c] = true
		}
		ls.w = ls.w[:0]
		if err := f.genSide(items, s, func(pats []uint64) error {
			for _, p := range pats {
				if inC[kr.key(p)>>shift] {
					ls.w = append(ls.w, p)
				}
			}
			return nil
		}); err != nil {
			return 0, true, err
		}
		ls.iw, ls.kw, ls.cw = bucket(&ls.k, kr, ls.w, nkeys, ls.iw, ls.kw, ls.cw)
		ls.stat.sorted += uint64(len(ls.w))
		var t1 time.Duration
		if s.clock != nil {
			t1 = s.clock()
			s.fillTime += t1 - t0
		}
		n, err := ls.joinBuckets(ls.ie, ls.ce, ls.iw, ls.cw, nkeys, f.m-k)
		if s.clock != nil {
			d := s.clock() - t1
			s.joinTime += d
			s.streamTime += d
		}
		if err != nil {
			return 0, true, err
		}
		total += n
	}
	return total, true, nil
}

// passBudget is the most half boards, both sides together, that one
// pass may hold: what the list join of them holds (listBytes) within
// the arena's budget.
func (s *bscratch) passBudget() uint64 {
	budget := 8 * uint64(s.capacity)
	if budget <= 64*vecPad {
		return 0
	}
	return (budget - 64*vecPad) * 4 / 107 // listBytes: 26.75 bytes a half board
}

// passPlan is how a row set is joined in passes: the top p key bits cut
// each side into classes; groups are the classes of the blocks' side
// held at once, and each pass joins a group with a chunk of the other
// side's classes that can pair with it (those whose top bits are
// disjoint from some class of the group). most is the largest pass, in
// half boards.
type passPlan struct {
	p      int
	groups [][]int
	passes []pass
	most   uint64
}

type pass struct {
	group int
	chunk []int
}

// planPasses plans the passes of a row set whose sides' classes (by
// their keys' top pb bits) are counted in blk (the blocks' side) and
// its (the other), each pass holding at most budget half boards: the
// fewest top bits that allow it. false when even pb bits do not.
func planPasses(blk, its *passSide, pb int, budget uint64) (passPlan, bool) {
	for p := 0; p <= pb; p++ {
		var e, w [1 << passPrefix]uint64
		for c := range 1 << uint(pb) {
			e[c>>uint(pb-p)] += blk.hist[c]
			w[c>>uint(pb-p)] += its.hist[c]
		}
		if pl, ok := packPasses(e[:1<<uint(p)], w[:1<<uint(p)], budget); ok {
			pl.p = p
			return pl, true
		}
	}
	return passPlan{}, false
}

// packPasses groups the classes e of the blocks' side, in order, into
// groups of at most half the budget (or one class, if larger), and the
// classes w of the other side that each group needs into chunks that
// fit beside the group.
func packPasses(e, w []uint64, budget uint64) (passPlan, bool) {
	var pl passPlan
	var groups [][]int
	var cur []int
	var sum uint64
	for c, n := range e {
		if n == 0 {
			continue
		}
		if len(cur) > 0 && sum+n > budget/2 {
			groups = append(groups, cur)
			cur, sum = nil, 0
		}
		cur = append(cur, c)
		sum += n
	}
	if len(cur) > 0 {
		groups = append(groups, cur)
	}
	for g, gr := range groups {
		var held uint64
		for _, c := range gr {
			held += e[c]
		}
		if held > budget {
			return pl, false
		}
		room := budget - held
		var chunk []int
		var in uint64
		for z, n := range w {
			if n == 0 || !pairsWith(z, gr) {
				continue
			}
			if n > room {
				return pl, false
			}
			if in+n > room {
				pl.passes = append(pl.passes, pass{g, chunk})
				pl.most = max(pl.most, held+in)
				chunk, in = nil, 0
			}
			chunk = append(chunk, z)
			in += n
		}
		if len(chunk) > 0 {
			pl.passes = append(pl.passes, pass{g, chunk})
			pl.most = max(pl.most, held+in)
		}
	}
	pl.groups = groups
	return pl, true
}

// pairsWith reports whether class z of the items' side has top key bits
// disjoint from some class of group gr.
func pairsWith(z int, gr []int) bool {
	for _, c := range gr {
		if c&z == 0 {
			return true
		}
	}
	return false
}

// genSide makes the half boards of sd, a few thousand at a time, and
// gives each batch to use; it stops at use's first error.
func (f *frame) genSide(sd *side, s *bscratch, use func([]uint64) error) error {
	for _, c := range sd.cols {
		nb := f.southOf(sd, c, s)
		if nb == 0 {
			continue
		}
		xs := sd.nl.list(c)
		step := northStep(nb)
		for x := 0; x < len(xs); x += step {
			s.cand = f.crossNorth(sd, xs[x:min(x+step, len(xs))], nb, s, s.cand[:0])
			if err := use(s.cand); err != nil {
				return err
			}
			if err := s.tick(uint64(len(s.cand))); err != nil {
				return err
			}
		}
	}
	return nil
}

// sampleSide appends to out the half boards of every stride-th north
// entry of sd, about passSample of them, and returns them with the
// number of half boards each stands for.
func (f *frame) sampleSide(sd *side, s *bscratch, out []uint64) ([]uint64, float64) {
	// About a third of the candidate pairs are half boards.
	stride := max(1, int(sd.bound/3/passSample))
	i := stride / 2
	for _, c := range sd.cols {
		xs := sd.nl.list(c)
		if i >= len(xs) {
			i -= len(xs)
			continue
		}
		nb := f.southOf(sd, c, s)
		for ; i < len(xs); i += stride {
			if nb > 0 {
				out = f.crossNorth(sd, xs[i:i+1], nb, s, out)
			}
		}
		i -= len(xs)
	}
	return out, float64(stride)
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
	made0 := ls.stat.made
	sampled := func(sd *side, id int, out []uint64) []uint64 {
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
	ls.e = sampled(&east, 1, ls.e[:0])
	if len(ls.e) == 0 {
		w.Halves = float64(ls.stat.made - made0)
		return 0, w, nil
	}
	ls.w = sampled(&west, 0, ls.w[:0])
	sampleMade := float64(ls.stat.made - made0)
	nE, nW := float64(len(ls.e))/g, float64(len(ls.w))/g
	if len(ls.w) == 0 {
		// The count makes the east side, and the west (empty).
		w.Halves = sampleMade + nE
		return 0, w, nil
	}
	// The keys, as the count chooses them: for the longer list.
	long, short := ls.e, ls.w
	if len(short) > len(long) {
		long, short = short, long
	}
	k := f.indexBits(int(max(nE, nW)))
	kr := f.keys[k]
	lists := s.listsFit(east.bound + west.bound)
	if k > 0 && (!lists || max(nE, nW)*min(nE, nW) >= keyChoiceWork) {
		if c, ok := ls.chooseKeys(long, short, k, f.m); ok {
			kr = c
		}
	}
	k = kr.bits
	n, err := ls.joinKeyed(ls.e, ls.w, &kr, f.m)
	if err != nil {
		return 0, w, err
	}
	// The whole row set's buckets, from the sample's.
	he, hw := make([]float64, 1<<uint(k)), make([]float64, 1<<uint(k))
	for _, p := range ls.e {
		he[kr.key(p)] += 1 / g
	}
	for _, p := range ls.w {
		hw[kr.key(p)] += 1 / g
	}
	w.Halves = sampleMade + nE + nW
	w.Sorted = nE + nW
	if k == 0 {
		w.Sorted = 0
	}
	hb, hi := he, hw
	if nW > nE {
		hb, hi = hw, he
	}
	if lists {
		w.Add(projectJoin(hb, hi, k, f.m))
		return n, w, nil
	}
	// Passes: the samples that choose the keys, then the shorter side
	// held whole and the other in pieces, or classes.
	w.Halves += 2 * passSample
	budget := float64(s.passBudget())
	held, other := min(nE, nW), max(nE, nW)
	hh, ho := he, hw
	if nW < nE {
		hh, ho = hw, he
	}
	if held <= budget/4*3 {
		pieces := math.Ceil(other / max(budget-held, 1))
		part := make([]float64, len(ho))
		for x, c := range ho {
			part[x] = c / pieces
		}
		pw := projectJoin(hh, part, k, f.m)
		if other/pieces > held {
			pw = projectJoin(part, hh, k, f.m)
		}
		w.Add(pw.Scale(pieces))
		return n, w, nil
	}
	// Classes: a counting pass, then each group's blocks and each pass's
	// items made again.
	pb := min(k, passPrefix)
	var cb, ci passSide
	for x := range hb {
		cb.hist[x>>uint(k-pb)] += uint64(math.Round(hb[x]))
		ci.hist[x>>uint(k-pb)] += uint64(math.Round(hi[x]))
	}
	plan, ok := planPasses(&cb, &ci, pb, uint64(budget))
	if !ok {
		// The stream: not projected; priced as one list join.
		w.Add(projectJoin(hb, hi, k, f.m))
		return n, w, nil
	}
	w.Halves += nE + nW
	shift := uint(k - plan.p)
	last := -1
	gb := make([]float64, len(hb))
	for _, ps := range plan.passes {
		if ps.group != last {
			last = ps.group
			in := map[int]bool{}
			for _, c := range plan.groups[ps.group] {
				in[c] = true
			}
			var sz float64
			for x, c := range hb {
				gb[x] = 0
				if in[x>>shift] {
					gb[x] = c
					sz += c
				}
			}
			w.Halves += max(nE, nW)
			w.Sorted += sz
		}
		in := map[int]bool{}
		for _, c := range ps.chunk {
			in[c] = true
		}
		gi := make([]float64, len(hi))
		var sz float64
		for x, c := range hi {
			if in[x>>shift] {
				gi[x] = c
				sz += c
			}
		}
		w.Halves += min(nE, nW)
		w.Sorted += sz
		w.Add(projectJoin(gb, gi, k, f.m))
	}
	return n, w, nil
}
