package logic

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/nqcount/nqcount/count/sudoku"
)

// Forcing chains are the last resort: assume a candidate and propagate
// (prop): if that leads to a contradiction, the candidate is false
// (contradiction); if every candidate of a cell, or every place of a digit
// in a house, leads to the same conclusion, the conclusion holds (cell and
// unit forcing chains). The level of the propagation sets the technique and
// its score; a longer chain (more facts needed) scores a little higher,
// within the level's range.

var forcingNames = [...]string{1: "forcing chain", 2: "dynamic forcing chain", 3: "nested forcing chain", 4: "nested forcing chain"}

// forcingBase and forcingTop bound each level's scores, in tenths. The
// length of a chain is the number of digits it places (for a cell or unit
// forcing chain, in all its branches together), a removal proved by a
// nested chain counting for that chain's length plus one; the bonus for it
// is lengthBonus's. Dynamic chains overlap the plain ones, as in Sudoku
// Explainer (a short dynamic chain may be easier to see than a long plain
// one); nested chains start above both.
var forcingBase = [...]int{1: 80, 2: 85, 3: 95, 4: 115}
var forcingTop = [...]int{1: 89, 2: 94, 3: 114, 4: 119}

// pending is a conclusion a search proved but has not used yet. The
// propagation is monotone (removing candidates only adds consequences), so
// a conclusion stays true while the solve goes on and is checked again,
// cheaply, instead of searching anew.
type pending struct {
	kind  int // 0 contradiction, 1 cell forcing, 2 unit forcing
	id    int // contradiction: the node; cell: the cell; unit: house*9 + digit-1
	concl Move
	place bool
	work  int
}

// branchState is the outcome of one assumption in a search.
type branchState struct {
	ok   bool
	work int
	cand [81]uint16
	val  [81]uint8
}

func forcing(level int) finder {
	return func(s *solver, b *board) (Step, bool) {
		for len(s.pending[level]) > 0 {
			pd := s.pending[level][0]
			s.pending[level] = s.pending[level][1:]
			if st, ok := s.verify(b, level, pd); ok {
				return st, true
			}
		}
		return s.forcingSearch(b, level)
	}
}

// forcingSearch tries every candidate's assumption, then cell and unit
// forcing, and keeps what else it proved in s.pending.
func (s *solver) forcingSearch(b *board, level int) (Step, bool) {
	contras, ok := s.explore(b, level)
	if !ok {
		return Step{}, false
	}
	if len(contras) > 0 {
		slices.SortStableFunc(contras, func(x, y pending) int { return x.work - y.work })
		s.pending[level] = append(s.pending[level][:0], contras...)
		return forcing(level)(s, b)
	}
	if found := s.agreements(b); len(found) > 0 {
		s.pending[level] = append(s.pending[level][:0], found...)
		return forcing(level)(s, b)
	}
	return Step{}, false
}

// explore propagates every candidate's assumption at the level into
// s.branches and returns those that lead to a contradiction; ok is false if
// the solve was cancelled.
func (s *solver) explore(b *board, level int) (contras []pending, ok bool) {
	if s.branches == nil {
		s.branches = new([729]branchState)
	}
	br := s.branches
	var nodes []int
	for c := 0; c < 81; c++ {
		for m := b.cand[c]; m != 0; m &= m - 1 {
			nodes = append(nodes, node(c, bits.TrailingZeros16(m)+1))
		}
	}
	// Cells with few candidates first: with cancellation checked between
	// assumptions, the cheap ones come first.
	slices.SortStableFunc(nodes, func(x, y int) int { return popcount(b.cand[x/9]) - popcount(b.cand[y/9]) })
	p := &s.prop
	p.s, p.a = s, &s.arena
	for _, n := range nodes {
		if s.cancelled() {
			return nil, false
		}
		p.from(b, level, false)
		ok := p.assume(n)
		br[n] = branchState{ok: ok, work: p.work, cand: p.cand, val: p.val}
		if !ok {
			contras = append(contras, pending{kind: 0, id: n, concl: nodeMove(n), work: p.work})
		}
	}
	return contras, !s.cancelled()
}

// agreements returns, for the first cell or house (fewest branches first)
// that has any, the conclusions common to all the branches of its
// candidates, from the branch states of a search (s.branches).
func (s *solver) agreements(b *board) []pending {
	br := s.branches
	type set struct {
		k, kind, id int
		nodes       []int
	}
	var sets []set
	for c := 0; c < 81; c++ {
		if k := popcount(b.cand[c]); k >= 2 {
			var ns []int
			for _, d := range digits(b.cand[c]) {
				ns = append(ns, node(c, d))
			}
			sets = append(sets, set{k, 1, c, ns})
		}
	}
	for h := 0; h < 27; h++ {
		for d := 1; d <= 9; d++ {
			w := b.where(h, d)
			if popcount(w) < 2 {
				continue
			}
			var ns []int
			for m := w; m != 0; m &= m - 1 {
				ns = append(ns, node(houseCells[h][bits.TrailingZeros16(m)], d))
			}
			sets = append(sets, set{len(ns), 2, h*9 + d - 1, ns})
		}
	}
	slices.SortStableFunc(sets, func(x, y set) int { return x.k - y.k })
	for _, st := range sets {
		var found []pending
		for x := 0; x < 81; x++ {
			if b.val[x] != 0 {
				continue
			}
			// Placements common to all branches.
			v := br[st.nodes[0]].val[x]
			common := v != 0
			for _, n := range st.nodes[1:] {
				common = common && br[n].val[x] == v
			}
			if common {
				found = append(found, pending{kind: st.kind, id: st.id, concl: Move{x, int(v)}, place: true})
				continue
			}
			// Candidates every branch removes.
			gone := b.cand[x]
			for _, n := range st.nodes {
				still := br[n].cand[x]
				if v := br[n].val[x]; v != 0 {
					still |= 1 << (v - 1)
				}
				gone &^= still
			}
			for _, d := range digits(gone) {
				found = append(found, pending{kind: st.kind, id: st.id, concl: Move{x, d}})
			}
		}
		if len(found) > 0 {
			return found
		}
	}
	return nil
}

// chainFacts is what a tracked propagation's chain to one fact used.
type chainFacts struct {
	size   int
	cells  []int
	path   []Move // the placements, in the order they were drawn
	nested int    // removals proved by nested chains
}

func (s *solver) chainOf(root int32) chainFacts {
	var cf chainFacts
	var used []int32
	cf.size = s.arena.closure(root, 0, nil, func(f int32) { used = append(used, f) })
	slices.Sort(used)
	for _, f := range used {
		fa := s.arena.facts[f]
		if fa.n < 0 {
			continue
		}
		m := nodeMove(int(fa.n))
		cf.cells = append(cf.cells, m.Cell)
		if fa.place {
			cf.path = append(cf.path, m)
		} else if fa.weight > 1 {
			cf.nested++
		}
	}
	return cf
}

// verify checks a pending conclusion on the current board with a tracked
// propagation and writes it as a step.
func (s *solver) verify(b *board, level int, pd pending) (Step, bool) {
	p := &s.prop
	p.s, p.a = s, &s.arena
	name := forcingNames[level]
	if pd.kind == 0 {
		n := pd.id
		c, d := n/9, n%9+1
		if !b.has(c, d) {
			return Step{}, false
		}
		s.arena.truncate(0)
		p.from(b, level, true)
		if p.assume(n) {
			return Step{}, false
		}
		cf := s.chainOf(p.contra)
		t := min(forcingBase[level]+lengthBonus(cf.size), forcingTop[level])
		st := Step{
			Technique:    name,
			Score:        score(t),
			Eliminations: []Move{{c, d}},
			Cells:        append(cf.cells, c),
			Marks:        []Mark{{c, d, 0}},
		}
		if p.why.house >= 0 {
			st.Houses = []House{houseOfIndex(p.why.house)}
		}
		if p.why.cell >= 0 {
			st.Cells = append(st.Cells, p.why.cell)
		}
		then := pathText(without(cf.path, Move{c, d}), cf.nested)
		if then != "" {
			then = "then " + then + ", and "
		}
		st.Text = fmt.Sprintf("%s (contradiction): if %s were %d, %s%s, so %s cannot be %d",
			name, sudoku.CellName(c), d, then, whyText(p.why), sudoku.CellName(c), d)
		return st, true
	}
	x, e := pd.concl.Cell, pd.concl.Digit
	if (pd.place && b.val[x] != 0) || (!pd.place && !b.has(x, e)) {
		return Step{}, false
	}
	// The branches, from the current board.
	var branches []int
	var intro string
	if pd.kind == 1 {
		c := pd.id
		for _, d := range digits(b.cand[c]) {
			branches = append(branches, node(c, d))
		}
		intro = fmt.Sprintf("%s (cell): %s is %s", name, sudoku.CellName(c), digitList(digits(b.cand[c]), "or"))
	} else {
		h, d := pd.id/9, pd.id%9+1
		var cs []int
		for m := b.where(h, d); m != 0; m &= m - 1 {
			c := houseCells[h][bits.TrailingZeros16(m)]
			branches = append(branches, node(c, d))
			cs = append(cs, c)
		}
		intro = fmt.Sprintf("%s (unit): %d goes in %s in %s", name, d, orList(cs), houseName(h))
	}
	if len(branches) < 2 {
		return Step{}, false
	}
	total := 0
	var cells []int
	var marks []Mark
	var parts []string
	for _, n := range branches {
		s.arena.truncate(0)
		p.from(b, level, true)
		if !p.assume(n) {
			// Simpler: this branch alone is a contradiction.
			return s.verify(b, level, pending{kind: 0, id: n})
		}
		var root int32 = -1
		if pd.place {
			if p.val[x] == uint8(e) {
				root = s.placeFact(node(x, e))
			}
		} else if !p.has(x, e) {
			root = p.elimBy[node(x, e)]
		}
		if root < 0 {
			return Step{}, false
		}
		cf := s.chainOf(root)
		total += cf.size
		cells = append(cells, cf.cells...)
		m := nodeMove(n)
		marks = append(marks, Mark{m.Cell, m.Digit, 0})
		then := pathText(without(cf.path, m), cf.nested)
		if then == "" {
			then = "at once"
		}
		parts = append(parts, fmt.Sprintf("if %s: %s", m, then))
	}
	t := min(forcingBase[level]+lengthBonus(total), forcingTop[level])
	st := Step{Technique: name, Score: score(t), Cells: cells, Marks: marks}
	var leads, concl string
	if pd.place {
		st.Placements = []Move{{x, e}}
		leads = fmt.Sprintf("puts %d in %s", e, sudoku.CellName(x))
		concl = fmt.Sprintf("%s is %d", sudoku.CellName(x), e)
	} else {
		st.Eliminations = []Move{{x, e}}
		leads = fmt.Sprintf("removes %d from %s", e, sudoku.CellName(x))
		concl = fmt.Sprintf("%s cannot be %d", sudoku.CellName(x), e)
	}
	st.Text = fmt.Sprintf("%s, and each case %s (%s), so %s", intro, leads, strings.Join(parts, "; "), concl)
	return st, true
}

func (p *prop) has(c, d int) bool { return p.cand[c]>>(d-1)&1 != 0 || p.val[c] == uint8(d) }

// placeFact returns the fact that placed node n.
func (s *solver) placeFact(n int) int32 {
	for i := len(s.arena.facts) - 1; i >= 0; i-- {
		if f := s.arena.facts[i]; f.place && int(f.n) == n {
			return int32(i)
		}
	}
	return -1
}

// pathText writes what a chain draws before its conclusion: the digits it
// places, in order, and the removals nested chains prove for it. It
// returns "" for a chain that needs nothing in between.
func pathText(path []Move, nested int) string {
	var parts []string
	for _, m := range path {
		parts = append(parts, m.String())
	}
	s := strings.Join(parts, ", ")
	switch {
	case nested > 0 && s == "":
		s = fmt.Sprintf("nested chains remove %d candidates", nested)
	case nested > 0:
		s += fmt.Sprintf(" (with %d candidates removed by nested chains)", nested)
	}
	return s
}

func whyText(w contradiction) string {
	switch {
	case w.house >= 0:
		return fmt.Sprintf("%d would have no place in %s", w.digit, houseName(w.house))
	case w.digit == 0:
		return fmt.Sprintf("%s would have no candidate left", sudoku.CellName(w.cell))
	}
	return fmt.Sprintf("%s would have to be %d but cannot", sudoku.CellName(w.cell), w.digit)
}

func orList(cs []int) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = sudoku.CellName(c)
	}
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// without returns ms less m.
func without(ms []Move, m Move) []Move {
	out := ms[:0:0]
	for _, x := range ms {
		if x != m {
			out = append(out, x)
		}
	}
	return out
}
