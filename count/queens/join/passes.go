package join

import (
	"math"
	"math/bits"
	"slices"
	"time"
)

// The bounded path's passes. A row set whose two lists of half boards do
// not fit in a worker's budget is still joined as lists, at the list
// join's speed, in passes: its index keys are chosen first, on samples
// of both sides (every so many north entries' half boards); then the
// side the samples say is the shorter is made in pieces of at most half
// the budget (one piece, most often), and for each piece, bucketed by the
// keys, the other side is made in pieces that fill the rest, each
// bucketed and joined with the held piece as lists. When the shorter
// side fits in one piece, each side is made once, as by the list join,
// and only the held side's blocks are built again for each piece of the
// other; else the other side is made again for each held piece. Making
// half boards is cheap beside joining them (a few per cent at n = 20-22,
// less as n grows, the lists growing as their product does), so memory
// is traded for passes, never for a slower join.
//
// Where the lists have keys at all, the pieces are cut by classes of
// keys (their top bits) rather than in order, so that every piece holds
// whole buckets: the held side by groups of its classes (heldGroups),
// and the classes of the other side that a held group needs by groups
// that each fit in a piece (otherGroups), the other side made again for
// each. Pieces cut in order hold a share of every bucket, which leaves
// the kernels half-empty blocks and too few items for large tables, or,
// keyed by the pieces' length, fewer key bits: at n = 22 in 48 MiB, a
// sixth more lookups than the lists' join (RESULTS.md, "Sixteenth
// round").

// Bytes a half board takes in a pass, with resize's quarter more: a
// held one bucketed (8) and its key (4); one of a piece of the other
// side made (8), bucketed (8) and its key (4).
const (
	heldBytes  = 15
	pieceBytes = 25
)

// passRoom returns, for a budget of bytes, the most half boards of the
// held side a piece takes, and of the other side beside held ones.
func passRoom(budget, held uint64) (heldMax, room uint64) {
	heldMax = budget / 2 / heldBytes
	h := min(held, heldMax)
	return heldMax, max((budget-h*heldBytes)/pieceBytes, 1)
}

// joinPasses counts the completions of a row set whose sides are east
// and west in passes that each hold at most the worker's budget, and
// adds its nodes (as the table path's) to s.halves. d, when not nil, is
// given each side's half boards the first time they are made
// (joinPassesDiag).
func (f *frame) joinPasses(east, west *side, s *bscratch, d *passDiag) (uint64, error) {
	ls := s.listScratch()
	defer s.listsDone()
	s.arena.release()
	var t0 time.Duration
	if s.clock != nil {
		t0 = s.clock()
	}
	// The keys, from samples: every stride-th north entry's half boards.
	se, fe := f.sampleSide(east, s, s.sampE[:0])
	sw, fw := f.sampleSide(west, s, s.sampW[:0])
	estE, estW := float64(len(se))*fe, float64(len(sw))*fw
	held, other, sh, so, fh, fo := east, west, se, sw, fe, fw
	hid := 1 // held's side id
	if estW < estE {
		held, other, sh, so, fh, fo, hid = west, east, sw, se, fw, fe, 0
	}
	budget := 8*uint64(s.capacity) - min(8*uint64(s.capacity), 64*vecPad)
	if d != nil {
		budget -= min(budget, d.bytes()) // its kept classes and batches
	}
	kr := f.passKeys(ls, sh, so, fh, fo)
	// The samples stay for the next row set while they are small (the
	// key choice's few thousand patterns, a thirty-second of the arena
	// each at most, within the share's tenth kept beside the arena); the
	// deep keys' ones, up to the budget's eighth each, go.
	s.sampE, s.sampW = keepSample(se, s.capacity), keepSample(sw, s.capacity)
	ls.ks.de, ls.ks.dw = nil, nil
	nkeys := 1 << uint(kr.bits)
	heldMax, _ := passRoom(budget, math.MaxUint64)
	if s.clock != nil {
		s.fillTime += s.clock() - t0
	}
	// The held side's groups of classes (the top bits of its keys), each
	// about heldMax at most by the sample: one group, all of it, when
	// the side fits.
	shift, groups := heldGroups(keyHist(sh, &kr, fh), kr.bits, heldMax)
	// The other side's classes, finer: where its needed classes do not
	// fit in one piece, it is made again for each group of them that
	// does, so that its pieces hold whole buckets too (see otherGroups).
	var pb int
	var ocls [1 << passPrefix]float64
	if kr.bits > 0 {
		pb, ocls = classSizes(keyHist(so, &kr, fo), kr.bits)
	}
	oshift := uint(kr.bits - pb)
	s.cf.reset(&kr, shift, f.m)
	s.ocf.reset(&kr, oshift, f.m)
	var total, nh, no uint64
	var hpos genPos
	otherMade := false // whether the other side was made whole once
	s.passes = 0
	var need classSet
	for round, g := 0, 0; g < len(groups); round++ {
		// A piece of the held side: its group's half boards, as many as
		// fit (the rest of the group in the next round).
		if s.clock != nil {
			t0 = s.clock()
		}
		cur := g
		in := groups[cur]
		ls.w = ls.w[:0]
		whole := len(groups) == 1 // every class: no key to look at
		var hf *classFilter       // nil: every half board kept
		if !whole {
			hf = &s.cf
			hf.set(&in)
		}
		done, err := f.genFrom(held, &hpos, s, func(pats []uint64) bool {
			if cur == 0 {
				nh += uint64(len(pats))
				if d != nil && !d.add(hid, hpos.c, pats) {
					return false
				}
			}
			ls.w = hf.appendIn(&ls.k, ls.w, pats)
			return len(ls.w) == 0 || uint64(len(ls.w)) < heldMax
		})
		if err == nil && d != nil {
			err = d.err
		}
		if err != nil {
			return 0, err
		}
		if d != nil && cur == 0 && done {
			d.seen[hid] = true
		}
		if round == 0 && done && nh == 0 {
			if held == east {
				return 0, nil // no east half board: no nodes, as the table path
			}
			// The table path makes the east side (its nodes), which
			// pairs with nothing.
			n, err := f.streamCount(east, s)
			s.halves += n
			return 0, err
		}
		if done {
			g, hpos = g+1, genPos{}
		}
		if len(ls.w) == 0 {
			continue
		}
		// The other side's classes that can pair with the group's.
		need = pairing(&in)
		ls.iw, ls.kw, ls.cw = bucket(&ls.k, &kr, ls.w, nkeys, ls.iw, ls.kw, ls.cw)
		ls.stat.sorted += uint64(len(ls.w))
		hb, hc, hn := ls.iw, ls.cw, uint64(len(ls.w))
		_, room := passRoom(budget, hn)
		if s.clock != nil {
			s.fillTime += s.clock() - t0
		}
		// The other side, in pieces against it; the held piece's raw
		// list is no longer needed, so a piece is made in its room.
		var subs []classSet
		if kr.bits > 0 {
			subs = otherGroups(&ocls, &need, kr.bits-int(shift), pb, room)
			s.classed += len(subs)
		}
		piece := ls.w[:0]
		flush := func() error {
			if len(piece) == 0 {
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
			// A piece of whole classes makes the blocks (its buckets
			// whole, built once), the held ones the items; else the
			// longer makes them.
			if subs == nil && uint64(len(piece)) <= hn {
				n, err = ls.joinBuckets(hb, hc, ls.ie, ls.ce, kr.bits, f.m)
			} else {
				n, err = ls.joinBuckets(ls.ie, ls.ce, hb, hc, kr.bits, f.m)
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
		if uint64(cap(piece)) < room+candFlush {
			piece = make([]uint64, 0, room+candFlush+vecPad)
		}
		// Each group of the other side's classes (or all it needs, in
		// order, when they fit or the keys are too few for classes): made
		// and joined a piece at a time, a piece flushed when full (a group
		// the sample said would fit, when it does not, in two pieces).
		for sg := 0; sg < max(len(subs), 1); sg++ {
			var opos genPos
			first := !otherMade && sg == 0
			var of *classFilter // nil: every half board kept
			switch {
			case subs != nil:
				of = &s.ocf
				of.set(&subs[sg])
			case !whole:
				of = &s.cf
				of.set(&need)
			}
			_, err = f.genFrom(other, &opos, s, func(pats []uint64) bool {
				if first {
					no += uint64(len(pats))
					if d != nil && !d.add(1-hid, opos.c, pats) {
						s.err = d.err
						return false
					}
				}
				if uint64(len(piece)+len(pats)) > room {
					if err := flush(); err != nil {
						s.err = err
						return false
					}
				}
				piece = of.appendIn(&ls.k, piece, pats)
				return true
			})
			if err == nil {
				err, s.err = s.err, nil
			}
			if err == nil && first {
				otherMade = true
				if d != nil {
					d.seen[1-hid] = true
				}
			}
			if err == nil {
				err = flush()
			}
			if err != nil {
				break
			}
		}
		ls.w = piece[:0]
		if err != nil {
			return 0, err
		}
	}
	ne := nh
	if held != east {
		ne = no
	}
	if ne > 0 {
		s.halves += nh + no
	}
	return total, nil
}

// passKeys returns the index bits of a row set joined in passes, from
// samples sh and so of its held and other sides, each pattern standing
// for fh and fo: those of the whole lists' join, the pieces holding
// whole buckets (see joinBits).
func (f *frame) passKeys(ls *scratch, sh, so []uint64, fh, fo float64) keyer {
	held, other := float64(len(sh))*fh, float64(len(so))*fo
	// Both sides are cut by classes of keys (heldGroups, otherGroups),
	// which keeps their buckets whole: the keys are chosen, and their
	// depth weighed, as for whole lists, the other side's pieces making
	// the blocks.
	k := f.indexBits(int(max(held, other)))
	kr := f.keys[k]
	if k == 0 {
		return kr
	}
	if c, ok := ls.joinBits(so, sh, k, f.m, f.maxBits, fo, fh, 1, 1); ok {
		return c
	}
	return kr
}

// keepSample returns the buffer of sample to make the next one in, or
// nil when it is larger than a thirty-second of an arena of capacity
// patterns.
func keepSample(sample []uint64, capacity int) []uint64 {
	if cap(sample) > capacity/32 {
		return nil
	}
	return sample[:0]
}

// passPrefix is the most top key bits that cut a held side into
// classes: 256 of them.
const passPrefix = 8

// classSet says which classes (top key bits) a set holds.
type classSet = [1 << passPrefix]bool

// pairing returns the classes of the other side that can pair with some
// class of in: those whose top bits are disjoint from one of in's.
func pairing(in *classSet) classSet {
	var need classSet
	for z := range need {
		for c, ok := range in {
			if ok && c&z == 0 {
				need[z] = true
				break
			}
		}
	}
	return need
}

// classSizes returns the bits of the finest classes passes cut a list
// into (the top pb of k key bits, at most passPrefix) and the sizes of
// those classes, from the sizes h of the list's buckets.
func classSizes(h []float64, k int) (pb int, cls [1 << passPrefix]float64) {
	pb = min(k, passPrefix)
	for x, v := range h {
		cls[x>>uint(k-pb)] += v
	}
	return pb, cls
}

// otherFill is the share of a piece's room that a group of the other
// side's classes fills by the sample's sizes. A group the sample
// misjudged, larger than the room, is joined in two pieces (the second
// thinning its buckets); a second group makes the whole side again. At
// n = 22 in 48 MiB, 0.95 rather than 0.8 leaves 243 of 399 held groups
// with two groups of the other side instead of 291, and makes 2% fewer
// half boards (RESULTS.md, "Seventeenth round").
const otherFill = 0.95

// otherGroups cuts the classes of the other side that can pair with a
// held group (need, classes of the top p key bits) into groups of whole
// classes of the top pb bits, each of at most about room half boards by
// the sizes cls: a piece of the other side cut in order thins every
// bucket (each piece holds a share of each), which leaves the kernels
// half-empty blocks or items too few for large tables and makes deep
// keys cost more than they save; a piece of whole classes holds whole
// buckets. It returns nil when all the classes needed fit in one piece.
func otherGroups(cls *[1 << passPrefix]float64, need *classSet, p, pb int, room uint64) []classSet {
	lim := otherFill * float64(room)
	var total float64
	for y, v := range cls[:1<<uint(pb)] {
		if need[y>>uint(pb-p)] {
			total += v
		}
	}
	if total <= lim {
		return nil
	}
	return packClasses(1<<uint(pb), lim, func(y int) (float64, bool) { return cls[y], need[y>>uint(pb-p)] })
}

// packClasses cuts the classes below n that class says are wanted into
// groups of consecutive ones, each of at most lim by the sizes class
// gives (a class larger than lim alone).
func packClasses(n int, lim float64, class func(c int) (size float64, want bool)) []classSet {
	var groups []classSet
	var cur classSet
	var sum float64
	any := false
	for c := range n {
		v, ok := class(c)
		if !ok {
			continue
		}
		if any && sum+v > lim {
			groups = append(groups, cur)
			cur, sum, any = classSet{}, 0, false
		}
		cur[c], sum, any = true, sum+v, true
	}
	if any {
		groups = append(groups, cur)
	}
	return groups
}

// keyHist returns the sizes of the buckets, under kr, of the whole list
// that pats samples, each standing for f patterns.
func keyHist(pats []uint64, kr *keyer, f float64) []float64 {
	h := make([]float64, 1<<uint(kr.bits))
	for _, p := range pats {
		h[kr.key(p)] += f
	}
	return h
}

// heldGroups cuts a held side, whose buckets under k key bits hold about
// h[x] half boards, into groups of classes (the top bits of the keys,
// key>>shift), each group at most heldMax by h with a margin (a class
// larger alone): the fewest top bits for which every class fits, and one
// group, all of it, when the side does or it has no keys (then held in
// rounds, in order). groups[i][c] says whether class
// c is in group i. A group whose half boards outgrow heldMax all the same
// is made in several rounds (joinPasses).
func heldGroups(h []float64, k int, heldMax uint64) (shift uint, groups []classSet) {
	pb, cls := classSizes(h, k)
	var total float64
	for _, v := range cls[:1<<uint(pb)] {
		total += v
	}
	room := 0.8 * float64(heldMax)
	p := 0
	// Classes keep the buckets whole, which a cut in order would thin,
	// and making a side again for each group is cheap beside joining it.
	if total > room && k > 0 {
		for p = 1; p < pb; p++ {
			var big float64
			for c := range 1 << uint(p) {
				var sz float64
				for y := c << uint(pb-p); y < (c+1)<<uint(pb-p); y++ {
					sz += cls[y]
				}
				big = max(big, sz)
			}
			if big <= room {
				break
			}
		}
	}
	groups = packClasses(1<<uint(p), room, func(c int) (float64, bool) {
		var sz float64
		for y := c << uint(pb-p); y < (c+1)<<uint(pb-p); y++ {
			sz += cls[y]
		}
		return sz, true
	})
	return uint(k - p), groups
}

// sampleWant is how many half boards sampleSide makes of a side of bound
// candidate pairs: a few thousand for the key choice; for weighing
// depths (deepKeys), 16 a bucket of the deepest depth weighed; at most
// an eighth of the budget.
func (s *bscratch) sampleWant(bound uint64, most int) uint64 {
	want := min(4096, max(1024, bound/3/8)) // an eighth of a short side
	if want > bound/3 {
		want = bound / 3
	}
	if k := bits.Len64(bound/3/blockSize) - 1; k >= deepMin {
		want = uint64(depthSample(max(k, min(k+3, most, maxIndexBits))))
	}
	return min(want, uint64(s.capacity)/8)
}

// sampleSide appends to out the half boards of every stride-th north
// entry of sd, about sampleWant of them, and returns them with the
// number of half boards each stands for.
func (f *frame) sampleSide(sd *side, s *bscratch, out []uint64) ([]uint64, float64) {
	est := sd.bound / 3 // about a third of the candidate pairs are half boards
	want := s.sampleWant(sd.bound, f.maxBits)
	stride := max(1, int(est/max(want, 1)))
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

// classFilter keeps the half boards of a pass whose class, the top bits
// of their key (key>>shift), is in a set: the classes read by the
// kernel's key pass (PEXT where it is fast) under a keyer of those top
// bits alone, and the patterns kept without a branch. A pattern at a
// time through the whole keyer took about a tenth of the passes' time
// at n = 22 (RESULTS.md, "Sixteenth round").
type classFilter struct {
	kr   keyer
	keys []uint32
	cnt  [1 << passPrefix]int32
	sel  [1 << passPrefix]uint8
}

// reset readies f for the classes of kr's keys above bit shift, at most
// passPrefix of them.
func (c *classFilter) reset(kr *keyer, shift uint, m int) {
	var buf [64]int
	top := buf[:0]
	j := 0
	for q := kr.chosen; q != 0; q &= q - 1 {
		if j >= int(shift) {
			top = append(top, bits.TrailingZeros64(q))
		}
		j++
	}
	c.kr, _ = newKeyer(top, m) // at most kr's runs
}

// set says which classes the next appends keep.
func (c *classFilter) set(in *classSet) {
	for x, ok := range in {
		c.sel[x] = 0
		if ok {
			c.sel[x] = 1
		}
	}
}

// appendIn appends to out the patterns of pats whose classes are set;
// a nil filter keeps them all.
func (c *classFilter) appendIn(kn *Kernel, out, pats []uint64) []uint64 {
	if c == nil {
		return append(out, pats...)
	}
	if len(pats) == 0 {
		return out
	}
	c.keys = resize(c.keys, len(pats))
	clear(c.cnt[:1<<uint(c.kr.bits)])
	kn.sortKeys(&c.kr, pats, c.keys, c.cnt[:])
	n := len(out)
	out = slices.Grow(out, len(pats))
	dst := out[n : n+len(pats)]
	keys, sel := c.keys[:len(pats)], &c.sel
	j := 0
	for i, p := range pats {
		dst[j] = p
		j += int(sel[keys[i]&(1<<passPrefix-1)])
	}
	return out[:n+j]
}
