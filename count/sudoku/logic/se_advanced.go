package logic

// The techniques a dynamic chain's propagation applies (serate's "advanced
// potentials"): from level 1 on, pointing and claiming, hidden and naked
// pairs and X-Wings; from level 2, forcing chains and cycles; from level
// 3, multiple forcing chains; at level 4, dynamic forcing chains of the
// nesting level set. The first technique that removes anything the
// chain's removals made possible is used; its removals follow from those.

// seAdvanced are the catalogue's techniques the propagation applies, in
// order.
var seAdvanced = []each{
	seStyle.locking(seLockPasses),
	seStyle.hiddenSet(2, false),
	seStyle.nakedSet(2),
	seStyle.fish(2),
}

// others returns the chaining techniques the propagation nests.
func (ch *chainer) nestedChainers() []*chainer {
	if ch.others != nil || ch.conf.level < 2 {
		return ch.others
	}
	var cs []chainConf
	switch {
	case ch.conf.level >= 4:
		cs = []chainConf{{multiple: true, dynamic: true, level: ch.conf.nest}}
	case ch.conf.level == 3:
		cs = []chainConf{{}, {multiple: true}}
	default:
		cs = []chainConf{{}}
	}
	for _, c := range cs {
		n := ch.e.newChainer(c)
		n.nested = true
		ch.others = append(ch.others, n)
	}
	return ch.others
}

// advanced returns the "off" conclusions the nested techniques draw on
// board g (the propagation's current state; src its start), each
// following from the removals in offs its technique relies on.
func (ch *chainer) advanced(g, src *board, offs *potSet) []int32 {
	var out []int32
	var ps []int
	var parents []int32
	add := func(h hint, nested *chainHint) {
		if h.parents == nil && nested == nil {
			return
		}
		if nested != nil {
			ps = nested.ruleParents(src, g, ps[:0])
		} else {
			ps = h.parents(src, g, ps[:0])
		}
		if len(ps) == 0 {
			return
		}
		parents = parents[:0]
		for _, id := range ps {
			if q := offs.get(id); q >= 0 {
				parents = append(parents, q)
			}
		}
		for _, m := range hashOrder(h.elims) {
			out = append(out, ch.ar.add(potID(m.Cell, m.Digit, false), causeAdvanced, nested, parents...))
		}
	}
	for _, r := range seAdvanced {
		r(g, func(h hint) bool { add(h, nil); return false })
		if len(out) > 0 {
			return out
		}
	}
	for _, n := range ch.nestedChainers() {
		for _, h := range n.search(g, false) {
			add(hint{elims: h.elims}, h)
		}
		if len(out) > 0 || ch.e.s.cancelled() {
			return out
		}
	}
	return out
}

// ruleParents lists the removals (from src to cur) a nested chain relies
// on: for every "on" conclusion along its branches, the candidates of its
// cell (a naked single) or of its digit in its house (a hidden single)
// that src had and cur has lost, breadth first from each target.
func (h *chainHint) ruleParents(src, cur *board, out []int) []int {
	ch := h.ch
	var seen [nPots]bool
	for _, id := range out {
		seen[id] = true
	}
	emit := func(id int) {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	for _, t := range h.chainTargets() {
		var done [nPots]bool
		todo := []int32{t}
		for len(todo) > 0 {
			var next []int32
			for _, j := range todo {
				p := ch.ar.pots[j]
				if done[p.id] {
					continue
				}
				done[p.id] = true
				cause := p.cause
				if cause == causeNone {
					switch h.kind {
					case hintCell:
						cause = causeNaked
					case hintRegion:
						cause = regionCause[seType(h.src/9)]
					}
				}
				id := int(p.id)
				if potOn(id) && cause != causeNone && cause != causeAdvanced {
					c, d := potCell(id), potDigit(id)
					if cause == causeNaked {
						for _, x := range digits(src.cand[c] &^ cur.cand[c]) {
							emit(potID(c, x, false))
						}
					} else {
						hs := seRegionOf(int(cause-causeBlock), c)
						bit := uint16(1) << (d - 1)
						for _, x := range houseCells[hs] {
							if src.cand[x]&bit != 0 && cur.cand[x]&bit == 0 {
								emit(potID(x, d, false))
							}
						}
					}
				}
				next = append(next, ch.ar.parents(j)...)
			}
			todo = next
		}
	}
	return out
}
