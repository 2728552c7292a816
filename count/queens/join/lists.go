package join

import "time"

// The bounded path's list join. A row set whose half boards, both sides,
// fit in the worker's arena is joined as the table path joins it: both
// lists made whole and bucketed by key (the kernels' sorting passes), the
// longer cut into blocks. A row set too large for that is joined in
// passes (passes.go), or, in an arena too small for a pass, streamed
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
// none when there is no east half board) to s.halves.
func (f *frame) joinLists(east, west *side, s *bscratch) (uint64, error) {
	ls := s.listScratch()
	defer s.listsDone()
	ls.e = f.makeList(east, ls.e[:0], s)
	if len(ls.e) == 0 {
		return 0, nil
	}
	ls.w = f.makeList(west, ls.w[:0], s)
	s.halves += uint64(len(ls.e) + len(ls.w))
	if err := ls.tick(uint64(len(ls.e) + len(ls.w))); err != nil {
		return 0, err
	}
	if len(ls.w) == 0 {
		return 0, nil
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
	return n, err
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
// is made large enough for the side's bound at once.
func (f *frame) makeList(sd *side, out []uint64, s *bscratch) []uint64 {
	if need := int(sd.bound) + vecPad; cap(out) < need {
		out = make([]uint64, 0, need)
	}
	for _, c := range sd.cols {
		nb := f.southOf(sd, c, s)
		if nb == 0 {
			continue
		}
		out = f.crossNorth(sd, sd.nl.list(c), nb, s, out)
	}
	return out
}

// joinListsDiag counts row set (rt, rb), whose sides are east and west,
// under the diagonal symmetry as joinLists would count it: each side made
// once, class after class, and the parts joined (joinDiag).
func (f *frame) joinListsDiag(rt, rb uint32, east, west *side, s *bscratch) (uint64, error) {
	ls := s.listScratch()
	defer s.listsDone()
	p1, p2 := f.diagKey(rt, rb)
	var eb, wb diagBounds
	ls.e = f.makeClasses(east, 1, p1, p2, &eb, ls.e[:0], s)
	if len(ls.e) == 0 {
		return 0, nil
	}
	ls.w = f.makeClasses(west, 0, p1, p2, &wb, ls.w[:0], s)
	t0 := s.joinStart()
	n, nodes, err := f.joinDiag(ls.e, ls.w, &eb, &wb, p1, p2, ls)
	s.joinEnd(t0)
	s.halves += nodes
	if err == nil {
		err = ls.tick(nodes) // progress counts the nodes, as the joins take them
	}
	return n, err
}

// makeClasses appends to out the half boards of sd (side id) of the
// classes dEq1 to dAbove against (p1, p2), class after class, and sets
// their bounds in b.
func (f *frame) makeClasses(sd *side, id int, p1, p2 uint32, b *diagBounds, out []uint64, s *bscratch) []uint64 {
	if need := int(sd.bound) + vecPad; cap(out) < need {
		out = make([]uint64, 0, need)
	}
	b[dEq1] = len(out)
	for c := dEq1; c <= dAbove; c++ {
		part := f.subSide(sd, id, 1<<c, p1, p2, s.sub[id][:0])
		s.sub[id] = part.cols
		out = f.makeList(&part, out, s)
		b[c+1] = len(out)
	}
	return out
}
