package join

import (
	"math"
	"time"
)

// The bounded path's list join. A row set whose half boards, both sides,
// fit in the worker's arena is joined as the table path joins it: both
// lists made whole and bucketed by key (the kernels' sorting passes), the
// longer cut into blocks. Whether they fit is known for sure only from
// the candidate pairs that bound them, about three times the half boards;
// so lists are begun where the half boards are likely to fit, and a join
// whose lists outgrow the budget stops, its lists let go. A row set whose
// shorter side alone fits holds it whole and makes the other in pieces
// (joinDiagHeld). A row set too large for that is joined in passes
// (passes.go), or, in an arena too small for a pass, streamed
// (stream.go); joinSides chooses. The lists' buffers and the
// arena's slabs share the arena's budget: a worker holds at most
// capacity patterns' bytes of either, whichever its row sets need.

// listBytes is what the list join of half boards bounded by b holds at
// most: both lists (8 bytes each), their copies bucketed by key (8, with
// resize's quarter more) and the keys (4, likewise).
func listBytes(b uint64) uint64 { return 8*b + 15*(b+b/4) + 64*vecPad }

// listsFit reports whether the half boards of a row set, at most b of
// them on both sides, can be joined as lists within the arena's budget;
// when they can only once the arena's slabs are gone, it lets them go.
func (s *bscratch) listsFit(b uint64) bool {
	budget := 8 * uint64(s.capacity)
	need := listBytes(b)
	if need > budget {
		return false
	}
	if need+s.arena.bytes() > budget {
		s.arena.release()
	}
	return true
}

// listRoom says whether a row set (or a part of one) whose sides have b
// candidate pairs is joined as lists, and the most half boards, both
// sides, its lists may hold: no limit when b fits (listsFit); else, when
// its half boards are likely to fit by the share of their candidate
// pairs that the lists made so far held (listShare), an eighth to spare,
// as many as fit the budget, the arena's slabs let go. A join that
// outgrows its limit stops (joinLists, joinListsDiag) and the row set
// goes on in passes: the candidate pairs are about three times the half
// boards, so a bound on them alone sends to the passes row sets whose
// lists would fit.
func (s *bscratch) listRoom(b uint64) (most int, ok bool) {
	if s.listsFit(b) {
		return math.MaxInt, true
	}
	most = s.listMost()
	if est := float64(b) * s.listShare() * 9 / 8; est > float64(most) {
		return 0, false
	}
	s.arena.release()
	return most, true
}

// tryLists joins as lists (join, given the most half boards its lists
// may hold) a row set, or a part of one, whose sides have b candidate
// pairs, where listRoom says they may fit. done is false when they may
// not, or when they outgrew the budget (counted in s.outgrown): the row
// set goes on another way.
func (s *bscratch) tryLists(b uint64, join func(most int) (n uint64, fit bool, err error)) (n uint64, done bool, err error) {
	most, ok := s.listRoom(b)
	if !ok {
		return 0, false, nil
	}
	n, fit, err := join(most)
	if fit || err != nil {
		return n, true, err
	}
	s.outgrown++
	return 0, false, nil
}

// listMost is the most half boards, both sides, that lists hold within
// the arena's budget, each as listBytes counts them, its list's slice
// grown by a quarter at most (makeList).
func (s *bscratch) listMost() int {
	budget := 8 * uint64(s.capacity)
	return int((budget - min(budget, 64*vecPad)) * 4 / (4*10 + 15*5))
}

// listShare is the share of their candidate pairs that the half boards
// of the lists made so far were (a half before any).
func (s *bscratch) listShare() float64 {
	if s.listPairs < 1<<16 {
		return 0.5
	}
	return float64(s.listHalves) / float64(s.listPairs)
}

// bytes is what the list join's buffers hold: patterns of 8 bytes, keys
// of 4.
func (s *scratch) bytes() uint64 {
	return 8*uint64(cap(s.e)+cap(s.w)+cap(s.ie)+cap(s.iw)) + 4*uint64(cap(s.ke)+cap(s.kw))
}

// release drops the list join's buffers.
func (s *scratch) release() {
	s.e, s.w, s.ie, s.iw, s.ke, s.kw = nil, nil, nil, nil, nil, nil
}

// joinLists counts the completions of a row set whose sides are east and
// west by the table path's join, and adds its nodes (as the table path's:
// none when there is no east half board) to s.halves. It stops, false,
// when the two lists would hold more than most half boards.
func (f *frame) joinLists(east, west *side, most int, s *bscratch) (uint64, bool, error) {
	ls := s.listScratch()
	defer s.listsDone()
	var ok bool
	if ls.e, ok = f.makeList(east, ls.e[:0], most, s); !ok {
		return 0, false, nil
	}
	if len(ls.e) == 0 {
		return 0, true, nil
	}
	if ls.w, ok = f.makeList(west, ls.w[:0], most-len(ls.e), s); !ok {
		return 0, false, nil
	}
	s.halves += uint64(len(ls.e) + len(ls.w))
	if err := ls.tick(uint64(len(ls.e) + len(ls.w))); err != nil {
		return 0, true, err
	}
	if len(ls.w) == 0 {
		return 0, true, nil
	}
	// The estimator's sample of keys (of the blocks' side), as the table
	// path's join will key it; timed as the streaming join's joining is.
	s.keepKeys(1 << uint(f.indexBits(max(len(ls.e), len(ls.w)))))
	s.kstat = s.kstat[:0] // no per-key costs: joinEstimate scales by the keys
	ls.keep = s.keep
	defer func() { ls.keep = nil }()
	t0 := s.joinStart()
	n, err := f.join(ls.e, ls.w, ls)
	s.joinEnd(t0)
	return n, true, err
}

// listScratch readies the list join's scratch (s.ls) for a join of the
// bounded path: its kernel, progress and no sample of keys; listsDone,
// deferred, hands its work since to s.
func (s *bscratch) listScratch() *scratch {
	ls := &s.ls
	ls.k, ls.yield, ls.work, ls.keep = s.k, s.yield, 0, nil
	return ls
}

func (s *bscratch) listsDone() {
	s.work += s.ls.work
	s.ls.yield = nil
}

// joinStart and joinEnd time a join for the estimator, when s.clock is
// set: the joining counts as the streamed side's part.
func (s *bscratch) joinStart() time.Duration {
	if s.clock == nil {
		return 0
	}
	return s.clock()
}

func (s *bscratch) joinEnd(t0 time.Duration) {
	if s.clock != nil {
		d := s.clock() - t0
		s.joinTime += d
		s.streamTime += d
	}
}

// makeList appends to out the half boards of sd: for each column set, its
// north entries crossed with the south entries on the other columns. out
// is made large enough for the side's bound at once, or, with a limit
// (most), for the half boards listShare expects, grown as they come. It
// stops, false, once out holds more than most.
func (f *frame) makeList(sd *side, out []uint64, most int, s *bscratch) ([]uint64, bool) {
	out = s.listCap(out, sd.bound, most)
	start := len(out)
	for _, c := range sd.cols {
		nb := f.southOf(sd, c, s)
		if nb == 0 {
			continue
		}
		xs := sd.nl.list(c)
		if len(out)+len(xs)*nb <= most {
			out = f.crossNorth(sd, xs, nb, s, out)
			continue
		}
		for x, step := 0, northStep(nb); x < len(xs); x += step {
			out = f.crossNorth(sd, xs[x:min(x+step, len(xs))], nb, s, out)
			if len(out) > most {
				return out, false
			}
		}
	}
	s.listPairs += sd.bound
	s.listHalves += uint64(len(out) - start)
	return out, true
}

// listCap returns out with room for the half boards of a side of bound
// candidate pairs: all of them, without a limit (most); else those
// listShare expects, an eighth to spare, at most most.
func (s *bscratch) listCap(out []uint64, bound uint64, most int) []uint64 {
	want := bound
	if most < math.MaxInt {
		want = min(uint64(float64(bound)*s.listShare()*9/8), uint64(max(most, 0))) + candFlush
	}
	if need := int(want) + vecPad; cap(out)-len(out) < need {
		grown := make([]uint64, len(out), len(out)+need)
		copy(grown, out)
		out = grown
	}
	return out
}

// joinListsDiag counts row set (rt, rb), whose sides are east and west,
// under the diagonal symmetry as joinLists would count it: each side made
// once, class after class, and the parts joined (joinDiag). It stops,
// false, when the two sides would hold more than most half boards.
func (f *frame) joinListsDiag(rt, rb uint32, east, west *side, most int, s *bscratch) (uint64, bool, error) {
	ls := s.listScratch()
	defer s.listsDone()
	p1, p2 := f.diagKey(rt, rb)
	var eb, wb diagBounds
	var ok bool
	if ls.e, ok = f.makeClasses(east, 1, p1, p2, &eb, ls.e[:0], most, s); !ok {
		return 0, false, nil
	}
	if len(ls.e) == 0 {
		return 0, true, nil
	}
	if ls.w, ok = f.makeClasses(west, 0, p1, p2, &wb, ls.w[:0], most-len(ls.e), s); !ok {
		return 0, false, nil
	}
	t0 := s.joinStart()
	n, nodes, err := f.joinDiag(ls.e, ls.w, &eb, &wb, p1, p2, ls)
	s.joinEnd(t0)
	s.halves += nodes
	if err == nil {
		err = ls.tick(nodes) // progress counts the nodes, as the joins take them
	}
	return n, true, err
}

// makeClasses appends to out the half boards of sd (side id) of the
// classes dEq1 to dAbove against (p1, p2), class after class, and sets
// their bounds in b. It stops, false, once out holds more than most.
func (f *frame) makeClasses(sd *side, id int, p1, p2 uint32, b *diagBounds, out []uint64, most int, s *bscratch) ([]uint64, bool) {
	out = s.listCap(out, sd.bound, most)
	b[dEq1] = len(out)
	for c := dEq1; c <= dAbove; c++ {
		part := f.subSide(sd, id, 1<<c, p1, p2, s.sub[id][:0])
		s.sub[id] = part.cols
		var ok bool
		if out, ok = f.makeList(&part, out, most, s); !ok {
			return out, false
		}
		b[c+1] = len(out)
	}
	return out, true
}

// joinDiagHeld counts row set (rt, rb), whose sides east and west do not
// fit as lists together, under the diagonal symmetry: the side shorter
// by its bound held whole, class after class, and the other made once,
// class after class, in pieces that fill what the held side leaves of
// the budget, each piece joined (diagJoins) with the held side's classes
// that pair with its own. Each half board is made once, as by
// joinListsDiag, where joining the row set part by part (eachDiag) makes
// a side's classes again for each join that takes them. It returns
// false, having counted nothing, when the held side outgrows the budget
// or leaves too little of it for the pieces.
func (f *frame) joinDiagHeld(rt, rb uint32, east, west *side, most int, s *bscratch) (uint64, bool, error) {
	p1, p2 := f.diagKey(rt, rb)
	held, other, hid := east, west, 1
	if west.bound < east.bound {
		held, other, hid = west, east, 0
	}
	ls := s.listScratch()
	defer s.listsDone()
	var hb diagBounds
	var ok bool
	if ls.e, ok = f.makeClasses(held, hid, p1, p2, &hb, ls.e[:0], most, s); !ok {
		return 0, false, nil
	}
	room := min(most, s.listMost()) - len(ls.e)
	if room < max(len(ls.e)/8, 1024) {
		return 0, false, nil
	}
	if hid == 1 && len(ls.e) == 0 {
		return 0, true, nil // no east half board: no nodes
	}
	// The held and the other side's classes in join j.
	masks := func(j diagJoin) (h, o uint8) {
		if hid == 1 {
			return j.east, j.west
		}
		return j.west, j.east
	}
	joins := diagFor(p1, p2)
	piece := ls.w[:0]
	if cap(piece) < room+candFlush+vecPad {
		piece = make([]uint64, 0, room+candFlush+vecPad)
	}
	// The piece's classes (ob: those not made yet, and after a flush
	// those before the current one, empty); made counts the other side's
	// half boards of each class.
	var ob diagBounds
	var made [dAbove + 1]uint64
	var total uint64
	flush := func() error {
		t0 := s.joinStart()
		defer s.joinEnd(t0)
		for _, j := range joins {
			hm, om := masks(j)
			hp, op := hb.part(ls.e, hm), ob.part(piece, om)
			if len(hp) == 0 || len(op) == 0 {
				continue
			}
			e, w := hp, op
			if hid == 0 {
				e, w = w, e
			}
			n, err := f.join(e, w, ls)
			if err != nil {
				return err
			}
			total += j.weight * n
		}
		piece, ob = piece[:0], diagBounds{}
		s.pieces++
		return nil
	}
	for c := uint8(dEq1); c <= dAbove; c++ {
		part := f.subSide(other, 1-hid, 1<<c, p1, p2, s.sub[1-hid][:0])
		s.sub[1-hid] = part.cols
		var pos genPos
		_, err := f.genFrom(&part, &pos, s, func(pats []uint64) bool {
			if len(piece) > 0 && len(piece)+len(pats) > room {
				if err := flush(); err != nil {
					s.err = err
					return false
				}
			}
			piece = append(piece, pats...)
			for x := c + 1; x < uint8(len(ob)); x++ {
				ob[x] = len(piece) // class c ends here, the next ones begin
			}
			made[c] += uint64(len(pats))
			return true
		})
		if err == nil {
			err, s.err = s.err, nil
		}
		if err != nil {
			ls.w = piece[:0]
			return 0, true, err
		}
	}
	err := flush()
	ls.w = piece[:0]
	// The nodes, as each join takes them: its east half boards, and its
	// west ones when it has east ones.
	for _, j := range joins {
		hm, om := masks(j)
		hn := uint64(len(hb.part(ls.e, hm)))
		var on uint64
		for c := dEq1; c <= dAbove; c++ {
			if om>>c&1 != 0 {
				on += made[c]
			}
		}
		en, wn := hn, on
		if hid == 0 {
			en, wn = on, hn
		}
		if en > 0 {
			s.halves += en + wn
		}
	}
	return total, true, err
}
