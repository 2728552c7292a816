package join

import "math/bits"

// Passes under the diagonal symmetry. Joined part by part (eachDiag), a
// row set in passes makes each side's dAbove class twice: for the first
// join (dMid to dAbove with dMid to dAbove, counted twice), and again
// for the join with the other side's dEq1 class (counted twice), the few
// half boards of one column value. joinPassesDiag makes the dEq1 and
// dEq2 classes of both sides first and keeps them, joins the first join
// in passes, and joins each dAbove half board with the other side's kept
// classes as the passes make it the first time: each half board is made
// once, as the list join makes it. The joins that take a kept class run
// unkeyed against batches of the other side's dAbove class, as joinSmall
// runs a short side against a long one. At n = 22 in 48 MiB, eachDiag's
// second and third joins made a sixth of the passes' half boards
// (RESULTS.md, "Seventeenth round").

// diagRest is the classes of the first of diagJoins, on both sides.
const diagRest = 1<<dMid | 1<<dEq2 | 1<<dAbove

// diagKept is the classes joinPassesDiag keeps whole: the column sets of
// one value each.
const diagKept = 1<<dEq1 | 1<<dEq2

// diagBatch returns how many dAbove half boards of a side joinPassesDiag
// gathers before it joins them with the other side's kept classes, in an
// arena of capacity patterns: as many as joinSmall holds of a long side
// (the blocks are built once a batch), at most a sixteenth of the arena.
func diagBatch(capacity int) int {
	return max(min(smallPiece, capacity/16), 64)
}

// passDiag is the state of joinPassesDiag beside the passes: the class of
// each column set of the sides joined in passes, the kept classes, the
// joins of each side's dAbove class with the other side's kept ones, and
// what they counted.
type passDiag struct {
	cols [2][]uint32 // the column sets of classes diagRest, by side id (0 west, 1 east)
	cls  [2][]uint8  // their classes
	// kept holds both sides' kept classes: those of side id and class c
	// are kept[at[id][c]:at[id][c+1]].
	kept []uint64
	at   [2][dAbove + 2]int
	// with[id] is what side id's dAbove half boards join: the other
	// side's kept class and the weight.
	with  [2][]diagWith
	batch [2][]uint64 // side id's dAbove half boards not yet joined
	lim   int         // the most a batch holds (diagBatch)
	above [2]uint64   // side id's dAbove half boards made
	seen  [2]bool     // whether the passes made side id whole
	total uint64      // the weighted count of the joins with kept classes
	err   error
	m     int
	ls    *scratch
}

type diagWith struct {
	class  uint8
	weight uint64
}

// bytes returns what d holds beside the passes, within the arena's
// budget: the kept classes and the batches. The kept list's room to grow
// (candFlush patterns, 32 KiB, as makeList leaves every list) is left to
// the heap's margin beside the arena: counted, it would take the whole
// budget of the smallest arenas.
func (d *passDiag) bytes() uint64 {
	return 8 * uint64(len(d.kept)+2*d.lim)
}

// keptOf returns side id's kept half boards of class c.
func (d *passDiag) keptOf(id int, c uint8) []uint64 {
	return d.kept[d.at[id][c]:d.at[id][c+1]]
}

// add takes a batch of side id's half boards, made the first time, of
// the column set at index ci of d.cols[id]; it reports false on an error
// of the joins.
func (d *passDiag) add(id, ci int, pats []uint64) bool {
	if d.cls[id][ci] != dAbove {
		return true
	}
	d.above[id] += uint64(len(pats))
	if len(d.with[id]) == 0 {
		return true
	}
	for len(pats) > 0 {
		b := d.batch[id]
		if len(b) == d.lim && !d.flush(id) {
			return false
		}
		k := min(d.lim-len(d.batch[id]), len(pats))
		d.batch[id], pats = append(d.batch[id], pats[:k]...), pats[k:]
	}
	return true
}

// flush joins side id's batch with the other side's kept classes.
func (d *passDiag) flush(id int) bool {
	b := d.batch[id]
	if len(b) == 0 || d.err != nil {
		return d.err == nil
	}
	cb := []int32{0, int32(len(b))}
	for _, w := range d.with[id] {
		k := d.keptOf(1-id, w.class)
		if len(k) == 0 {
			continue
		}
		ck := []int32{0, int32(len(k))}
		var n uint64
		var err error
		if keptBlocks(d.ls, len(k), len(b), d.m) {
			n, err = d.ls.joinBuckets(k, ck, b, cb, 0, d.m)
		} else {
			n, err = d.ls.joinBuckets(b, cb, k, ck, 0, d.m)
		}
		if err != nil {
			d.err = err
			return false
		}
		d.total += w.weight * n
	}
	d.batch[id] = b[:0]
	return true
}

// keptBlocks reports whether a join of a kept class of kept half boards
// with a batch of batch costs less with the kept ones as the blocks than
// as the items, at modelPrices: a kept class of a few hundred half boards
// is better the items of a batch's blocks, one of thousands the blocks.
func keptBlocks(ls *scratch, kept, batch, m int) bool {
	return ls.unkeyedCost(float64(kept), float64(batch), m) <= ls.unkeyedCost(float64(batch), float64(kept), m)
}

// diagPlan returns, for the joins after the first of a row set's
// diagJoins, which side's dAbove class joins which kept class of the
// other (with), and the joins of two kept classes (pairs); ok is false
// when the joins are not of that shape, or the first not diagRest with
// itself.
func diagPlan(joins []diagJoin) (with [2][]diagWith, pairs []diagJoin, ok bool) {
	if len(joins) == 0 || joins[0].west != diagRest || joins[0].east != diagRest {
		return with, nil, false
	}
	single := func(m uint8) bool { return m != 0 && m&(m-1) == 0 }
	for _, j := range joins[1:] {
		if !single(j.west) || !single(j.east) {
			return with, nil, false
		}
		wk, ek := j.west&diagKept != 0, j.east&diagKept != 0
		switch {
		case wk && ek:
			pairs = append(pairs, j)
		case wk && j.east == 1<<dAbove:
			with[1] = append(with[1], diagWith{class: classBit(j.west), weight: j.weight})
		case ek && j.west == 1<<dAbove:
			with[0] = append(with[0], diagWith{class: classBit(j.east), weight: j.weight})
		default:
			return with, nil, false
		}
	}
	return with, pairs, true
}

// classBit returns the class of a mask of one class.
func classBit(m uint8) uint8 {
	return uint8(bits.TrailingZeros8(m))
}

// diagPassesOK reports whether a row set that reaches eachDiag on the
// count's path may be joined by joinPassesDiag instead: where it would
// be joined in passes (no sample of keys or entries, passes allowed).
func (f *frame) diagPassesOK(s *bscratch) bool {
	return f.diag && s.entryThresh == 0 && !(s.keepFrac > 0 && s.keepFrac < 1) && !s.noPasses
}

// diagPasses is how joinPassesDiag joins a row set: its key, its
// diagJoins, and those after the first by diagPlan.
type diagPasses struct {
	p1, p2 uint32
	joins  []diagJoin
	with   [2][]diagWith
	pairs  []diagJoin
}

// planDiagPasses returns how joinPassesDiag joins row set (rt, rb), whose
// sides are east and west, and false where it leaves the row set to
// eachDiag: where the joins are not of diagPlan's shape, where the first
// join's sides are one short against one long (joinSmall's, unless
// noSmall), or where a join of a dAbove class with a kept one would not
// be joined unkeyed (smallPlan), which is how joinPassesDiag joins them.
// The count and the estimator plan alike.
func (f *frame) planDiagPasses(rt, rb uint32, east, west *side, ls *scratch, noSmall bool) (diagPasses, bool) {
	var pl diagPasses
	pl.p1, pl.p2 = f.diagKey(rt, rb)
	pl.joins = diagFor(pl.p1, pl.p2)
	var ok bool
	if pl.with, pl.pairs, ok = diagPlan(pl.joins); !ok {
		return pl, false
	}
	sides := [2]*side{west, east}
	bound := func(id int, mask uint8) uint64 { return f.classBound(sides[id], id, mask, pl.p1, pl.p2) }
	if !noSmall {
		if small, _ := f.smallPlan(&side{bound: bound(1, diagRest)}, &side{bound: bound(0, diagRest)}, ls); small {
			return pl, false
		}
	}
	for id := range pl.with {
		above := bound(id, 1<<dAbove)
		for _, w := range pl.with[id] {
			kept := bound(1-id, 1<<w.class)
			if small, _ := f.smallPlan(&side{bound: kept}, &side{bound: above}, ls); !small && kept > 0 && above > 0 {
				return pl, false
			}
		}
	}
	return pl, true
}

// classBound returns the candidate pairs of the part of sd (side id)
// whose column sets' classes against (p1, p2) are in mask (subSide's
// bound).
func (f *frame) classBound(sd *side, id int, mask uint8, p1, p2 uint32) uint64 {
	var b uint64
	for _, c := range sd.cols {
		if f.inClasses(id, c, mask, p1, p2) {
			b += sd.pairsOf(c)
		}
	}
	return b
}

// joinPassesDiag counts row set (rt, rb), whose sides are east and west,
// under the diagonal symmetry in passes, each half board made once (see
// above), and adds its nodes, each join's as eachDiag's, to s.halves. It
// returns false, having counted nothing, where planDiagPasses does, or
// where the kept classes take more than an eighth of the arena.
func (f *frame) joinPassesDiag(rt, rb uint32, east, west *side, s *bscratch) (uint64, bool, error) {
	pl, ok := f.planDiagPasses(rt, rb, east, west, &s.ls, s.noSmall)
	if !ok {
		return 0, false, nil
	}
	p1, p2, joins, with, pairs := pl.p1, pl.p2, pl.joins, pl.with, pl.pairs
	d := &s.pd
	sides := [2]*side{west, east}
	var rest [2]side
	for id, sd := range sides {
		rest[id] = f.subSide(sd, id, diagRest, p1, p2, d.cols[id][:0])
		d.cols[id] = rest[id].cols
		d.cls[id] = d.cls[id][:0]
		for _, c := range rest[id].cols {
			d.cls[id] = append(d.cls[id], classOf(f.colValue(id, c), p1, p2))
		}
	}
	// The kept classes, at most an eighth of the arena.
	most := s.capacity / 8
	d.kept = d.kept[:0]
	// The kept classes are lists of a kind of their own: the share of
	// candidate pairs the lists make (listShare) leaves them out.
	pairs0, halves0 := s.listPairs, s.listHalves
	defer func() { s.listPairs, s.listHalves = pairs0, halves0 }()
	for id, sd := range sides {
		for _, c := range [...]uint8{dEq1, dEq2} {
			d.at[id][c] = len(d.kept)
			part := f.subSide(sd, id, 1<<c, p1, p2, s.sub[id][:0])
			s.sub[id] = part.cols
			var ok bool
			if d.kept, ok = f.makeList(&part, d.kept, most, s); !ok {
				d.kept = d.kept[:0]
				return 0, false, nil
			}
			d.at[id][c+1] = len(d.kept)
		}
	}
	d.with, d.above, d.seen, d.total, d.err, d.m, d.ls = with, [2]uint64{}, [2]bool{}, 0, nil, f.m, &s.ls
	d.lim = diagBatch(s.capacity)
	for id := range d.batch {
		// The kernels may read beyond a block.
		if c := cap(d.batch[id]); c < d.lim+vecPad || c > 2*(d.lim+vecPad) {
			d.batch[id] = make([]uint64, 0, d.lim+vecPad)
		}
		d.batch[id] = d.batch[id][:0]
	}
	// The joins of two kept classes. (The passes take the list join's
	// scratch as their own, and so do the joins after them.)
	var total uint64
	ls := s.listScratch()
	for _, j := range pairs {
		e, w := d.keptOf(1, classBit(j.east)), d.keptOf(0, classBit(j.west))
		if len(e) == 0 || len(w) == 0 {
			continue
		}
		n, err := ls.joinBuckets(e, []int32{0, int32(len(e))}, w, []int32{0, int32(len(w))}, 0, f.m)
		if err != nil {
			s.listsDone()
			return 0, true, err
		}
		total += j.weight * n
	}
	s.listsDone()
	// The first join, in passes, the kept classes joined as they go.
	n, err := f.joinPasses(&rest[1], &rest[0], s, d)
	if err != nil {
		return 0, true, err
	}
	total += joins[0].weight * n
	// A side the passes did not make (no half board on the other) is
	// made for its joins with the kept classes.
	s.listScratch()
	defer s.listsDone()
	for id := range rest {
		if d.seen[id] {
			continue
		}
		var pos genPos
		if _, err := f.genFrom(&rest[id], &pos, s, func(pats []uint64) bool { return d.add(id, pos.c, pats) }); err != nil {
			return 0, true, err
		}
		if d.err != nil {
			return 0, true, d.err
		}
	}
	for id := range d.batch {
		if !d.flush(id) {
			return 0, true, d.err
		}
	}
	total += d.total
	// The nodes of the joins after the first, each as eachDiag counts
	// them (its east half boards, and its west ones when it has east
	// ones); the first join's are the passes'.
	made := func(id int, mask uint8) uint64 {
		c := classBit(mask)
		if c == dAbove {
			return d.above[id]
		}
		return uint64(len(d.keptOf(id, c)))
	}
	for _, j := range joins[1:] {
		if en := made(1, j.east); en > 0 {
			s.halves += en + made(0, j.west)
		}
	}
	d.kept = keepSample(d.kept, s.capacity)
	return total, true, nil
}
