package sudoku

import (
	"context"
	"math/bits"
)

// The lane kernel searches sixteen states at once, each a lane of a SIMD
// register: one propagation round (wideState.round, kernel_wide.go) runs
// on every band word of the sixteen at a time, with AVX-512 where there is
// (kernel_lanes_amd64.s). A lane whose round changed nothing after its
// band rule is at its fixpoint (roundLanesGo) and is taken out: failed, solved, given the triad rules (and
// put back if they removed candidates), or branched on as the triad
// kernel would (the same configuration: the same tree, guesses and
// counts). One child takes the lane again, the others wait on a stack of
// pending states, and a lane left free takes a pending state or the next
// puzzle's givens. The states in flight may belong to several puzzles:
// the lanes stay full until the last puzzles.

// lanes is the number of states propagated at once.
const lanes = 16

// laneState holds the words of sixteen wideStates, word by word
// (f[9*band+digit][lane]), roundLanesAVX512's scratch space, and what a
// round finds of each lane, valid when the round changed nothing: the
// configurations of each digit in each band (bc[9*band+digit]) and stack
// (sc[9*stack+digit]), their sums by unit, the cells with two candidates
// or more, and each digit's matrices (wideState.matrices) for the triads.
type laneState struct {
	f    [27][lanes]uint32
	old  [27][lanes]uint32
	cm   [27][lanes]uint32
	p    [9][lanes]uint32
	bc   [27][lanes]uint32
	sc   [27][lanes]uint32
	open [lanes]uint32
	tot  [6][lanes]uint32 // bc and sc summed by unit (band 0-2, stack 3-5)
	hp   [9][lanes]uint32
	sup  [9][lanes]uint32
	// pick is each lane's branch choice (pickOf): unit | digit<<4, all
	// ones for none.
	pick [lanes]uint32
	// The triads' first pass (triadCheck), where it does not fail: its
	// only3 and full, low and high halves.
	only3Lo, only3Hi, fullLo, fullHi [lanes]uint32
}

// triadWork returns lane x's only3 and full, as triadCheck gives them.
func (l *laneState) triadWork(x int) (only3, full uint64) {
	return uint64(l.only3Lo[x]) | uint64(l.only3Hi[x])<<32, uint64(l.fullLo[x]) | uint64(l.fullHi[x])<<32
}

// keys returns what wideState.applyTriads takes, for lane x at a fixpoint,
// from the matrices of its last round.
func (l *laneState) keys(x int) (xs [9]uint64) {
	for d := range xs {
		xs[d] = uint64(l.sup[d][x]) | uint64(l.hp[d][x])<<32
	}
	return xs
}

// put sets lane i to the words of s.
func (l *laneState) put(i int, s *wideState) {
	for b := range s.f {
		for d, a := range s.f[b] {
			l.f[9*b+d][i] = a
		}
	}
}

// get copies lane i's words into s.
func (l *laneState) get(i int, s *wideState) {
	for b := range s.f {
		for d := range s.f[b] {
			s.f[b][d] = l.f[9*b+d][i]
		}
	}
}

// roundLanesGo runs one round of propagation on every lane and returns
// the lanes that failed and those (of the others) whose words changed
// after the round's first step, the band rule (wideState.banded). A lane
// with no state (all words 0) fails. It counts what
// roundLanesAVX512 counts, and for a lane at a fixpoint (not failed, not
// changed) it applies triadCheck: triFail has the lanes it finds a
// contradiction in, triWork those where the triads would remove
// candidates.
func roundLanesGo(l *laneState) (fail, changed, triFail, triWork uint16) {
	for i := 0; i < lanes; i++ {
		var s wideState
		l.get(i, &s)
		old := s.banded()
		if !s.round() {
			fail |= 1 << i
			continue
		}
		if s.f != old {
			changed |= 1 << i
		}
		l.put(i, &s)
		hp, sup := s.matrices()
		for d := range hp {
			l.hp[d][i], l.sup[d][i] = hp[d], sup[d]
		}
		for u := range l.tot {
			l.tot[u][i] = 0
		}
		for d := 0; d < 9; d++ {
			t := stackMajor(sup[d])
			for k := 0; k < 3; k++ {
				l.bc[9*k+d][i] = uint32(permCountTab[hp[d]>>(9*k)&511])
				l.sc[9*k+d][i] = uint32(permCountTab[t>>(9*k)&511])
				l.tot[k][i] += l.bc[9*k+d][i]
				l.tot[3+k][i] += l.sc[9*k+d][i]
			}
		}
		l.open[i] = uint32(s.open())
		l.pick[i] = l.pickOf(i)
		xs := l.keys(i)
		only3, full, ok := triadCheck(&xs)
		l.only3Lo[i], l.only3Hi[i], l.fullLo[i], l.fullHi[i] = uint32(only3), uint32(only3>>32), uint32(full), uint32(full>>32)
		if !ok {
			triFail |= 1 << i
		} else if only3|full != 0 {
			triWork |= 1 << i
		}
	}
	return fail, changed, triFail, triWork
}

// banded returns s's words with the band rule applied, as the first step
// of a round applies it. A round that changes no word after that step
// leaves a fixpoint of round: the band rule keeps what it kept (it is
// idempotent), and the other steps, given the same words, remove nothing
// again. So a lane is at its fixpoint as soon as a round changes nothing
// but by the band rule, a round earlier than by comparing the words with
// the round's start.
func (s *wideState) banded() [3][9]uint32 {
	f := s.f
	for b := range f {
		for d, a := range f[b] {
			f[b][d] = a & bandKeep(a)
		}
	}
	return f
}

// pickOf chooses what lane x branches on at a fixpoint, from the counts
// of its last round, as wideState.pickConfig does: the unit (0-2 a band,
// 3-5 a stack) with the fewest configurations above 9 and, in it, the
// digit with the fewest above 1 (the first of equals). It returns unit |
// digit<<4, or all ones if no unit has more than 9. The AVX-512 round
// does it for every lane.
func (l *laneState) pickOf(x int) uint32 {
	best, bestTot := -1, uint32(1<<31)
	for u := range l.tot {
		if t := l.tot[u][x]; t > 9 && t < bestTot {
			best, bestTot = u, t
		}
	}
	if best < 0 {
		return ^uint32(0)
	}
	counts := &l.bc
	if best >= 3 {
		counts = &l.sc
	}
	bd, bc := 0, uint32(255)
	for d := 0; d < 9; d++ {
		if c := counts[9*(best%3)+d][x]; c >= 2 && c < bc {
			bd, bc = d, c
			if c == 2 {
				break
			}
		}
	}
	return uint32(best) | uint32(bd)<<4
}

// pickConfig is wideState.pickConfig for lane x, at a fixpoint with
// state s, from the choice of its last round (pick).
func (l *laneState) pickConfig(x int, s *wideState) (u, d int, mat uint32, ok bool) {
	p := l.pick[x]
	if p == ^uint32(0) {
		return 0, 0, 0, false
	}
	best, bd := int(p&15), int(p>>4)
	if best < 3 {
		a := s.f[best][bd]
		mat = uint32(shrinkTab[a&511]) | uint32(shrinkTab[a>>9&511])<<3 | uint32(shrinkTab[a>>18])<<6
	} else {
		m := colsOf(s.f[0][bd]) | colsOf(s.f[1][bd])<<9 | colsOf(s.f[2][bd])<<18
		mat = stackMajor(m) >> (9 * (best - 3)) & 511
	}
	return best, bd, mat, true
}

// laneKernel is a solver variant that solves many puzzles with the lane
// search (solveMany), and single puzzles with its triad kernel.
type laneKernel struct {
	triadKernel
	avx bool // rounds with roundLanesAVX512, else roundLanesGo
	l   laneState
	// triFail and triWork are the last round's triadCheck (see
	// roundLanesGo).
	triFail, triWork uint16
	// pending holds the states waiting for a lane, each with its puzzle.
	pending []pendingState
}

type pendingState struct {
	s      wideState
	puzzle int
}

// manyEngine is an engine that solves puzzles faster many at a time.
type manyEngine interface {
	// solveMany solves every puzzle of gs up to limit solutions (limit >
	// 0) into res, and returns ctx's error if ctx ends first.
	solveMany(ctx context.Context, gs []Grid, limit uint64, res []Result) error
}

func (k *laneKernel) round() (fail, changed uint16) {
	if k.avx {
		fail, changed, k.triFail, k.triWork = roundLanesAVX512(&k.l)
	} else {
		fail, changed, k.triFail, k.triWork = roundLanesGo(&k.l)
	}
	return fail, changed
}

func (k *laneKernel) solveMany(ctx context.Context, gs []Grid, limit uint64, res []Result) error {
	c := k.control()
	c.ctx = ctx
	defer func() { c.ctx = nil }()
	for i := range gs {
		res[i] = Result{}
	}
	// done[p]: puzzle p reached the limit, or failed to load; its states
	// still pending are dropped.
	done := make([]bool, len(gs))
	var owner [lanes]int // the puzzle of each lane's state, -1 for none
	var live uint16
	next := 0
	k.pending = k.pending[:0]
	var s wideState
	// fill gives lane x a state: a pending one, else the next puzzle's
	// givens; it reports false when there is none left.
	fill := func(x int) bool {
		for len(k.pending) > 0 {
			ps := &k.pending[len(k.pending)-1]
			k.pending = k.pending[:len(k.pending)-1]
			if !done[ps.puzzle] {
				k.l.put(x, &ps.s)
				owner[x] = ps.puzzle
				return true
			}
		}
		for next < len(gs) {
			p := next
			next++
			s = wideState{}
			if !s.init(&gs[p]) {
				done[p] = true
				continue
			}
			k.l.put(x, &s)
			owner[x] = p
			return true
		}
		return false
	}
	// empty frees lane x (its words all 0: it fails at once).
	empty := func(x int) {
		k.l.put(x, &wideState{})
		owner[x] = -1
		live &^= 1 << x
	}
	for x := 0; x < lanes; x++ {
		owner[x] = -1
		if fill(x) {
			live |= 1 << x
		}
	}
	for rounds := 0; live != 0; rounds++ {
		if rounds&255 == 255 && ctx.Err() != nil {
			return ctx.Err()
		}
		if next == len(gs) && bits.OnesCount16(live) < tailLanes {
			// The last states: a round costs as much for a few lanes
			// as for sixteen, and the triad kernel does them faster.
			for m := live; m != 0; m &= m - 1 {
				x := bits.TrailingZeros16(m)
				var ps pendingState
				k.l.get(x, &ps.s)
				ps.puzzle = owner[x]
				k.pending = append(k.pending, ps)
			}
			return k.finish(ctx, limit, res, done)
		}
		fail, changed := k.round()
		for m := live & (fail | ^changed); m != 0; m &= m - 1 {
			x := bits.TrailingZeros16(m)
			p := owner[x]
			if fail>>x&1 != 0 || done[p] {
				k.settled(x, p, &s, true, limit, res, done)
			} else {
				k.l.get(x, &s)
				if k.settled(x, p, &s, false, limit, res, done) {
					continue // the lane goes on with s
				}
			}
			if !fill(x) {
				empty(x)
			}
		}
	}
	return ctx.Err()
}

// tailLanes is the number of lanes in use below which, once every puzzle
// has been started, the pending states go to the triad kernel.
const tailLanes = 8

// finish searches the pending states with the triad kernel, each an
// independent part of its puzzle's search, adding to its count.
func (k *laneKernel) finish(ctx context.Context, limit uint64, res []Result, done []bool) error {
	c := k.control()
	for _, ps := range k.pending {
		p := ps.puzzle
		if done[p] {
			continue
		}
		r := &res[p]
		c.reset(limit - r.Count)
		k.stack[0].from(&ps.s.f)
		k.run()
		if c.halt && c.count < limit-r.Count {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if c.count > 0 && r.Count == 0 {
			r.Solution = k.solution()
		}
		if r.Count += c.count; r.Count >= limit {
			done[p] = true
		}
	}
	k.pending = k.pending[:0]
	return ctx.Err()
}

// settled handles lane x, at a fixpoint with state s of puzzle p, or
// failed. It returns true when the lane goes on (with a child of s, or s
// with fewer candidates), false when it is free.
func (k *laneKernel) settled(x, p int, s *wideState, failed bool, limit uint64, res []Result, done []bool) bool {
	c := k.control()
	if failed || done[p] {
		if !done[p] {
			c.nodes++
		}
		return false
	}
	c.nodes++
	// At a fixpoint that did not fail, every cell has a candidate: the
	// state is solved when none has two.
	open := k.l.open[x]
	if open == 0 {
		r := &res[p]
		if r.Count == 0 {
			r.Solution = fGrid(&s.f)
		}
		if r.Count++; r.Count >= limit {
			done[p] = true
		}
		return false
	}
	if open >= triadMinOpen {
		// The round did triads' first pass: the second (which reads
		// the lane's keys) only where it finds something to remove.
		if k.triFail>>x&1 != 0 {
			return false
		}
		if k.triWork>>x&1 != 0 {
			xs := k.l.keys(x)
			only3, full := k.l.triadWork(x)
			if s.applyTriads(&xs, only3, full) {
				c.nodes-- // the same node, propagated on
				k.l.put(x, s)
				return true
			}
		}
	}
	u, d, mat, ok := k.l.pickConfig(x, s)
	if !ok {
		return false
	}
	// The configurations mat holds, in permList's order (a table, not
	// six mispredicted tests): the later ones wait, from the last, and
	// the first takes the lane.
	idx := permIdxTab[mat]
	for j := int(permCountTab[mat]) - 1; j > 0; j-- {
		c.guesses++
		k.pending = append(k.pending, pendingState{puzzle: p})
		ps := &k.pending[len(k.pending)-1]
		ps.s = *s
		ps.s.applyConfig(u, d, int(idx>>(4*j)&15))
	}
	s.applyConfig(u, d, int(idx&15))
	// The lane holds s but for digit d's words, the only ones
	// applyConfig changes.
	for b := range s.f {
		k.l.f[9*b+d][x] = s.f[b][d]
	}
	return true
}

// fGrid converts the words of a solved state to a grid.
func fGrid(f *[3][9]uint32) Grid {
	var g Grid
	for b := 0; b < 3; b++ {
		for d := 0; d < 9; d++ {
			m := f[b][d]
			for m != 0 {
				p := bits.TrailingZeros32(m)
				m &= m - 1
				g[b*27+p] = uint8(d + 1)
			}
		}
	}
	return g
}
