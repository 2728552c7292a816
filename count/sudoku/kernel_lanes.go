package sudoku

import "context"

// The lane kernel propagates sixteen puzzles at once, each a lane of a
// SIMD register: wideState.propagate's rounds (kernel_wide.go) on every
// band word of the sixteen, with AVX-512 where there is, until no lane
// changes. That is the root of each puzzle's search, the settling of its
// givens: most of the work on puzzles that need few guesses (17-clue
// puzzles need 0.57 on average). Each search then goes on alone in the
// triad kernel, from the settled words; the tree searched, and so the
// guesses and counts, are the triad kernel's own.

// lanes is the number of puzzles propagated at once.
const lanes = 16

// laneState holds the words of sixteen wideStates, word by word
// (f[9*band+digit][lane]), and propagateLanesAVX512's scratch space.
type laneState struct {
	f   [27][lanes]uint32
	old [27][lanes]uint32
	cm  [27][lanes]uint32
	p   [9][lanes]uint32
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

// propagateLanesGo is propagateLanesAVX512 in portable Go: every lane
// through wideState.propagate. A lane with no puzzle (all words 0) fails.
func propagateLanesGo(l *laneState) (fail uint16) {
	for i := 0; i < lanes; i++ {
		var s wideState
		l.get(i, &s)
		if s.propagate() == settleFail {
			fail |= 1 << i
			continue
		}
		l.put(i, &s)
	}
	return fail
}

// laneKernel is a solver variant that settles the roots of sixteen
// puzzles at once (solveMany) and searches on with its triad kernel,
// which also solves single puzzles.
type laneKernel struct {
	triadKernel
	avx bool // propagate with propagateLanesAVX512, else propagateLanesGo
	l   laneState
}

// manyEngine is an engine that solves puzzles faster many at a time.
type manyEngine interface {
	// solveMany solves every puzzle of gs up to limit solutions (limit >
	// 0) into res, and returns ctx's error if ctx ends first.
	solveMany(ctx context.Context, gs []Grid, limit uint64, res []Result) error
}

func (k *laneKernel) solveMany(ctx context.Context, gs []Grid, limit uint64, res []Result) error {
	c := k.control()
	c.ctx = ctx
	defer func() { c.ctx = nil }()
	var s wideState
	for j := 0; j < len(gs); j += lanes {
		n := min(lanes, len(gs)-j)
		var ok uint16
		for x := 0; x < lanes; x++ {
			s = wideState{}
			if x < n && s.init(&gs[j+x]) {
				ok |= 1 << x
			}
			k.l.put(x, &s)
		}
		var fail uint16
		if k.avx {
			fail, _ = propagateLanesAVX512(&k.l)
		} else {
			fail = propagateLanesGo(&k.l)
		}
		ok &^= fail
		for x := 0; x < n; x++ {
			res[j+x] = Result{}
			if ok>>x&1 == 0 {
				continue
			}
			k.l.get(x, &s)
			c.reset(limit)
			k.stack[0].from(&s.f)
			k.run()
			if c.halt && c.count < limit {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if c.count > 0 {
				res[j+x] = Result{Count: c.count, Solution: k.solution()}
			}
		}
	}
	return ctx.Err()
}
