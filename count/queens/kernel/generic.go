package kernel

import "math/bits"

// generic is the portable kernel: plain Go, no assumption on the CPU.
//
// An explicit-stack backtracker: the stack keeps, per level, the squares
// of its row still to try and the masks they were computed from. The last
// free row is never entered; its open squares are counted with one
// population count.
func generic(s *start) (solutions, nodes uint64) {
	type level struct {
		avail, cols, d1, d2, rows uint64
		r, nr                     uint64
	}
	var stack [MaxN]level
	full, nmin := s.full, s.nmin
	n := int(nmin) + 1
	cur := level{s.avail, s.cols, s.d1, s.d2, s.rows, s.r, s.nr}
	d := 0
	for {
		if cur.avail == 0 {
			if d == 0 {
				return solutions, nodes
			}
			d--
			cur = stack[d&(MaxN-1)]
			continue
		}
		bit := cur.avail & -cur.avail
		cur.avail ^= bit
		nodes++
		nc := cur.cols | bit
		nd1 := cur.d1 | bit<<(cur.r&63)
		nd2 := cur.d2 | bit<<(cur.nr&63)
		if cur.rows&(cur.rows-1) == 0 {
			lr := uint(bits.TrailingZeros64(cur.rows))
			c := uint64(bits.OnesCount64(full &^ (nc | nd1>>lr | nd2>>((nmin-uint64(lr))&63))))
			solutions += c
			nodes += c
			continue
		}
		r, a := choose(n, full, nc, nd1, nd2, cur.rows)
		if a == 0 {
			continue
		}
		stack[d&(MaxN-1)] = cur
		d++
		cur = level{a, nc, nd1, nd2, cur.rows &^ (1 << uint(r)), uint64(r), nmin - uint64(r)}
	}
}
