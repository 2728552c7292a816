package sudoku

import "math/bits"

// The wide state's test helpers: the lane kernels' tests compare a lane's
// propagation and choice of branch with these plain forms of them.

// propagate applies the rules other than the triads in rounds until one
// changes nothing. It returns settleFail on a contradiction, settleSolved
// when every digit is placed, else settleOpen.
func (s *wideState) propagate() settleState {
	for {
		old := s.f
		if !s.round() {
			return settleFail
		}
		if s.f == old {
			break
		}
	}
	return s.status()
}

// status tells a state at a fixpoint of propagate solved (every digit
// placed: 81 candidates left) or open.
func (s *wideState) status() settleState {
	n := 0
	for b := range s.f {
		for _, a := range s.f[b] {
			n += bits.OnesCount32(a)
		}
	}
	if n == 81 {
		return settleSolved
	}
	return settleOpen
}

// pickConfig chooses what to branch on exactly as triadState.pickConfig
// does, from the matrices recomputed.
func (s *wideState) pickConfig() (u, d int, mat uint32, ok bool) {
	hp, sup := s.matrices()
	return pickConfigOf(&hp, &sup)
}

// pickConfigOf is pickConfig with the state's matrices given.
func pickConfigOf(hp, sup *[9]uint32) (u, d int, mat uint32, ok bool) {
	var supT [9]uint32
	var tot [6]uint32
	for d := 0; d < 9; d++ {
		supT[d] = stackMajor(sup[d])
		for k := 0; k < 3; k++ {
			tot[k] += uint32(permCountTab[hp[d]>>(9*k)&511])
			tot[3+k] += uint32(permCountTab[supT[d]>>(9*k)&511])
		}
	}
	best, bestTot := -1, uint32(1<<31)
	for u, t := range tot {
		if t > 9 && t < bestTot {
			best, bestTot = u, t
		}
	}
	if best < 0 {
		return 0, 0, 0, false
	}
	bd, bc := -1, uint8(255)
	sh := uint(9 * (best % 3))
	for d := 0; d < 9; d++ {
		m := hp[d]
		if best >= 3 {
			m = supT[d]
		}
		if c := permCountTab[m>>sh&511]; c >= 2 && c < bc {
			bd, bc, mat = d, c, m>>sh&511
			if c == 2 {
				break
			}
		}
	}
	return best, bd, mat, true
}
