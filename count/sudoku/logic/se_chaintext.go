package logic

import (
	"fmt"
	"strings"

	"github.com/nqcount/nqcount/count/sudoku"
)

// potName writes a potential as the chains show it: r1c2=4 (on), r1c2<>4
// (off).
func potName(id int) string {
	op := "<>"
	if potOn(id) {
		op = "="
	}
	return fmt.Sprintf("%s%s%d", sudoku.CellName(potCell(id)), op, potDigit(id))
}

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

// pathText writes a branch as "r1c2=4 -> r1c5<>4 -> ...", with a note
// when the branch also relies on removals of a nested technique.
func (ch *chainer) pathText(i int32) string {
	var parts []string
	nested := 0
	for _, j := range ch.path(i) {
		parts = append(parts, potName(int(ch.ar.pots[j].id)))
		if ch.ar.pots[j].cause == causeAdvanced {
			nested++
		}
	}
	s := strings.Join(parts, " -> ")
	if nested > 0 {
		s += fmt.Sprintf(" (%d of these removals by nested techniques)", nested)
	}
	return s
}

// describe returns the sentence and pattern of a chain step.
func (h *chainHint) describe(b *board) func(st *Step) {
	ch := h.ch
	name := h.name()
	var text string
	concl := cannot(h.elims)
	if h.result >= 0 && potOn(h.result) {
		concl = fmt.Sprintf("%s is %d", sudoku.CellName(potCell(h.result)), potDigit(h.result))
	}
	switch h.kind {
	case hintCycle:
		text = fmt.Sprintf("%s: %s, so %s", lowerFirst(name), ch.pathText(h.targets[0]), concl)
	case hintForcing:
		text = fmt.Sprintf("%s: %s, so %s", lowerFirst(name), ch.pathText(h.targets[0]), concl)
	case hintBinary:
		if h.absurd {
			text = fmt.Sprintf("%s: if %s, then both %s and %s, a contradiction, so %s", lowerFirst(name),
				potName(h.src), ch.pathText(h.targets[0]), ch.pathText(h.targets[1]), concl)
		} else {
			text = fmt.Sprintf("%s: whether %s or not, %s (%s; %s), so %s", lowerFirst(name), potName(h.src|1),
				potName(int(ch.ar.pots[h.targets[0]].id)), ch.pathText(h.targets[0]), ch.pathText(h.targets[1]), concl)
		}
	case hintCell, hintRegion:
		var intro string
		if h.kind == hintCell {
			intro = fmt.Sprintf("%s is %s", sudoku.CellName(h.src), digitList(digitsOfTargets(ch, h), "or"))
		} else {
			hs, d := h.src/9, h.src%9+1
			var cs []int
			for _, t := range h.targets {
				cs = append(cs, potCell(int(ch.ar.pots[ch.path(t)[0]].id)))
			}
			intro = fmt.Sprintf("%d goes in %s in %s", d, orList(cs), houseName(hs))
		}
		var parts []string
		for _, t := range h.targets {
			parts = append(parts, ch.pathText(t))
		}
		text = fmt.Sprintf("%s: %s, and each case leads to %s (%s), so %s", lowerFirst(name), intro,
			potName(int(ch.ar.pots[h.targets[0]].id)), strings.Join(parts, "; "), concl)
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
		st.Text = text
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
