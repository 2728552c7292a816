package logic

import (
	"math/bits"
	"slices"
)

// The searches of the chaining techniques and the steps they make.

// Kinds of chain steps.
const (
	hintBinary  uint8 = iota // contradiction or double forcing chain from one candidate
	hintCell                 // every candidate of a cell leads to the conclusion
	hintRegion               // every place of a digit in a house leads to it
	hintCycle                // a bidirectional cycle
	hintForcing              // a forcing X- or Y-chain
)

// chainHint is a chain step with what serate weighs and orders it by.
type chainHint struct {
	ch         *chainer
	kind       uint8
	absurd     bool
	x, y       bool
	src        int     // binary: the assumption's potential; cell: the cell; region: house*9 + digit-1
	targets    []int32 // the conclusions of the branches, in arena ch.ar
	result     int     // the potential concluded (placement if on), -1 for cycles
	elims      []Move
	diff       float64
	complexity int
	sortKey    int
	sig        []int16 // what makes two nested chains the same (serate's FullChain)
}

func (h *chainHint) name() string {
	c := h.ch.conf
	switch h.kind {
	case hintCycle:
		switch {
		case h.x && h.y:
			return "Bidirectional Cycle"
		case h.y:
			return "Bidirectional Y-Cycle"
		}
		return "Bidirectional X-Cycle"
	case hintForcing:
		switch {
		case h.x && h.y:
			return "Forcing Chain"
		case h.y:
			return "Forcing Y-Chain"
		}
		if h.ch.ancestors(h.targets[0]) == 6 {
			return "Turbot Fish"
		}
		return "Forcing X-Chain"
	}
	prefix := ""
	switch {
	case c.level > 0 || (c.dynamic && !c.nishio):
		prefix = "Dynamic "
	case c.nishio:
		prefix = "Nishio "
	}
	suffix := " Chains" + nestedSuffix(c.level)
	switch h.kind {
	case hintCell:
		return prefix + "Cell Forcing" + suffix
	case hintRegion:
		return prefix + "Region Forcing" + suffix
	}
	switch {
	case c.nishio:
		return prefix + "Forcing" + suffix
	case h.absurd:
		return prefix + "Contradiction Forcing" + suffix
	}
	return prefix + "Double Forcing" + suffix
}

func nestedSuffix(level int) string {
	switch {
	case level == 1:
		return " (+)"
	case level == 2:
		return " (+ Forcing Chains)"
	case level == 3:
		return " (+ Multiple Forcing Chains)"
	case level == 4:
		return " (+ Dynamic Forcing Chains)"
	case level >= 5:
		return " (+ Dynamic Forcing Chains" + nestedSuffix(level-3) + ")"
	}
	return ""
}

// finish weighs a new step: its complexity (the distinct conclusions its
// branches need, plus the nested chains' own), its difficulty and its
// order among equals.
func (ch *chainer) finish(h *chainHint) *chainHint {
	h.ch = ch
	n := 0
	if h.kind == hintBinary {
		n = ch.ancestors(h.targets[0]) + ch.ancestors(h.targets[1])
	} else if h.kind == hintCycle {
		n = ch.ancestors(h.targets[0])
	} else {
		for _, t := range h.targets {
			n += ch.ancestors(t)
		}
	}
	if ch.conf.level >= 2 {
		n += ch.nestedComplexity(h)
	}
	h.complexity = n
	switch h.kind {
	case hintCycle:
		h.diff = 6.5
		if h.x && h.y {
			h.diff = 7.0
		}
		h.sortKey = 2
		if h.x && h.y {
			h.sortKey = 4
		} else if h.y {
			h.sortKey = 3
		}
	case hintForcing:
		h.diff = 6.6
		if h.x && h.y {
			h.diff = 7.0
		}
		h.sortKey = 2
		if h.x && h.y {
			h.sortKey = 4
		} else if h.y {
			h.sortKey = 3
		}
	case hintBinary:
		h.diff = ch.conf.difficulty()
		h.sortKey = 1
		if h.absurd {
			h.sortKey = 7
		}
	case hintCell:
		h.diff = ch.conf.difficulty()
		h.sortKey = 5
	case hintRegion:
		h.diff = ch.conf.difficulty()
		h.sortKey = 6
	}
	h.diff += lengthDifficulty(n)
	if ch.nested {
		h.sig = ch.signature(h)
	}
	return h
}

// chainTargets returns the conclusions serate walks for a step's nested
// chains and parents: both ends of a binary or cycle step, every branch
// of a cell or region one, the target of a forcing chain.
func (h *chainHint) chainTargets() []int32 { return h.targets }

// nestedComplexity sums the complexities of the distinct nested chains
// the step's branches use.
func (ch *chainer) nestedComplexity(h *chainHint) int {
	total := 0
	var seen []*chainHint
	for _, t := range h.chainTargets() {
		for _, j := range ch.chainOf(t) {
			nh := ch.ar.pots[j].nested
			if nh == nil {
				continue
			}
			dup := false
			for _, o := range seen {
				if o == nh || slices.Equal(o.sig, nh.sig) {
					dup = true
					break
				}
			}
			if !dup {
				seen = append(seen, nh)
				total += nh.complexity
			}
		}
	}
	return total
}

// signature lists a step's targets and their chains, as serate compares
// nested chains.
func (ch *chainer) signature(h *chainHint) []int16 {
	var sig []int16
	for _, t := range h.chainTargets() {
		sig = append(sig, -1)
		for _, j := range ch.chainOf(t) {
			sig = append(sig, ch.ar.pots[j].id)
		}
	}
	return sig
}

// otherCands returns the candidates of the cell of potential id other
// than its digit, as removals.
func otherCands(b *board, id int) []Move {
	c, d := potCell(id), potDigit(id)
	var out []Move
	for _, x := range digits(b.cand[c] &^ (1 << (d - 1))) {
		out = append(out, Move{c, x})
	}
	return out
}

// removal returns what a step concluding potential id removes: the
// candidate, if off; the cell's other candidates, if on.
func removal(b *board, id int) []Move {
	if potOn(id) {
		return otherCands(b, id)
	}
	return []Move{{potCell(id), potDigit(id)}}
}

// multipleChains is serate's search for Nishio, multiple and dynamic
// forcing chains: every cell with several candidates (three or more for
// static multiple chains), every candidate.
func (ch *chainer) multipleChains(b *board) []*chainHint {
	var out []*chainHint
	for c := 0; c < 81; c++ {
		if b.val[c] != 0 {
			continue
		}
		card := popcount(b.cand[c])
		if card > 2 || (card > 1 && ch.conf.dynamic) {
			if ch.e.s.cancelled() {
				return nil
			}
			ch.npool = 0
			out = ch.forCell(b, c, card, out)
		}
	}
	return out
}

func (ch *chainer) forCell(b *board, c, card int, out []*chainHint) []*chainHint {
	conf := ch.conf
	var valueOn, valueOff [10]*potSet
	var cellOn, cellOff *potSet
	for _, v := range digits(b.cand[c]) {
		onOn, onOff := ch.set(), ch.set()
		out = ch.binary(b, c, v, onOn, onOff, card >= 3 && !conf.nishio && conf.dynamic, conf.dynamic || conf.nishio, out)
		if !conf.nishio {
			out = ch.regionChains(b, c, v, onOn, onOff, out)
		}
		valueOn[v], valueOff[v] = onOn, onOff
		if cellOn == nil {
			cellOn, cellOff = ch.set(), ch.set()
			ch.addAll(cellOn, onOn)
			ch.addAll(cellOff, onOff)
		} else {
			ch.retain(cellOn, onOn)
			ch.retain(cellOff, onOff)
		}
	}
	if conf.nishio || !(card == 2 || (conf.multiple && card > 2)) {
		return out
	}
	for _, sets := range [2]struct {
		common *potSet
		per    *[10]*potSet
	}{{cellOn, &valueOn}, {cellOff, &valueOff}} {
		for _, p := range sets.common.order {
			id := int(ch.ar.pots[p].id)
			el := removal(b, id)
			if len(el) == 0 {
				continue
			}
			h := &chainHint{kind: hintCell, src: c, result: -1, elims: el}
			for _, v := range digits(b.cand[c]) {
				h.targets = append(h.targets, sets.per[v].get(id))
			}
			h.result = int(ch.ar.pots[h.targets[0]].id)
			out = append(out, ch.finish(h))
		}
	}
	return out
}

func (ch *chainer) addAll(dst, src *potSet) {
	for _, i := range src.order {
		dst.add(int(ch.ar.pots[i].id), i)
	}
}

// retain keeps in s the potentials o has (serate's retainAll: s's
// instances, s's order).
func (ch *chainer) retain(s, o *potSet) {
	out := s.order[:0]
	for _, i := range s.order {
		id := int(ch.ar.pots[i].id)
		if o.has(id) {
			out = append(out, i)
		} else {
			s.stamp[id] = 0
		}
	}
	s.order = out
}

// binary assumes candidate (c, v) on, then off: a contradiction either way
// proves the opposite (contradiction chains, dynamic and Nishio only); a
// conclusion both ways holds (double chains, with doubles set).
func (ch *chainer) binary(b *board, c, v int, onOn, onOff *potSet, doubles, contradictions bool, out []*chainHint) []*chainHint {
	pOff := ch.ar.add(potID(c, v, false), causeNone, nil)
	offOn, offOff := ch.set(), ch.set()
	if a, q := ch.assumeOn(b, c, v, onOn, onOff); contradictions && a >= 0 {
		h := &chainHint{kind: hintBinary, absurd: true, src: potID(c, v, true), targets: []int32{a, q},
			result: potID(c, v, false), elims: []Move{{c, v}}}
		out = append(out, ch.finish(h))
	}
	offOff.add(potID(c, v, false), pOff)
	if a, q := ch.propagate(b, offOn, offOff); contradictions && a >= 0 {
		if el := otherCands(b, potID(c, v, true)); len(el) > 0 {
			h := &chainHint{kind: hintBinary, absurd: true, src: potID(c, v, false), targets: []int32{a, q},
				result: potID(c, v, true), elims: el}
			out = append(out, ch.finish(h))
		}
	}
	if !doubles {
		return out
	}
	for _, p := range onOn.order {
		id := int(ch.ar.pots[p].id)
		if q := offOn.get(id); q >= 0 {
			if el := otherCands(b, id); len(el) > 0 {
				h := &chainHint{kind: hintBinary, src: potID(c, v, true), targets: []int32{p, q}, result: id, elims: el}
				out = append(out, ch.finish(h))
			}
		}
	}
	for _, p := range onOff.order {
		id := int(ch.ar.pots[p].id)
		if q := offOff.get(id); q >= 0 {
			h := &chainHint{kind: hintBinary, src: potID(c, v, false), targets: []int32{p, q}, result: id,
				elims: []Move{{potCell(id), potDigit(id)}}}
			out = append(out, ch.finish(h))
		}
	}
	return out
}

// memo is a propagation from one candidate assumed on, kept for the
// search: the binary chains and the region chains of the other cells of
// its houses assume it again, and draw the same conclusions.
type memo struct {
	on, off []int32
	a, q    int32
}

// assumeOn fills on and off with the consequences of (c, v) on (empty sets
// given) and returns the contradiction, as propagate does; a candidate
// assumed again in the same search gets the same conclusions (the same
// instances) again.
func (ch *chainer) assumeOn(b *board, c, v int, on, off *potSet) (int32, int32) {
	n := c*9 + v - 1
	if ch.memoGen[n] == ch.memoStamp {
		m := &ch.memos[n]
		for _, i := range m.on {
			on.add(int(ch.ar.pots[i].id), i)
		}
		for _, i := range m.off {
			off.add(int(ch.ar.pots[i].id), i)
		}
		return m.a, m.q
	}
	root := ch.ar.add(potID(c, v, true), causeNone, nil)
	on.add(potID(c, v, true), root)
	a, q := ch.propagate(b, on, off)
	if ch.e.s.cancelled() {
		return a, q // a cancelled propagation is not complete
	}
	ch.memoGen[n] = ch.memoStamp
	m := &ch.memos[n]
	m.on = append(m.on[:0], on.order...)
	m.off = append(m.off[:0], off.order...)
	m.a, m.q = a, q
	return a, q
}

// regionChains tries every place of digit v in each house of c where c is
// its first place (two places; more for multiple chains).
func (ch *chainer) regionChains(b *board, c, v int, onOn, onOff *potSet, out []*chainHint) []*chainHint {
	for t := 0; t < 3; t++ {
		h := seRegionOf(t, c)
		w := b.where(h, v)
		n := popcount(w)
		if !(n == 2 || (ch.conf.multiple && n > 2)) || houseCells[h][bits.TrailingZeros16(w)] != c {
			continue
		}
		var posOn, posOff [9]*potSet
		regOn, regOff := ch.set(), ch.set()
		for m := w; m != 0; m &= m - 1 {
			pos := bits.TrailingZeros16(m)
			x := houseCells[h][pos]
			if x == c {
				posOn[pos], posOff[pos] = onOn, onOff
				ch.addAll(regOn, onOn)
				ch.addAll(regOff, onOff)
				continue
			}
			xOn, xOff := ch.set(), ch.set()
			ch.assumeOn(b, x, v, xOn, xOff)
			posOn[pos], posOff[pos] = xOn, xOff
			ch.retain(regOn, xOn)
			ch.retain(regOff, xOff)
		}
		for _, sets := range [2]struct {
			common *potSet
			per    *[9]*potSet
		}{{regOn, &posOn}, {regOff, &posOff}} {
			for _, p := range sets.common.order {
				id := int(ch.ar.pots[p].id)
				el := removal(b, id)
				if len(el) == 0 {
					continue
				}
				hh := &chainHint{kind: hintRegion, src: h*9 + v - 1, elims: el}
				for m := w; m != 0; m &= m - 1 {
					hh.targets = append(hh.targets, sets.per[bits.TrailingZeros16(m)].get(id))
				}
				hh.result = int(ch.ar.pots[hh.targets[0]].id)
				out = append(out, ch.finish(hh))
			}
		}
	}
	return out
}

// loops is serate's search for cycles and forcing X/Y-chains from every
// candidate: X-links only, Y-links only, or both.
func (ch *chainer) loops(b *board, y, x bool) []*chainHint {
	var out []*chainHint
	for c := 0; c < 81; c++ {
		if b.val[c] != 0 || popcount(b.cand[c]) < 2 {
			continue
		}
		if ch.e.s.cancelled() {
			return nil
		}
		for _, v := range digits(b.cand[c]) {
			out = ch.unary(b, c, v, y, x, out)
		}
	}
	return out
}

func (ch *chainer) unary(b *board, c, v int, y, x bool, out []*chainHint) []*chainHint {
	if !x && popcount(b.cand[c]) > 2 {
		return out // Y-cycles start from a cell with two candidates
	}
	ch.npool = 0
	pOn := ch.ar.add(potID(c, v, true), causeNone, nil)
	var cycles, chains []int32
	on, off := ch.set(), ch.set()
	on.add(potID(c, v, true), pOn)
	cycles = ch.cycles(b, on, off, y, x, cycles, potID(c, v, true))
	if x {
		on, off = ch.set(), ch.set()
		on.add(potID(c, v, true), pOn)
		chains = ch.forcing(b, on, off, y, chains, potID(c, v, true))
		pOff := ch.ar.add(potID(c, v, false), causeNone, nil)
		on, off = ch.set(), ch.set()
		off.add(potID(c, v, false), pOff)
		chains = ch.forcing(b, on, off, y, chains, potID(c, v, false))
	}
	for _, dstOn := range cycles {
		dstOff := ch.reversed(dstOn)
		if el := ch.cycleRemovals(b, dstOn); len(el) > 0 {
			out = append(out, ch.finish(&chainHint{kind: hintCycle, x: x, y: y, src: potID(c, v, true), targets: []int32{dstOn, dstOff}, result: -1, elims: el}))
		}
	}
	for _, t := range chains {
		id := int(ch.ar.pots[t].id)
		if el := removal(b, id); len(el) > 0 {
			out = append(out, ch.finish(&chainHint{kind: hintForcing, x: x, y: y, src: potID(c, v, true), targets: []int32{t}, result: id, elims: el}))
		}
	}
	return out
}

// cycles propagates alternately "on" and "off" conclusions, breadth first,
// and collects the times the assumption comes back on after four links or
// more (serate's doCycles).
func (ch *chainer) cycles(g *board, toOn, toOff *potSet, y, x bool, found []int32, source int) []int32 {
	pendOn := append(ch.pendOn[:0], toOn.order...)
	pendOff := append(ch.pendOff[:0], toOff.order...)
	length := 0
	buf := ch.outBuf[:0]
	defer func() { ch.pendOn, ch.pendOff, ch.outBuf = pendOn[:0], pendOff[:0], buf[:0] }()
	onHead, offHead := 0, 0
	for onHead < len(pendOn) || offHead < len(pendOff) {
		length++
		for onHead < len(pendOn) {
			p := pendOn[onHead]
			onHead++
			buf = ch.onToOff(g, p, y, buf[:0])
			for _, q := range buf {
				id := int(ch.ar.pots[q].id)
				if !ch.isParent(p, id) {
					pendOff = append(pendOff, q)
					toOff.add(id, q)
				}
			}
		}
		length++
		for offHead < len(pendOff) {
			p := pendOff[offHead]
			offHead++
			buf = ch.offToOn(g, nil, nil, p, toOff, y, x, buf[:0])
			for _, q := range buf {
				id := int(ch.ar.pots[q].id)
				if length >= 4 && id == source {
					found = append(found, q)
				}
				if !toOn.has(id) {
					pendOn = append(pendOn, q)
					toOn.add(id, q)
				}
			}
		}
	}
	return found
}

// forcing propagates from one assumption and collects the potentials that
// contradict it: its negation, proved (serate's doForcingChains).
func (ch *chainer) forcing(g *board, toOn, toOff *potSet, y bool, found []int32, source int) []int32 {
	pendOn := append(ch.pendOn[:0], toOn.order...)
	pendOff := append(ch.pendOff[:0], toOff.order...)
	defer func() { ch.pendOn, ch.pendOff = pendOn[:0], pendOff[:0] }()
	has := func(id int) bool {
		for _, f := range found {
			if int(ch.ar.pots[f].id) == id {
				return true
			}
		}
		return false
	}
	buf := ch.outBuf[:0]
	defer func() { ch.outBuf = buf[:0] }()
	onHead, offHead := 0, 0
	for onHead < len(pendOn) || offHead < len(pendOff) {
		for onHead < len(pendOn) {
			p := pendOn[onHead]
			onHead++
			buf = ch.onToOff(g, p, y, buf[:0])
			for _, q := range buf {
				id := int(ch.ar.pots[q].id)
				if source == id+1 && !has(id) {
					found = append(found, q)
				}
				if !toOff.has(id) {
					pendOff = append(pendOff, q)
					toOff.add(id, q)
				}
			}
		}
		for offHead < len(pendOff) {
			p := pendOff[offHead]
			offHead++
			buf = ch.offToOn(g, nil, nil, p, toOff, y, true, buf[:0])
			for _, q := range buf {
				id := int(ch.ar.pots[q].id)
				if source == id-1 && !has(id) {
					found = append(found, q)
				}
				if !toOn.has(id) {
					pendOn = append(pendOn, q)
					toOn.add(id, q)
				}
			}
		}
	}
	return found
}

// reversed builds the cycle walked backwards (serate's reversed cycle):
// every conclusion negated, each following from the next.
func (ch *chainer) reversed(dstOn int32) int32 {
	var path []int32
	for p := dstOn; ; {
		path = append(path, p)
		ps := ch.ar.parents(p)
		if len(ps) == 0 {
			break
		}
		p = ps[0]
	}
	prev := int32(-1)
	for _, p := range path {
		q := ch.ar.pots[p]
		if prev < 0 {
			prev = ch.ar.add(int(q.id)^1, q.cause, nil)
		} else {
			prev = ch.ar.add(int(q.id)^1, q.cause, nil, prev)
		}
	}
	return prev
}

// cycleRemovals returns what a cycle removes: the candidates outside it
// that see both an "on" and an "off" instance of their digit along it.
func (ch *chainer) cycleRemovals(b *board, dstOn int32) []Move {
	var cells cellset
	for p := dstOn; ; {
		ps := ch.ar.parents(p)
		if len(ps) == 0 {
			break
		}
		cells.add(potCell(int(ch.ar.pots[p].id)))
		p = ps[0]
	}
	var forw, back [81]uint16
	var order []Move
	for p := dstOn; ; {
		ps := ch.ar.parents(p)
		if len(ps) == 0 {
			break
		}
		id := int(ch.ar.pots[p].id)
		c, d := potCell(id), potDigit(id)
		bit := uint16(1) << (d - 1)
		for _, x := range peerList[c] {
			if cells.has(x) || b.cand[x]&bit == 0 {
				continue
			}
			if potOn(id) {
				if forw[x]&bit == 0 {
					order = append(order, Move{x, d})
				}
				forw[x] |= bit
			} else {
				back[x] |= bit
			}
		}
		p = ps[0]
	}
	var out []Move
	for _, m := range order {
		if back[m.Cell]>>(m.Digit-1)&1 != 0 {
			out = append(out, m)
		}
	}
	return out
}

// hint converts a chain step into a step of the solver.
func (h *chainHint) hint(b *board) hint {
	sh := hint{name: h.name(), diff: h.diff, cell: -1, elims: h.elims, chain: h}
	if h.result >= 0 && potOn(h.result) {
		sh.cell, sh.digit = potCell(h.result), potDigit(h.result)
	}
	sh.desc = h.describe(b)
	return sh
}
