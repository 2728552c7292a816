package logic

import ()

// path lists the conclusions from the assumption to conclusion i along
// first parents, assumption first.
func (ch *chainer) path(i int32) []int32 {
	var out []int32
	for {
		out = append(out, i)
		ps := ch.ar.parents(i)
		if len(ps) == 0 {
			break
		}
		i = ps[0]
	}
	for l, r := 0, len(out)-1; l < r; l, r = l+1, r-1 {
		out[l], out[r] = out[r], out[l]
	}
	return out
}

// msgChain returns a branch as a message's chain: its candidates from the
// assumption to conclusion i, and how many of its removals nested
// techniques prove.
func (ch *chainer) msgChain(i int32) Chain {
	var c Chain
	for _, j := range ch.path(i) {
		id := int(ch.ar.pots[j].id)
		c.Nodes = append(c.Nodes, potNode(id))
		if ch.ar.pots[j].cause == causeAdvanced {
			c.Nested++
		}
	}
	return c
}

// potNode returns potential id as a chain's node.
func potNode(id int) ChainNode { return ChainNode{potCell(id), potDigit(id), potOn(id)} }

// describe returns the sentence and pattern of a chain step.
func (h *chainHint) describe(b *board) func(st *Step) {
	ch := h.ch
	name := h.name()
	tech := techArg(name, lowerFirst(name))
	concl := cannotArg(h.elims)
	if h.result >= 0 && potOn(h.result) {
		concl = placedArg("", potCell(h.result), potDigit(h.result))
	}
	concl.Name = "concl"
	var key string
	var args []Arg
	switch h.kind {
	case hintCycle, hintForcing:
		key, args = "s.step.chain", []Arg{tech, chainArg("chain", ch.msgChain(h.targets[0])), concl}
	case hintBinary:
		if h.absurd {
			key, args = "s.step.chain-contradiction", []Arg{tech, nodeArg("src", potNode(h.src)),
				chainArg("chain1", ch.msgChain(h.targets[0])), chainArg("chain2", ch.msgChain(h.targets[1])), concl}
		} else {
			key, args = "s.step.chain-double", []Arg{tech, nodeArg("src", potNode(h.src|1)), nodeArg("target", potNode(int(ch.ar.pots[h.targets[0]].id))),
				chainArg("chain1", ch.msgChain(h.targets[0])), chainArg("chain2", ch.msgChain(h.targets[1])), concl}
		}
	case hintCell, hintRegion:
		var chains []Chain
		for _, t := range h.targets {
			chains = append(chains, ch.msgChain(t))
		}
		args = []Arg{tech, nodeArg("target", potNode(int(ch.ar.pots[h.targets[0]].id))), chainsArg("chains", chains), concl}
		if h.kind == hintCell {
			key = "s.step.chain-cell"
			args = append(args, cellArg("cell", h.src), digitsArg("digits", digitsOfTargets(ch, h), true))
		} else {
			hs, d := h.src/9, h.src%9+1
			var cs []int
			for _, t := range h.targets {
				cs = append(cs, potCell(int(ch.ar.pots[ch.path(t)[0]].id)))
			}
			key = "s.step.chain-region"
			a := cellsArg("cells", cs)
			a.Or = true
			args = append(args, digitArg("digit", d), a, houseArg("house", hs))
		}
	}
	// The pattern: the cells of the branches, and their links.
	var cells []int
	var marks []Mark
	var links []Link
	seenCell := map[int]bool{}
	for ti, t := range h.targets {
		p := ch.path(t)
		for k, j := range p {
			id := int(ch.ar.pots[j].id)
			c, d := potCell(id), potDigit(id)
			if !seenCell[c] {
				seenCell[c] = true
				cells = append(cells, c)
			}
			col := 1
			if potOn(id) {
				col = 0
			}
			if ti == 0 {
				marks = append(marks, Mark{c, d, col})
			}
			if k > 0 && ti == 0 {
				prev := int(ch.ar.pots[p[k-1]].id)
				links = append(links, Link{From: Move{potCell(prev), potDigit(prev)}, To: Move{c, d}, Strong: !potOn(prev) && potOn(id)})
			}
		}
	}
	return func(st *Step) {
		st.say(key, args...)
		st.Cells = cells
		st.Marks = marks
		st.Links = links
	}
}

func digitsOfTargets(ch *chainer, h *chainHint) []int {
	var ds []int
	for _, t := range h.targets {
		ds = append(ds, potDigit(int(ch.ar.pots[ch.path(t)[0]].id)))
	}
	return ds
}
