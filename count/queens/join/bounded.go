package join

import (
	"math"
	"math/bits"
	"time"
)

// The bounded path. A task of the table path (countTop) reads the whole
// quadrant tables and holds both lists of half boards of a row set, with
// their copies sorted by index key: at n = 28 the tables would take
// hundreds of gigabytes and the lists gigabytes. The bounded path holds
// only what one row set uses, in memory of a size fixed ahead. The work
// flows through this file in order:
//
//   - countBatch (batch.go) builds the two north row lists of each task
//     of its batch (rowList, rows.go; buildNorth) and, for each row set,
//     the two south ones once for all of them (buildSouth): the
//     placements on its own rows, instead of a table's; countRowsBuilt
//     counts a task's row set from them;
//   - makeSide pairs them into the row set's east and west sides, whose
//     half boards genFrom makes (southOf, crossNorth) a batch at a time;
//   - a row set whose sides fit together is joined as lists, each side
//     made once, class after class of the diagonal symmetry (diag.go):
//     joinListsDiag (lists.go); one whose shorter side fits, with shallow
//     keys, holds that side whole and makes the other once, in pieces
//     (joinDiagHeld). Lists are begun where their half boards are likely
//     to fit (listRoom: about a third of the candidate pairs that bound
//     them), and a join that outgrows the budget stops and goes on below;
//   - otherwise eachDiag cuts the sides by the symmetry's classes and
//     joinSides joins each pair of parts the cheapest way that fits the
//     worker's budget: as lists, a short side against a long one unsorted
//     (small.go), in passes (passes.go), or, where the arena is too small
//     for a pass, streamed (stream.go).
//
// The answer and the task's nodes (its half boards) are those of the
// table path; only the memory and the order of the work differ.

// bscratch is the memory of one counting goroutine on the bounded path.
type bscratch struct {
	north [2]rowList // the north lists of the task: west, east
	south [2]rowList // the south lists of the row set
	arena arena
	// ls is the list join's memory (lists.go): the table path's, for a
	// row set that fits.
	ls scratch
	// The staging blocks of the streamed side, 512 patterns per key (and
	// vecPad more: the kernels may read beyond a block).
	stage    []uint64
	stageLen []int
	cand     []uint64 // half boards made, before filing
	// sampE and sampW are the buffers of the samples of a row set joined
	// in passes (see keepSample);
	// err carries an error out of a callback.
	sampE, sampW []uint64
	err          error
	pend         []uint64 // half boards made and keyed that the arena could not take (fill)
	pendKeys     []uint32
	kx           []uint64    // the north entries a sample keeps (kept)
	xs, ys       entries     // a few north entries and one column set's south entries, ready to pair
	cols         []uint32    // column sets with entries on both quadrants
	sub          [2][]uint32 // the column sets of parts of sides (eachDiag)
	rbs          []uint32    // the task's south row sets
	// batch are the north row lists of a batch's tasks (batch.go), wts
	// their weights for one south row set.
	batch [][2]rowList
	wts   []uint64
	k     Kernel
	// keep, when not nil, says which keys of the streamed side are
	// joined: the estimator's sample (see Counter.Sample), drawn with
	// keepFrac and keepSeed; usedFrac is the share kept.
	keep               []bool
	keepBuf, need      []bool
	keepFrac, usedFrac float64
	keepSeed           uint64
	// entryThresh, when not 0, samples both sides' north entries for the
	// estimator: an entry is made with chance entryThresh/2^64, decided
	// by a hash of entrySeed, its side, column set and index (see
	// keepEntry); sideID is the side being made.
	entryThresh, entrySeed uint64
	sideID                 int
	// clock, when not nil, times the joining (joinTime), the filing of
	// the held side (fillTime) and its passes for the estimator.
	clock                func() time.Duration
	joinTime, fillTime   time.Duration
	streamTime, listTime time.Duration
	passes               int
	held                 uint64 // half boards of the held side made
	// kstat, when clock is set, is what each key of the streamed side
	// staged and cost (see joinEstimate).
	kstat []keyStat
	// Work since the last look up, and what to do then (as scratch).
	ticker
	// halves counts the half boards made, the task's nodes; listed and
	// streamed the row sets joined as lists and streamed (for tests).
	halves                   uint64
	rows                     uint64 // row list entries built
	listed, passed, streamed int
	small                    int         // of the passed, those joined by joinSmall
	outgrown                 int         // joins begun as lists that outgrew the budget (listRoom)
	held1, pieces            int         // row sets joined with one side held whole (joinDiagHeld), and their pieces
	classed                  int         // the other side's groups of classes made (otherGroups)
	cf, ocf                  classFilter // the passes' filters by the held groups' classes and the other side's
	pd                       passDiag    // the passes under the diagonal symmetry (joinPassesDiag)
	diagPassed               int         // of the passed, those joined by joinPassesDiag
	noLists                  bool        // joins every row set in passes (for tests)
	noPasses                 bool        // streams every row set that does not fit (for tests)
	noSmall                  bool        // joins no short side by joinSmall (for tests)
	// listPairs and listHalves are the candidate pairs and the half
	// boards of the lists made (listShare).
	listPairs, listHalves uint64
	// capacity is the arena's size in patterns.
	capacity int
}

// candFlush is about how many half boards are made before they are
// filed: north entries are crossed with a column set's south entries a
// few at a time, as many as make at most candFlush (at least one).
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

// southOf puts in s.ys the south entries of sd that pair with the north
// entries on columns c (those on the side's other columns), ready to
// pair, by the kernel's filter (the row lists hold no attacked entry,
// so it keeps them all), and returns how many.
func (f *frame) southOf(sd *side, c uint32, s *bscratch) int {
	l := sd.sl.list(sd.h.cols &^ c)
	s.ys.reserve(len(l))
	return s.k.filter(&s.ys, l, sd.h.south, &sd.h.ps)
}

// crossNorth appends to out the half boards of the north entries xs of
// sd with the nb south entries in s.ys, by the kernel's filter and cross
// (as halves makes them on the table path).
func (f *frame) crossNorth(sd *side, xs []uint64, nb int, s *bscratch, out []uint64) []uint64 {
	s.xs.reserve(len(xs))
	na := s.k.filter(&s.xs, xs, sd.h.north, &sd.h.pn)
	if need := len(out) + na*nb + vecPad; cap(out) < need {
		out = append(out[:cap(out)], make([]uint64, need-cap(out)+need/4)...)[:len(out)]
	}
	n := len(out)
	out = s.k.cross(&s.xs, na, &s.ys, nb, out)
	s.ls.stat.made += uint64(len(out) - n)
	return out
}

// kept returns the north entries xs[x0:x1] of column set c (its index in
// the side's) that the estimator's sample of entries keeps (keepEntry):
// all of them when it samples none.
func (s *bscratch) kept(c int, xs []uint64, x0, x1 int) []uint64 {
	if s.entryThresh == 0 {
		return xs[x0:x1]
	}
	s.kx = s.kx[:0]
	for x := x0; x < x1; x++ {
		if s.keepEntry(c, x) {
			s.kx = append(s.kx, xs[x])
		}
	}
	return s.kx
}

// northStep is how many north entries are crossed at once with nb south
// entries: as many as make at most candFlush half boards, at least one.
func northStep(nb int) int {
	return max(1, candFlush/max(nb, 1))
}

// buildNorth builds the north row lists of top rt in s.north.
func (f *frame) buildNorth(rt uint32, s *bscratch) error {
	return f.buildPair(&s.north, f.g.HN, rt, f.ft, f.att[ne], f.att[nw], s)
}

// buildPair builds in ls a quadrant pair's row lists on h rows: the east
// one on rows, the west one on the rest of free, their attacked
// diagonals ae and aw.
func (f *frame) buildPair(ls *[2]rowList, h int, rows, free uint32, ae, aw uint64, s *bscratch) error {
	ls[1].build(h, f.q, rows, f.ce, ae)
	ls[0].build(h, f.q, free&^rows, f.cw, aw)
	n := uint64(ls[0].size() + ls[1].size())
	s.rows += n
	return s.tick(n)
}

// countRowsBounded counts the completions of row set (rt, rb). Its nodes,
// added to s.halves, are the table path's: the east half boards, and the
// west ones when there are east ones.
func (f *frame) countRowsBounded(rt, rb uint32, s *bscratch) (uint64, error) {
	if s.clock != nil {
		start := s.clock()
		defer func() { s.listTime = s.clock() - start - s.fillTime - s.streamTime }()
	}
	if err := f.buildSouth(rb, s); err != nil {
		return 0, err
	}
	return f.countRowsBuilt(rt, rb, s)
}

// buildSouth builds the south row lists of row set rb in s.south.
func (f *frame) buildSouth(rb uint32, s *bscratch) error {
	return f.buildPair(&s.south, f.g.HS, rb, f.fb, f.att[se], f.att[sw], s)
}

// countRowsBuilt counts the completions of row set (rt, rb) from the row
// lists in s: the north ones of rt, the south ones of rb.
func (f *frame) countRowsBuilt(rt, rb uint32, s *bscratch) (uint64, error) {
	lse, lsw := &s.south[1], &s.south[0]
	east := f.makeSide(&f.sides[1], &s.north[1], lse, s.cols)
	if east.bound == 0 {
		return 0, nil
	}
	s.cols = east.cols[len(east.cols):] // the west's column sets after the east's
	west := f.makeSide(&f.sides[0], &s.north[0], lsw, s.cols)
	s.cols = east.cols[:0]
	if !f.diag {
		return f.joinSides(&east, &west, s)
	}
	// A row set whose lists fit makes each side once, class after class,
	// and joins the parts.
	if s.entryThresh == 0 && !(s.keepFrac > 0 && s.keepFrac < 1) && !s.noLists {
		n, done, err := s.tryLists(east.bound+west.bound, func(most int) (uint64, bool, error) {
			return f.joinListsDiag(rt, rb, &east, &west, most, s)
		})
		if done {
			s.listed++
			return n, err
		}
		// A row set whose shorter side fits is joined with that side held
		// whole, each side made once, where its keys are shallow: with
		// deep ones, passes cut both sides by classes of keys instead
		// (passes.go), which the estimator projects.
		if f.holdsShorter(&east, &west, s) {
			n, done, err := s.tryLists(min(east.bound, west.bound)*3/2, func(most int) (uint64, bool, error) {
				return f.joinDiagHeld(rt, rb, &east, &west, most, s)
			})
			if done {
				s.held1++
				return n, err
			}
		}
	}
	// A larger one is joined in passes, each half board made once.
	if f.diagPassesOK(s) {
		if n, ok, err := f.joinPassesDiag(rt, rb, &east, &west, s); ok {
			s.passed++
			s.diagPassed++
			return n, err
		}
	}
	var total uint64
	passes, held := 0, uint64(0)
	// With a sample of keys, each join keeps its own share of its keys
	// (usedFrac): its count is scaled to the share asked for, so that
	// the row set's count over keepFrac estimates the whole.
	frac := s.keepFrac
	sampling := frac > 0 && frac < 1
	var scaled float64
	err := f.eachDiag(rt, rb, &east, &west, s, func(e, w *side, j diagJoin) error {
		n, err := f.joinSides(e, w, s)
		total += j.weight * n
		if sampling {
			scaled += float64(j.weight*n) * frac / s.usedFrac
		}
		passes, held = passes+s.passes, held+s.held
		return err
	})
	s.passes, s.held = passes, held
	if sampling {
		total, s.usedFrac = uint64(math.Round(scaled)), frac
	}
	return total, err
}

// holdsShorter reports whether row set's sides east and west, when they
// do not fit as lists together, are joined with the shorter one held
// whole: where the longer one's keys are shallow. With deep ones, passes
// cut both sides by classes of keys instead (passes.go).
func (f *frame) holdsShorter(east, west *side, s *bscratch) bool {
	long := float64(max(east.bound, west.bound)) * s.listShare()
	return f.indexBits(int(long)) < deepMin
}

// eachDiag calls join with each pair of parts of row set (rt, rb)'s
// sides east and west that its count takes under the diagonal symmetry
// (see diagJoins), and the pair's weight, until join fails.
func (f *frame) eachDiag(rt, rb uint32, east, west *side, s *bscratch, join func(e, w *side, j diagJoin) error) error {
	p1, p2 := f.diagKey(rt, rb)
	for _, j := range diagFor(p1, p2) {
		e := f.subSide(east, 1, j.east, p1, p2, s.sub[1][:0])
		s.sub[1] = e.cols
		if e.bound == 0 {
			continue
		}
		w := f.subSide(west, 0, j.west, p1, p2, s.sub[0][:0])
		s.sub[0] = w.cols
		if err := join(&e, &w, j); err != nil {
			return err
		}
	}
	return nil
}

// subSide returns the part of sd (side id) whose column sets' classes
// against (p1, p2) are in mask, with its column sets in cols.
func (f *frame) subSide(sd *side, id int, mask uint8, p1, p2 uint32, cols []uint32) side {
	out := side{h: sd.h, nl: sd.nl, sl: sd.sl, cols: cols}
	for _, c := range sd.cols {
		if f.inClasses(id, c, mask, p1, p2) {
			out.cols = append(out.cols, c)
			out.bound += sd.pairsOf(c)
		}
	}
	return out
}

// inClasses reports whether column set c of side id has a class against
// (p1, p2) in mask.
func (f *frame) inClasses(id int, c uint32, mask uint8, p1, p2 uint32) bool {
	return mask>>classOf(f.colValue(id, c), p1, p2)&1 != 0
}

// pairsOf returns the candidate pairs of sd's column set c: its north
// entries by the south ones on the other columns.
func (sd *side) pairsOf(c uint32) uint64 {
	return uint64(len(sd.nl.list(c))) * uint64(len(sd.sl.list(sd.h.cols&^c)))
}

// joinSides counts the completions of a row set whose sides are east and
// west: as lists, in passes, or streamed.
func (f *frame) joinSides(east, west *side, s *bscratch) (uint64, error) {
	var t0 time.Duration
	if west.bound == 0 {
		// No west half board: the east ones are made (they are the
		// task's nodes, as on the table path) but pair with nothing.
		n, err := f.streamCount(east, s)
		s.halves += n
		return 0, err
	}
	// A row set that fits is joined as lists (a sample of its keys too);
	// a sample of entries streams, as its estimates assume (see
	// joinEstimate).
	if s.entryThresh == 0 && !s.noLists {
		n, done, err := s.tryLists(east.bound+west.bound, func(most int) (uint64, bool, error) {
			return f.joinLists(east, west, most, s)
		})
		if done {
			s.listed++
			return n, err
		}
	}
	// A short side against a long one runs through it unsorted.
	if s.entryThresh == 0 && !s.noPasses && !s.noSmall {
		if small, shortBlocks := f.smallPlan(east, west, &s.ls); small {
			s.passed++
			s.small++
			return f.joinSmall(east, west, shortBlocks, s)
		}
	}
	// A larger one is joined as lists in passes, each within the budget.
	if s.entryThresh == 0 && !s.noPasses {
		s.passed++
		return f.joinPasses(east, west, s, nil)
	}
	s.streamed++
	held, streamed := west, east
	if east.bound < west.bound {
		held, streamed = east, west
	}
	// Index bits as the table path chooses them for the list of blocks
	// (about half the candidate pairs are compatible).
	k := min(f.indexBits(int(streamed.bound/2)), streamMaxBits)
	kr := &f.keys[k]
	nkeys := 1 << uint(k)
	// The list join's buffers share the arena's budget: large ones go,
	// the arena takes what the others leave.
	if lb := s.ls.bytes(); lb > 2*uint64(s.capacity) {
		s.ls.release()
	}
	s.arena.reset(s.capacity-int(s.ls.bytes()/8), nkeys)
	s.stage = resize(s.stage, nkeys*blockSize+vecPad)
	s.stageLen = resize(s.stageLen, nkeys)
	s.keepKeys(nkeys)
	need := s.needKeys(nkeys)
	if s.clock != nil {
		s.kstat = resize(s.kstat, nkeys)
		clear(s.kstat)
	} else {
		s.kstat = s.kstat[:0]
	}
	var total, nh, ns uint64
	var pos genPos
	s.pend, s.pendKeys = s.pend[:0], s.pendKeys[:0]
	heldID, streamedID := 0, 1
	if held == east {
		heldID, streamedID = 1, 0
	}
	for pass := 0; ; pass++ {
		s.sideID = heldID
		if s.clock != nil {
			t0 = s.clock()
		}
		done, n, err := f.fill(held, &pos, kr, need, s)
		if s.clock != nil {
			s.fillTime += s.clock() - t0
		}
		if err != nil {
			return 0, err
		}
		nh += n
		s.passes = pass + 1
		s.held = nh
		if done && nh == 0 {
			// Nothing to pair with. The table path still makes the east
			// side (its nodes) when the west one is the empty side.
			if held == west {
				n, err := f.streamCount(east, s)
				s.halves += n
				return 0, err
			}
			return 0, nil
		}
		s.sideID = streamedID
		if s.clock != nil {
			t0 = s.clock()
		}
		c, n, err := f.streamJoin(streamed, kr, f.m-k, s)
		if s.clock != nil {
			s.streamTime += s.clock() - t0
		}
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
	if held == east {
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

// southSets appends to out the south row sets rb of the row sets of task
// rt, in the order countTop counts them: every subset of the free south
// rows with as many rows as the east queens need there.
func (f *frame) southSets(rt uint32, out []uint32) []uint32 {
	subsets(f.fb, bits.OnesCount32(f.ce)-bits.OnesCount32(rt), func(rb uint32) { out = append(out, rb) })
	return out
}

// genFrom makes the half boards of sd from pos on, a few thousand at a
// time, and gives each batch to use, until use returns false (pos then
// says where to go on) or the side is done (true). It stops at the
// first error of s.tick.
func (f *frame) genFrom(sd *side, pos *genPos, s *bscratch, use func([]uint64) bool) (bool, error) {
	for ; pos.c < len(sd.cols); pos.c, pos.x = pos.c+1, 0 {
		c := sd.cols[pos.c]
		nb := f.southOf(sd, c, s)
		if nb == 0 {
			continue
		}
		xs := sd.nl.list(c)
		step := northStep(nb)
		for pos.x < len(xs) {
			end := min(pos.x+step, len(xs))
			s.cand = f.crossNorth(sd, xs[pos.x:end], nb, s, s.cand[:0])
			pos.x = end
			more := use(s.cand)
			if err := s.tick(uint64(len(s.cand))); err != nil {
				return false, err
			}
			if !more {
				if pos.x == len(xs) {
					pos.c, pos.x = pos.c+1, 0
				}
				return pos.c >= len(sd.cols), nil
			}
		}
	}
	return true, nil
}
