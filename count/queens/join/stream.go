package join

import (
	"errors"
	"math/bits"
	"time"
)

// The bounded path. A task of the table path (countTop) reads the whole
// quadrant tables and holds both lists of half boards of a row set, with
// their copies sorted by index key: at n = 28 the tables would take
// hundreds of gigabytes and the lists gigabytes. The bounded path holds
// only what one row set uses, in memory of a size fixed ahead:
//
//   - the four row lists of its quadrants (rowList), built for the task's
//     rows instead of read from a table;
//   - one side's half boards (the one with fewer candidate pairs), filed
//     by index key in an arena of fixed capacity; when the arena is full,
//     what it holds is joined and the filing goes on where it stopped;
//   - the other side's half boards, never held: each is put, as it is
//     made, in a staging block of its key (512 patterns), and a full
//     block is built and counted against the arena's compatible buckets.
//
// The answer and the task's nodes (its half boards) are those of the
// table path; only the memory and the order of the work differ.

// bscratch is the memory of one counting goroutine on the bounded path.
type bscratch struct {
	north [2]rowList // the north lists of the task: west, east
	south [2]rowList // the south lists of the row set
	arena arena
	// The staging blocks of the streamed side, 512 patterns per key.
	stage    []uint64
	stageLen []int
	cand     []uint64 // half boards made, before filing
	buf      []south
	cols     []uint32 // column sets with entries on both quadrants
	rbs      []uint32 // the task's south row sets
	blk      block
	k        Kernel
	// keep, when not nil, says which keys of the streamed side are
	// joined: the estimator's sample (see Counter.Sample), drawn with
	// keepFrac and keepSeed; usedFrac is the share kept.
	keep               []bool
	keepBuf, need      []bool
	keepFrac, usedFrac float64
	keepSeed           uint64
	// clock, when not nil, times the joining (joinTime) for the
	// estimator.
	clock    func() time.Duration
	joinTime time.Duration
	// Work since the last look up, and what to do then (as scratch).
	work  uint64
	yield func(work uint64) error
	// halves counts the half boards made, the task's nodes.
	halves uint64
	// capacity is the arena's size in patterns.
	capacity int
}

func (s *bscratch) tick(work uint64) error {
	s.work += work
	if s.work < sliceWork || s.yield == nil {
		return nil
	}
	w := s.work
	s.work = 0
	return s.yield(w)
}

// candFlush is how many half boards are made before they are filed.
const candFlush = 4096

// side is one half of a row set on the bounded path: its half, its north
// and south lists, and the column sets C (|C| = the north rows) with
// entries on both.
type side struct {
	h      *half
	nl, sl *rowList
	cols   []uint32
	bound  uint64 // candidate pairs: Σ_C |north(C)|·|south(h.cols\C)|
}

func (f *frame) makeSide(h *half, nl, sl *rowList, cols []uint32) side {
	sd := side{h: h, nl: nl, sl: sl, cols: cols[:0]}
	k := bits.OnesCount32(nl.rows)
	subsets(h.cols, k, func(c uint32) {
		a, b := len(nl.list(c)), len(sl.list(h.cols&^c))
		if a > 0 && b > 0 {
			sd.cols = append(sd.cols, c)
			sd.bound += uint64(a) * uint64(b)
		}
	})
	return sd
}

// southOf fills buf with the south entries of column set ys, shifted into
// the north quadrant's coordinates, with their share of the pattern.
func (f *frame) southOf(h *half, ys []uint64, buf []south) []south {
	s, m1, m2, l1 := f.s, f.mask1, f.mask2, f.l1
	buf = buf[:0]
	for _, y := range ys {
		y1, y2 := (y&0xFFFFFFFF)<<s, (y>>32)<<s
		buf = append(buf, south{y1, y2, y1>>h.sh1&m1 | (y2>>h.sh2&m2)<<l1})
	}
	return buf
}

// pairs appends to out the patterns of north entry x with the compatible
// entries of buf (branch-free, as in halves).
func (f *frame) pairs(h *half, x uint64, buf []south, out []uint64) []uint64 {
	x1, x2 := x&0xFFFFFFFF, x>>32
	xp := x1>>h.sh1&f.mask1 | (x2>>h.sh2&f.mask2)<<f.l1
	n := len(out)
	if cap(out)-n < len(buf) {
		out = append(out[:cap(out)], make([]uint64, len(buf))...)[:n]
	}
	o := out[n : n+len(buf)]
	i := 0
	for _, y := range buf {
		o[i] = xp | y.pat
		i += fits(x1&y.d1 | x2&y.d2)
	}
	return out[:n+i]
}

// errArena reports an arena too small for the half boards of one north
// entry: the memory given to a worker is below what the task needs.
var errArena = errors.New("join: a worker's memory is too small for one quadrant list")

// countBounded counts the completions of f whose east queens take the
// rows rt of the north quadrants and, for each of rbs, the rows rb of the
// south ones (each weighted by its mirror class, see canonical).
func (f *frame) countBounded(rt uint32, rbs []uint32, s *bscratch) (uint64, error) {
	e, w := &s.north[1], &s.north[0]
	e.build(f.g.HN, f.q, rt, f.ce, f.att[ne])
	w.build(f.g.HN, f.q, f.ft&^rt, f.cw, f.att[nw])
	if err := s.tick(uint64(e.size() + w.size())); err != nil {
		return 0, err
	}
	var total uint64
	for _, rb := range rbs {
		wt := f.canonical(rt, rb)
		if wt == 0 {
			continue
		}
		c, err := f.countRowsBounded(rt, rb, s)
		if err != nil {
			return 0, err
		}
		total += wt * c
	}
	return total, nil
}

// countRowsBounded counts the completions of row set (rt, rb). Its nodes,
// added to s.halves, are the table path's: the east half boards, and the
// west ones when there are east ones.
func (f *frame) countRowsBounded(rt, rb uint32, s *bscratch) (uint64, error) {
	lse, lsw := &s.south[1], &s.south[0]
	lse.build(f.g.HS, f.q, rb, f.ce, f.att[se])
	lsw.build(f.g.HS, f.q, f.fb&^rb, f.cw, f.att[sw])
	if err := s.tick(uint64(lse.size() + lsw.size())); err != nil {
		return 0, err
	}
	east := f.makeSide(&f.sides[1], &s.north[1], lse, s.cols)
	if east.bound == 0 {
		return 0, nil
	}
	s.cols = east.cols[len(east.cols):] // the west's column sets after the east's
	west := f.makeSide(&f.sides[0], &s.north[0], lsw, s.cols)
	s.cols = east.cols[:0]
	if west.bound == 0 {
		// No west half board: the east ones are made (they are the
		// task's nodes, as on the table path) but pair with nothing.
		n, err := f.streamCount(&east, s)
		s.halves += n
		return 0, err
	}
	held, streamed := &west, &east
	if east.bound < west.bound {
		held, streamed = &east, &west
	}
	// Index bits as the table path chooses them for the list of blocks
	// (about half the candidate pairs are compatible).
	k := f.indexBits(int(streamed.bound / 2))
	kr := &f.keys[k]
	nkeys := 1 << uint(k)
	s.arena.reset(s.capacity, nkeys)
	s.stage = resize(s.stage, nkeys*blockSize)
	s.stageLen = resize(s.stageLen, nkeys)
	s.keepKeys(nkeys)
	need := s.needKeys(nkeys)
	var total, nh, ns uint64
	var pos genPos
	for pass := 0; ; pass++ {
		done, n, err := f.fill(held, &pos, kr, need, s)
		if err != nil {
			return 0, err
		}
		nh += n
		if done && nh == 0 {
			// Nothing to pair with. The table path still makes the east
			// side (its nodes) when the west one is the empty side.
			if held == &west {
				n, err := f.streamCount(&east, s)
				s.halves += n
				return 0, err
			}
			return 0, nil
		}
		c, n, err := f.streamJoin(streamed, kr, s)
		if err != nil {
			return 0, err
		}
		if pass == 0 {
			ns = n
		}
		total += c
		if done {
			break
		}
		s.arena.clear()
	}
	// The table path makes the west side only when the east has half
	// boards.
	ne, nw := ns, nh
	if held == &east {
		ne, nw = nh, ns
	}
	if ne > 0 {
		s.halves += ne + nw
	}
	return total, nil
}

// genPos is where the filing of the held side stopped: column set c,
// north entry x.
type genPos struct{ c, x int }

// fill files the half boards of sd into the arena from pos until they are
// all filed (true) or the arena cannot take the next north entry's
// (false, pos then says where to go on), and returns how many it made.
// With need (a sample of the streamed side's keys), it files only those
// that some kept key can pair with.
func (f *frame) fill(sd *side, pos *genPos, kr *keyer, need []bool, s *bscratch) (bool, uint64, error) {
	a := &s.arena
	var n uint64
	for ; pos.c < len(sd.cols); pos.c, pos.x = pos.c+1, 0 {
		c := sd.cols[pos.c]
		s.buf = f.southOf(sd.h, sd.sl.list(sd.h.cols&^c), s.buf)
		xs := sd.nl.list(c)
		for ; pos.x < len(xs); pos.x++ {
			if a.room() < len(s.buf) {
				if a.n == 0 {
					return false, n, errArena
				}
				return false, n, nil
			}
			s.cand = f.pairs(sd.h, xs[pos.x], s.buf, s.cand[:0])
			if need == nil {
				for _, p := range s.cand {
					a.add(kr.key(p), p)
				}
			} else {
				for _, p := range s.cand {
					if k := kr.key(p); need[k] {
						a.add(k, p)
					}
				}
			}
			n += uint64(len(s.cand))
			if err := s.tick(uint64(len(s.cand))); err != nil {
				return false, n, err
			}
		}
	}
	return true, n, nil
}

// streamJoin makes the half boards of sd, stages them by key and counts
// each full block against the arena; it returns the compatible pairs and
// the half boards made.
func (f *frame) streamJoin(sd *side, kr *keyer, s *bscratch) (uint64, uint64, error) {
	clear(s.stageLen)
	s.cand = s.cand[:0]
	var total uint64
	nkeys := len(s.stageLen)
	all := uint32(nkeys - 1)
	flush := func(key uint32, pats []uint64) error {
		if s.clock != nil {
			t0 := s.clock()
			defer func() { s.joinTime += s.clock() - t0 }()
		}
		s.k.build(&s.blk, pats, f.m)
		comp := all &^ key
		items := 0
		for z := comp; ; z = (z - 1) & comp {
			for i, ch := range s.arena.chunks[z] {
				end := arenaChunk
				if i == len(s.arena.chunks[z])-1 {
					end = int(s.arena.last[z])
				}
				total += s.k.count(&s.blk, s.arena.chunk(ch)[:end])
				items += end
			}
			if z == 0 {
				break
			}
		}
		return s.tick(uint64(items))
	}
	var made uint64
	for _, c := range sd.cols {
		s.buf = f.southOf(sd.h, sd.sl.list(sd.h.cols&^c), s.buf)
		for _, x := range sd.nl.list(c) {
			s.cand = f.pairs(sd.h, x, s.buf, s.cand)
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

// stageAll files the made half boards (s.cand) into their keys' staging
// blocks, flushing the full ones, and empties s.cand.
func (f *frame) stageAll(kr *keyer, s *bscratch, flush func(uint32, []uint64) error) error {
	if err := s.tick(uint64(len(s.cand))); err != nil {
		return err
	}
	for _, p := range s.cand {
		key := kr.key(p)
		if s.keep != nil && !s.keep[key] {
			continue
		}
		n := s.stageLen[key]
		o := int(key) * blockSize
		s.stage[o+n] = p
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
	for _, c := range sd.cols {
		s.buf = f.southOf(sd.h, sd.sl.list(sd.h.cols&^c), s.buf)
		for _, x := range sd.nl.list(c) {
			s.cand = f.pairs(sd.h, x, s.buf, s.cand[:0])
			n += uint64(len(s.cand))
			if err := s.tick(uint64(len(s.cand))); err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// southSets appends to out the south row sets rb of the row sets of task
// rt, in the order countTop counts them: every subset of the free south
// rows with as many rows as the east queens need there.
func (f *frame) southSets(rt uint32, out []uint32) []uint32 {
	subsets(f.fb, bits.OnesCount32(f.ce)-bits.OnesCount32(rt), func(rb uint32) { out = append(out, rb) })
	return out
}
