package logic

import (
	"math/bits"
	"slices"
)

// The SE scale's chains: bidirectional cycles and forcing X- and Y-chains
// (6.5-7.x), Nishio forcing chains (7.5+), multiple forcing chains (cell
// and region, 8.0+), dynamic forcing chains (8.5+, the candidates a chain
// removes removing further ones), and dynamic chains whose propagation also
// applies intersections, pairs and X-Wings (9.0+) and nested chains
// (9.5+). Each search propagates assumptions breadth first, as serate
// does, records for every conclusion the conclusions it follows from, and
// weighs a chain by how many distinct conclusions it needs (its
// complexity): a tenth more for every half as many again, from 4 on.

// A potential is a candidate assumed true (on) or false (off): id is
// node*2 + on, node = cell*9 + digit-1.
const nPots = 729 * 2

func potID(c, d int, on bool) int {
	id := (c*9 + d - 1) * 2
	if on {
		id++
	}
	return id
}

func potCell(id int) int  { return id / 18 }
func potDigit(id int) int { return id/2%9 + 1 }
func potOn(id int) bool   { return id&1 != 0 }

// Causes of a conclusion: why an "on" follows (a naked or hidden single)
// or an "off" (the cell holds another digit, the house another copy, or a
// technique the propagation applies).
const (
	causeNone uint8 = iota // the assumption itself
	causeNaked
	causeBlock
	causeRow
	causeColumn
	causeAdvanced
)

var regionCause = [3]uint8{causeBlock, causeRow, causeColumn}

// pot is a conclusion in a chainer's potArena: the potential, why, the
// conclusions it follows from (parents, the first the one it was drawn
// from), and the nested chain that proved it (advanced removals).
type pot struct {
	id     int16
	cause  uint8
	plo    int32
	phi    int32
	nested *chainHint
}

type potArena struct {
	pots []pot
	par  []int32
}

func (a *potArena) reset() {
	a.pots = a.pots[:0]
	a.par = a.par[:0]
}

// add appends a conclusion with the parents given.
func (a *potArena) add(id int, cause uint8, nested *chainHint, parents ...int32) int32 {
	lo := int32(len(a.par))
	a.par = append(a.par, parents...)
	a.pots = append(a.pots, pot{int16(id), cause, lo, int32(len(a.par)), nested})
	return int32(len(a.pots) - 1)
}

func (a *potArena) parents(i int32) []int32 { p := &a.pots[i]; return a.par[p.plo:p.phi] }

// potSet is serate's linked set of potentials: insertion order, lookup by
// potential (the last instance added), iteration over the first instances.
type potSet struct {
	gen   uint32
	stamp [nPots]uint32
	at    [nPots]int32
	first [nPots]int32
	order []int32 // first instances, in insertion order
}

func (s *potSet) reset() {
	s.gen++
	if s.gen == 0 {
		clear(s.stamp[:])
		s.gen = 1
	}
	s.order = s.order[:0]
}

func (s *potSet) has(id int) bool { return s.stamp[id] == s.gen }

// get returns the instance of potential id, or -1.
func (s *potSet) get(id int) int32 {
	if s.stamp[id] != s.gen {
		return -1
	}
	return s.at[id]
}

// add adds instance i of potential id (replacing the one looked up if the
// potential is in the set already).
func (s *potSet) add(id int, i int32) {
	if s.stamp[id] != s.gen {
		s.stamp[id] = s.gen
		s.first[id] = i
		s.order = append(s.order, i)
	}
	s.at[id] = i
}

// chainMode is one of serate's chaining techniques.
type chainMode int

const (
	chainCycles chainMode = iota
	chainNishio
	chainMultiple
	chainDynamic
	chainDynamicPlus
	chainNested2
	chainNested3
	chainNested4
	chainNested41
	chainNested42
	chainNested43
)

type chainConf struct {
	multiple, dynamic, nishio bool
	level, nest               int
}

var chainConfs = [...]chainConf{
	chainCycles:      {},
	chainNishio:      {dynamic: true, nishio: true},
	chainMultiple:    {multiple: true},
	chainDynamic:     {multiple: true, dynamic: true},
	chainDynamicPlus: {multiple: true, dynamic: true, level: 1},
	chainNested2:     {multiple: true, dynamic: true, level: 2},
	chainNested3:     {multiple: true, dynamic: true, level: 3},
	chainNested4:     {multiple: true, dynamic: true, level: 4},
	chainNested41:    {multiple: true, dynamic: true, level: 4, nest: 1},
	chainNested42:    {multiple: true, dynamic: true, level: 4, nest: 2},
	chainNested43:    {multiple: true, dynamic: true, level: 4, nest: 3},
}

// chainer is one chaining technique's searcher, with its potArena, its scratch
// sets, the nested techniques its propagation applies, and its last search
// (a nested technique is asked again and again on the same board).
type chainer struct {
	conf   chainConf
	e      *seEngine
	ar     potArena
	pool   []*potSet
	npool  int
	others []*chainer // nested chaining techniques (levels 2-4)
	nested bool       // a nested technique: its steps feed another's propagation
	save   board      // the board at the start of the current propagation
	pl     [9]cellset // the candidates of each digit on the board being searched

	lastOK    bool
	lastVal   [81]uint8
	lastCand  [81]uint16
	lastHints []*chainHint

	pendOn, pendOff, outBuf []int32 // propagation scratch

	memos     [729]memo // propagations of single "on" assumptions, this search
	memoGen   [729]uint32
	memoStamp uint32

	// ancestor counting
	mark  [nPots]uint32
	epoch uint32
	stack []int32
	buf   []int32
}

func (e *seEngine) chainerFor(m chainMode) *chainer {
	if ch := e.chains[m]; ch != nil {
		return ch
	}
	ch := &chainer{conf: chainConfs[m], e: e}
	e.chains[m] = ch
	return ch
}

// newChainer makes a nested technique's searcher (its own, as serate gives
// every technique its own nested ones).
func (e *seEngine) newChainer(c chainConf) *chainer { return &chainer{conf: c, e: e} }

func (ch *chainer) set() *potSet {
	if ch.npool == len(ch.pool) {
		ch.pool = append(ch.pool, new(potSet))
	}
	s := ch.pool[ch.npool]
	ch.npool++
	s.reset()
	return s
}

// difficulty is the technique's base difficulty (cycles and X/Y-chains
// have their own).
func (c chainConf) difficulty() float64 {
	switch {
	case c.level > 0:
		return 8.5 + 0.5*float64(c.level)
	case c.nishio:
		return 7.5
	case c.dynamic:
		return 8.5
	}
	return 8.0
}

// seChainProducer is the finder of a chaining technique: its easiest step.
func seChainProducer(m chainMode) func(e *seEngine, b *board) (hint, bool) {
	return func(e *seEngine, b *board) (hint, bool) {
		ch := e.chainerFor(m)
		hs := ch.search(b, true)
		if len(hs) == 0 || e.s.cancelled() {
			return hint{}, false
		}
		return hs[0].hint(b), true
	}
}

// search returns the technique's steps on b, easiest first: the first only
// if first is set (the solver's use), else all of them, one per set of
// removals (a nested use).
func (ch *chainer) search(b *board, first bool) []*chainHint {
	if ch.lastOK && ch.lastVal == b.val && ch.lastCand == b.cand {
		return ch.lastHints
	}
	ch.ar.reset()
	ch.memoStamp++
	ch.pl = planes(b)
	var hs []*chainHint
	if ch.conf.multiple || ch.conf.dynamic {
		hs = ch.multipleChains(b)
	} else {
		hs = ch.loops(b, false, true)
		hs = append(hs, ch.loops(b, true, false)...)
		hs = append(hs, ch.loops(b, true, true)...)
	}
	slices.SortStableFunc(hs, func(x, y *chainHint) int {
		switch {
		case x.diff < y.diff:
			return -1
		case x.diff > y.diff:
			return 1
		case x.complexity != y.complexity:
			return x.complexity - y.complexity
		}
		return x.sortKey - y.sortKey
	})
	if first {
		if len(hs) > 1 {
			hs = hs[:1]
		}
	} else {
		// One step per set of removals: the first (easiest) of equal ones.
		out := hs[:0]
		for _, h := range hs {
			dup := false
			for _, o := range out {
				if sameRemovals(o.elims, h.elims) {
					dup = true
					break
				}
			}
			if !dup {
				out = append(out, h)
			}
		}
		hs = out
	}
	ch.lastOK, ch.lastVal, ch.lastCand, ch.lastHints = true, b.val, b.cand, hs
	return hs
}

// sameRemovals reports whether two hints remove the same candidates.
func sameRemovals(a, b []Move) bool {
	if len(a) != len(b) {
		return false
	}
	var ma, mb [81]uint16
	for i := range a {
		ma[a[i].Cell] |= 1 << (a[i].Digit - 1)
		mb[b[i].Cell] |= 1 << (b[i].Digit - 1)
	}
	return ma == mb
}

// onToOff draws the "off" conclusions of "on" potential p (arena index pi):
// with y, the cell's other candidates; then the digit's other places in
// the block, the row and the column. It appends their arena indices to
// out.
func (ch *chainer) onToOff(g *board, pi int32, y bool, out []int32) []int32 {
	id := int(ch.ar.pots[pi].id)
	c, d := potCell(id), potDigit(id)
	if y {
		for m := g.cand[c] &^ (1 << (d - 1)); m != 0; m &= m - 1 {
			out = append(out, ch.ar.add(potID(c, bits.TrailingZeros16(m)+1, false), causeNaked, nil, pi))
		}
	}
	// Houses' cells are numbered in increasing order, so each house's
	// places come out in its order.
	pl := ch.pl[d-1]
	pl.remove(c)
	box := pl.and(houseSet[houseOf[c][2]])
	row := pl.and(houseSet[houseOf[c][0]]).andNot(box)
	col := pl.and(houseSet[houseOf[c][1]]).andNot(box)
	for t, set := range [3]cellset{box, row, col} {
		for m := set.lo; m != 0; m &= m - 1 {
			out = append(out, ch.ar.add(potID(bits.TrailingZeros64(m), d, false), regionCause[t], nil, pi))
		}
		for m := set.hi; m != 0; m &= m - 1 {
			out = append(out, ch.ar.add(potID(64+bits.TrailingZeros64(m), d, false), regionCause[t], nil, pi))
		}
	}
	return out
}

// offToOn draws the "on" conclusions of "off" potential p: with y, the
// cell's other candidate when it has two; with x, the digit's other place
// in each house (block, row, column) where it has two. A conclusion also
// follows from the removals the propagation made in the cell or house
// (dynamic chains), which source (the board at its start, with planes
// srcPl) still has: they are found in offs.
func (ch *chainer) offToOn(g, source *board, srcPl *[9]cellset, pi int32, offs *potSet, y, x bool, out []int32) []int32 {
	id := int(ch.ar.pots[pi].id)
	c, d := potCell(id), potDigit(id)
	if y && popcount(g.cand[c]) == 2 {
		m := g.cand[c]
		other := bits.TrailingZeros16(m) + 1
		if other == d {
			other = bits.TrailingZeros16(m&(m-1)) + 1
		}
		ps := append(ch.buf[:0], pi)
		if source != nil {
			for hid := source.cand[c] &^ g.cand[c]; hid != 0; hid &= hid - 1 {
				if q := offs.get(potID(c, bits.TrailingZeros16(hid)+1, false)); q >= 0 {
					ps = append(ps, q)
				}
			}
		}
		ch.buf = ps
		out = append(out, ch.ar.add(potID(c, other, true), causeNaked, nil, ps...))
	}
	if x {
		pl := ch.pl[d-1]
		for t, h := range [3]int{houseOf[c][2], houseOf[c][0], houseOf[c][1]} {
			in := pl.and(houseSet[h])
			in.remove(c)
			if in.count() != 1 {
				continue
			}
			other := 0
			if in.lo != 0 {
				other = bits.TrailingZeros64(in.lo)
			} else {
				other = 64 + bits.TrailingZeros64(in.hi)
			}
			ps := append(ch.buf[:0], pi)
			if source != nil {
				gone := srcPl[d-1].andNot(pl).and(houseSet[h])
				for _, z := range gone.cells() {
					if q := offs.get(potID(z, d, false)); q >= 0 {
						ps = append(ps, q)
					}
				}
			}
			ch.buf = ps
			out = append(out, ch.ar.add(potID(other, d, true), regionCause[t], nil, ps...))
		}
	}
	return out
}

// planes returns the candidates of each digit of b.
func planes(b *board) [9]cellset {
	var pl [9]cellset
	for c := 0; c < 81; c++ {
		for m := b.cand[c]; m != 0; m &= m - 1 {
			pl[bits.TrailingZeros16(m)].add(c)
		}
	}
	return pl
}

// isParent reports whether potential id is on the first-parent path of
// potArena entry child.
func (ch *chainer) isParent(child int32, id int) bool {
	for {
		ps := ch.ar.parents(child)
		if len(ps) == 0 {
			return false
		}
		child = ps[0]
		if int(ch.ar.pots[child].id) == id {
			return true
		}
	}
}

// propagate completes toOn and toOff with everything their potentials
// imply (serate's doChaining), on board g, which it changes while it runs
// (dynamic chains remove the "off" candidates as they go) and restores. It
// returns the first contradiction, a potential both on and off, as the
// two instances, or -1, -1.
func (ch *chainer) propagate(g *board, toOn, toOff *potSet) (int32, int32) {
	ch.save = *g
	savePl := ch.pl
	defer func() { *g, ch.pl = ch.save, savePl }()
	nishio := ch.conf.nishio
	pendOn := append(ch.pendOn[:0], toOn.order...)
	pendOff := append(ch.pendOff[:0], toOff.order...)
	buf := ch.outBuf[:0]
	defer func() { ch.pendOn, ch.pendOff, ch.outBuf = pendOn[:0], pendOff[:0], buf[:0] }()
	onHead, offHead := 0, 0
	for {
		if onHead < len(pendOn) {
			p := pendOn[onHead]
			onHead++
			buf = ch.onToOff(g, p, !nishio, buf[:0])
			for _, q := range buf {
				id := int(ch.ar.pots[q].id)
				if on := toOn.get(id + 1); on >= 0 {
					return on, q
				}
				if !toOff.has(id) {
					toOff.add(id, q)
					pendOff = append(pendOff, q)
				}
			}
			continue
		}
		if offHead < len(pendOff) {
			p := pendOff[offHead]
			offHead++
			buf = ch.offToOn(g, &ch.save, &savePl, p, toOff, !nishio, true, buf[:0])
			if ch.conf.dynamic {
				id := int(ch.ar.pots[p].id)
				g.cand[potCell(id)] &^= 1 << (potDigit(id) - 1)
				ch.pl[potDigit(id)-1].remove(potCell(id))
			}
			for _, q := range buf {
				id := int(ch.ar.pots[q].id)
				if off := toOff.get(id - 1); off >= 0 {
					return q, off
				}
				if !toOn.has(id) {
					toOn.add(id, q)
					pendOn = append(pendOn, q)
				}
			}
			continue
		}
		if ch.conf.level == 0 || ch.e.s.cancelled() {
			return -1, -1
		}
		more := false
		for _, q := range ch.advanced(g, &ch.save, toOff) {
			id := int(ch.ar.pots[q].id)
			if !toOff.has(id) {
				toOff.add(id, q)
				pendOff = append(pendOff, q)
				more = true
			}
		}
		if !more {
			return -1, -1
		}
	}
}

// ancestors counts the distinct potentials conclusion i follows from, i
// included.
func (ch *chainer) ancestors(i int32) int {
	ch.epoch++
	if ch.epoch == 0 {
		clear(ch.mark[:])
		ch.epoch = 1
	}
	n := 0
	st := append(ch.stack[:0], i)
	for len(st) > 0 {
		j := st[len(st)-1]
		st = st[:len(st)-1]
		id := ch.ar.pots[j].id
		if ch.mark[id] == ch.epoch {
			continue
		}
		ch.mark[id] = ch.epoch
		n++
		st = append(st, ch.ar.parents(j)...)
	}
	ch.stack = st
	return n
}

// chainOf lists what conclusion i follows from, breadth first, each
// potential once (serate's order).
func (ch *chainer) chainOf(i int32) []int32 {
	ch.epoch++
	if ch.epoch == 0 {
		clear(ch.mark[:])
		ch.epoch = 1
	}
	var out []int32
	todo := []int32{i}
	for len(todo) > 0 {
		var next []int32
		for _, j := range todo {
			id := ch.ar.pots[j].id
			if ch.mark[id] == ch.epoch {
				continue
			}
			ch.mark[id] = ch.epoch
			out = append(out, j)
			next = append(next, ch.ar.parents(j)...)
		}
		todo = next
	}
	return out
}

// lengthDifficulty is the difficulty a chain of the given complexity adds:
// the classic scale's length bonus for complexity-2 candidates, added a
// tenth at a time in binary floating point, as serate adds it.
func lengthDifficulty(complexity int) float64 {
	added := 0.0
	for range lengthBonus(complexity - 2) {
		added += 0.1
	}
	return added
}
