package join

import (
	"errors"
)

// The stream: the bounded path's last resort, for an arena too small for
// any pass (joinSides; tests force it). One side's half boards (the one
// with fewer candidate pairs) are filed by index key in an arena of fixed
// capacity; when the arena is full, what it holds is joined and the
// filing goes on where it stopped. The other side's half boards are never
// held: each is put, as it is made, in a staging block of its key (512
// patterns), and a full block is built and counted against the arena's
// compatible buckets. Its keys stop at streamMaxBits and it costs more
// than the list join: a row set takes it only when nothing else fits.

// errArena reports an arena too small for the half boards of one north
// entry: the memory given to a worker is below what the task needs.
var errArena = errors.New("join: a worker's memory is too small for one quadrant list")

// fill files the half boards of sd into the arena, keyed by kr and
// compacted, from pos until they are all filed (true) or the arena
// cannot take the next north entries' (false, pos then says where to go
// on), and returns how many it made. Half boards made that the arena
// could not take (their keys' chunks full and no chunk free) wait in
// s.pend and are filed first by the next call. With need (a sample of
// the streamed side's keys), it files only those that some kept key can
// pair with.
func (f *frame) fill(sd *side, pos *genPos, kr *keyer, need []bool, s *bscratch) (bool, uint64, error) {
	a := &s.arena
	for i, p := range s.pend {
		if !a.add(s.pendKeys[i], p) {
			if a.n == 0 {
				return false, 0, errArena
			}
			s.pend = s.pend[:copy(s.pend, s.pend[i:])]
			s.pendKeys = s.pendKeys[:copy(s.pendKeys, s.pendKeys[i:])]
			return false, 0, nil
		}
	}
	s.pend, s.pendKeys = s.pend[:0], s.pendKeys[:0]
	var n uint64
	for ; pos.c < len(sd.cols); pos.c, pos.x = pos.c+1, 0 {
		c := sd.cols[pos.c]
		nb := f.southOf(sd, c, s)
		if nb == 0 {
			continue
		}
		xs := sd.nl.list(c)
		for pos.x < len(xs) {
			k := min(len(xs)-pos.x, northStep(nb), a.room()/nb)
			if k == 0 {
				if a.n == 0 {
					return false, n, errArena
				}
				return false, n, nil
			}
			s.cand = f.crossNorth(sd, s.kept(pos.c, xs, pos.x, pos.x+k), nb, s, s.cand[:0])
			pos.x += k
			n += uint64(len(s.cand))
			full := false
			for _, p := range s.cand {
				key := kr.key(p)
				if need != nil && !need[key] {
					continue
				}
				p = kr.compact(p)
				if full || !a.add(key, p) {
					full = true
					s.pend = append(s.pend, p)
					s.pendKeys = append(s.pendKeys, key)
				}
			}
			if err := s.tick(uint64(len(s.cand))); err != nil {
				return false, n, err
			}
			if full {
				return false, n, nil
			}
		}
	}
	return true, n, nil
}

// streamJoin makes the half boards of sd, stages them by key, compacted,
// and counts each full block against the arena; it returns the
// compatible pairs and the half boards made. The patterns have m bits
// (compacted).
func (f *frame) streamJoin(sd *side, kr *keyer, m int, s *bscratch) (uint64, uint64, error) {
	clear(s.stageLen)
	s.cand = s.cand[:0]
	blk := s.ls.block() // one block a worker, whichever join runs
	var total uint64
	nkeys := len(s.stageLen)
	all := uint32(nkeys - 1)
	var items int
	flush := func(key uint32, pats []uint64) error {
		if s.clock != nil {
			t0 := s.clock()
			defer func() {
				d := s.clock() - t0
				s.joinTime += d
				st := &s.kstat[key]
				st.flushes++
				st.items += items
				st.time += d
			}()
		}
		// As joinBuckets: a few patterns pair by pair, a block of at most
		// half its size by the half kernel.
		direct := len(pats) <= directMax
		comp := all &^ key
		if !direct {
			// The items the block is run through choose its layout.
			n := 0
			for z := comp; ; z = (z - 1) & comp {
				if c := len(s.arena.chunks[z]); c > 0 {
					n += (c-1)*arenaChunk + int(s.arena.last[z])
				}
				if z == 0 {
					break
				}
			}
			s.k.build(blk, pats, m, layoutOf(m, n))
		}
		items = 0
		for z := comp; ; z = (z - 1) & comp {
			last := len(s.arena.chunks[z]) - 1
			for i, ch := range s.arena.chunks[z] {
				end := arenaChunk
				if i == last {
					end = int(s.arena.last[z])
				}
				it := s.arena.chunk(ch)[:end]
				switch {
				case direct:
					total += s.k.pairs(pats, it)
				case len(pats) <= blockSize/2:
					total += s.k.half(blk, it)
				default:
					total += s.k.count(blk, it)
				}
				items += end
			}
			if z == 0 {
				break
			}
		}
		return s.tick(uint64(items))
	}
	var made uint64
	for ci, c := range sd.cols {
		nb := f.southOf(sd, c, s)
		if nb == 0 {
			continue
		}
		xs := sd.nl.list(c)
		step := northStep(nb)
		for x := 0; x < len(xs); x += step {
			s.cand = f.crossNorth(sd, s.kept(ci, xs, x, min(x+step, len(xs))), nb, s, s.cand)
			if len(s.cand) < candFlush {
				continue
			}
			made += uint64(len(s.cand))
			if err := f.stageAll(kr, s, flush); err != nil {
				return 0, 0, err
			}
		}
	}
	made += uint64(len(s.cand))
	if err := f.stageAll(kr, s, flush); err != nil {
		return 0, 0, err
	}
	for key := range nkeys {
		if n := s.stageLen[key]; n > 0 {
			if err := flush(uint32(key), s.stage[key*blockSize:key*blockSize+n]); err != nil {
				return 0, 0, err
			}
		}
	}
	return total, made, nil
}

// stageAll files the made half boards (s.cand), compacted, into their
// keys' staging blocks, flushing the full ones, and empties s.cand.
func (f *frame) stageAll(kr *keyer, s *bscratch, flush func(uint32, []uint64) error) error {
	if err := s.tick(uint64(len(s.cand))); err != nil {
		return err
	}
	for _, p := range s.cand {
		key := kr.key(p)
		if s.keep != nil && !s.keep[key] {
			continue
		}
		if s.kstat != nil {
			s.kstat[key].staged++
		}
		n := s.stageLen[key]
		o := int(key) * blockSize
		s.stage[o+n] = kr.compact(p)
		n++
		if n == blockSize {
			if err := flush(key, s.stage[o:o+n]); err != nil {
				return err
			}
			n = 0
		}
		s.stageLen[key] = n
	}
	s.cand = s.cand[:0]
	return nil
}

// streamCount makes the half boards of sd and only counts them.
func (f *frame) streamCount(sd *side, s *bscratch) (uint64, error) {
	var n uint64
	_, err := f.genFrom(sd, &genPos{}, s, func(p []uint64) bool { n += uint64(len(p)); return true })
	return n, err
}
