package logic

import "math/bits"

// prop is the propagation behind forcing chains: from a state and an
// assumption it draws every consequence the rules of its level allow, and
// stops at a contradiction. Level 1 applies naked and hidden singles; level
// 2 adds pointing and claiming; levels 3 and 4 add, whenever those stall,
// the removal of every candidate whose own assumption (propagated at level
// 1, respectively 2) leads to a contradiction: a forcing chain nested in a
// forcing chain.
//
// With tracking on, every conclusion is a fact in an arena with the facts
// it follows from, so that a conclusion's chain (the facts it needs) can be
// measured and shown.
type prop struct {
	cand   [81]uint16
	val    [81]uint8
	elimBy [729]int32 // tracking: the fact that removed a candidate, -1 before the start
	level  int
	track  bool
	a      *arena
	s      *solver
	inner  *prop // scratch for nested levels

	broken bool
	why    contradiction
	contra int32 // tracking: the contradiction's fact
	work   int   // conclusions drawn: a cheap measure of a chain's length
	buf    []int32
}

// contradiction says what went wrong: a cell with no candidate (digit 0),
// a digit with no place in a house (cell -1), or a cell that would need a
// digit it cannot hold.
type contradiction struct {
	cell, house, digit int
}

// fact is a conclusion: a candidate placed or removed (n is its node), or a
// contradiction (n is -1), and the facts it follows from.
type fact struct {
	n      int16
	place  bool
	weight int32 // its part in a chain's length: 1 for a placement or a contradiction, 0 for a removal, 1 + the nested chain's length for a removal a nested chain proves
	lo, hi int32 // its causes: arena.causes[lo:hi]
}

type arena struct {
	facts  []fact
	causes []int32
	mark   []uint32 // closure walks: visited when equal to epoch
	epoch  uint32
}

func (a *arena) add(n int, place bool, weight int32, causes []int32) int32 {
	lo := len(a.causes)
	for _, c := range causes {
		if c >= 0 {
			a.causes = append(a.causes, c)
		}
	}
	a.facts = append(a.facts, fact{int16(n), place, weight, int32(lo), int32(len(a.causes))})
	return int32(len(a.facts) - 1)
}

// truncate drops the facts from index f on.
func (a *arena) truncate(f int32) {
	if int(f) >= len(a.facts) {
		return
	}
	a.causes = a.causes[:a.facts[f].lo]
	a.facts = a.facts[:f]
}

// closure walks the facts root follows from. Facts below floor are not
// walked but handed to outer (once each); it returns the summed weight of
// the facts walked, and calls visit (if not nil) with each.
func (a *arena) closure(root int32, floor int32, outer func(int32), visit func(int32)) int {
	if len(a.mark) < len(a.facts) {
		a.mark = append(a.mark, make([]uint32, len(a.facts)-len(a.mark))...)
	}
	a.epoch++
	if a.epoch == 0 {
		clear(a.mark)
		a.epoch = 1
	}
	size := 0
	stack := []int32{root}
	a.mark[root] = a.epoch
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f < floor {
			if outer != nil {
				outer(f)
			}
			continue
		}
		size += int(a.facts[f].weight)
		if visit != nil {
			visit(f)
		}
		for _, c := range a.causes[a.facts[f].lo:a.facts[f].hi] {
			if a.mark[c] != a.epoch {
				a.mark[c] = a.epoch
				stack = append(stack, c)
			}
		}
	}
	return size
}

// from sets p to the state of board b.
func (p *prop) from(b *board, level int, track bool) {
	p.cand, p.val = b.cand, b.val
	p.level, p.track = level, track
	p.broken, p.work, p.contra = false, 0, -1
	if track {
		for i := range p.elimBy {
			p.elimBy[i] = -1
		}
	}
}

// fromProp sets p to the state of q (for a nested assumption).
func (p *prop) fromProp(q *prop, level int) {
	p.cand, p.val = q.cand, q.val
	p.level, p.track, p.a, p.s = level, q.track, q.a, q.s
	p.broken, p.work, p.contra = false, 0, -1
	if q.track {
		p.elimBy = q.elimBy
	}
}

// assume places candidate n (a node) as the start of a chain and
// propagates; it returns false on a contradiction.
func (p *prop) assume(n int) bool {
	c, d := n/9, n%9+1
	if !p.place(c, d, nil) {
		return false
	}
	return p.run()
}

func (p *prop) fail(why contradiction, causes []int32) {
	p.broken = true
	p.why = why
	if p.track {
		p.contra = p.a.add(-1, false, 1, causes)
	}
}

func (p *prop) elim(c, d int, cause int32) {
	bit := uint16(1) << (d - 1)
	if p.cand[c]&bit == 0 {
		return
	}
	p.cand[c] &^= bit
	p.work++
	if p.track {
		p.buf = append(p.buf[:0], cause)
		p.elimBy[node(c, d)] = p.a.add(node(c, d), false, 0, p.buf)
	}
}

// place puts d in c for the given causes; it returns false (a
// contradiction) if c cannot hold d any more.
func (p *prop) place(c, d int, causes []int32) bool {
	bit := uint16(1) << (d - 1)
	if p.val[c] == uint8(d) {
		return true
	}
	if p.val[c] != 0 || p.cand[c]&bit == 0 {
		if p.track {
			causes = append(causes, p.elimBy[node(c, d)])
		}
		p.fail(contradiction{c, -1, d}, causes)
		return false
	}
	p.work++
	var f int32 = -1
	if p.track {
		f = p.a.add(node(c, d), true, 1, causes)
	}
	for m := p.cand[c] &^ bit; m != 0; m &= m - 1 {
		p.elim(c, bits.TrailingZeros16(m)+1, f)
	}
	p.val[c] = uint8(d)
	p.cand[c] = 0
	for _, x := range peerList[c] {
		if p.cand[x]&bit != 0 {
			p.elim(x, d, f)
		}
	}
	return true
}

// cellCauses returns the facts that removed c's candidates other than d
// (d 0: all of them).
func (p *prop) cellCauses(c, d int) []int32 {
	if !p.track {
		return nil
	}
	out := make([]int32, 0, 8)
	for e := 1; e <= 9; e++ {
		if e != d {
			if f := p.elimBy[node(c, e)]; f >= 0 {
				out = append(out, f)
			}
		}
	}
	return out
}

// houseCauses returns the facts that removed d from the cells of house h
// other than c.
func (p *prop) houseCauses(h, c, d int) []int32 {
	if !p.track {
		return nil
	}
	out := make([]int32, 0, 8)
	for _, x := range houseCells[h] {
		if x != c {
			if f := p.elimBy[node(x, d)]; f >= 0 {
				out = append(out, f)
			}
		}
	}
	return out
}

// run propagates until nothing follows; it returns false on a
// contradiction.
func (p *prop) run() bool {
	for !p.broken {
		progress := false
		for c := 0; c < 81; c++ {
			if p.val[c] != 0 {
				continue
			}
			m := p.cand[c]
			if m == 0 {
				p.fail(contradiction{c, -1, 0}, p.cellCauses(c, 0))
				return false
			}
			if m&(m-1) == 0 {
				d := onlyDigit(m)
				if !p.place(c, d, p.cellCauses(c, d)) {
					return false
				}
				progress = true
			}
		}
		for h := 0; h < 27; h++ {
			var once, twice, placed uint16
			for _, c := range houseCells[h] {
				if v := p.val[c]; v != 0 {
					placed |= 1 << (v - 1)
					continue
				}
				x := p.cand[c]
				twice |= once & x
				once |= x
			}
			if miss := 0x1FF &^ (once | placed); miss != 0 {
				d := onlyDigit(miss & -miss)
				p.fail(contradiction{-1, h, d}, p.houseCauses(h, -1, d))
				return false
			}
			for s := once &^ twice &^ placed; s != 0; s &= s - 1 {
				d := bits.TrailingZeros16(s) + 1
				c := -1
				for _, x := range houseCells[h] {
					if p.cand[x]>>(d-1)&1 != 0 {
						c = x
						break
					}
				}
				if c < 0 {
					if placedNow := p.placedIn(h); placedNow>>(d-1)&1 != 0 {
						continue // placed meanwhile in this house
					}
					p.fail(contradiction{-1, h, d}, p.houseCauses(h, -1, d))
					return false
				}
				if !p.place(c, d, p.houseCauses(h, c, d)) {
					return false
				}
				progress = true
			}
		}
		if progress {
			continue
		}
		if p.level >= 2 && p.locked() {
			continue
		}
		if p.level >= 3 && p.nested() {
			continue
		}
		break
	}
	return !p.broken
}

func (p *prop) placedIn(h int) uint16 {
	var m uint16
	for _, c := range houseCells[h] {
		if v := p.val[c]; v != 0 {
			m |= 1 << (v - 1)
		}
	}
	return m
}

// propLockPasses are the intersections a propagation looks for: the
// rows', then the columns', then the boxes' candidates for a digit, digit
// by digit, all in one box (for a line) or line (for a box).
var propLockPasses = []lockPass{
	{bases: houseRange(0, 18), covers: []int{0}},
	{bases: houseRange(18, 27), covers: []int{1, 2}},
}

// locked applies the first pointing or claiming that removes anything
// (the catalogue's search, see lockings); it reports whether it removed
// anything. It runs at a fixpoint of the singles: every digit not placed
// in a house has two places there or more.
func (p *prop) locked() bool {
	return lockings(&p.cand, propLockPasses, func(base, cover, d int) bool {
		bit := uint16(1) << (d - 1)
		var causes []int32
		if p.track {
			for _, x := range houseCells[base] {
				if !houseSet[cover].has(x) {
					if f := p.elimBy[node(x, d)]; f >= 0 {
						causes = append(causes, f)
					}
				}
			}
		}
		changed := false
		for _, x := range houseCells[cover] {
			if !houseSet[base].has(x) && p.cand[x]&bit != 0 {
				changed = true
				p.cand[x] &^= bit
				p.work++
				if p.track {
					p.elimBy[node(x, d)] = p.a.add(node(x, d), false, 0, causes)
				}
			}
		}
		return changed
	})
}

// nested removes every candidate whose assumption leads to a contradiction
// at level-2; it reports whether it removed any.
func (p *prop) nested() bool {
	if p.s != nil && p.s.cancelled() {
		return false
	}
	if p.inner == nil {
		p.inner = new(prop)
	}
	in := p.inner
	changed := false
	for c := 0; c < 81; c++ {
		if p.val[c] != 0 {
			continue
		}
		for m := p.cand[c]; m != 0; m &= m - 1 {
			d := bits.TrailingZeros16(m) + 1
			in.fromProp(p, p.level-2)
			var start int32
			if p.track {
				start = int32(len(p.a.facts))
			}
			if in.assume(node(c, d)) {
				if p.track {
					p.a.truncate(start)
				}
				continue
			}
			changed = true
			if !p.track {
				p.cand[c] &^= 1 << (d - 1)
				p.work++
				continue
			}
			// The removal follows from the facts of this state that the
			// inner chain used; it weighs 1 + the inner chain's length.
			var outer []int32
			size := p.a.closure(in.contra, start, func(f int32) { outer = append(outer, f) }, nil)
			p.a.truncate(start)
			p.cand[c] &^= 1 << (d - 1)
			p.work++
			f := p.a.add(node(c, d), false, int32(1+size), outer)
			p.elimBy[node(c, d)] = f
		}
		if p.cand[c] == 0 {
			// Every candidate failed: the state itself is contradictory.
			p.fail(contradiction{c, -1, 0}, p.cellCauses(c, 0))
			return true
		}
	}
	return changed
}
