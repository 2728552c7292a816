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
		avail, cols, d1, d2, rows, r uint64
	}
	var stack [MaxN]level
	full, nmin := s.full, s.nmin
	avail, cols, d1, d2, rows, r := s.avail, s.cols, s.d1, s.d2, s.rows, s.r
	d := 0
	for {
		if avail == 0 {
			if d == 0 {
				return solutions, nodes
			}
			d--
			l := &stack[d&(MaxN-1)]
			avail, cols, d1, d2, rows, r = l.avail, l.cols, l.d1, l.d2, l.rows, l.r
			continue
		}
		bit := avail & -avail
		avail ^= bit
		nodes++
		nc := cols | bit
		nd1 := d1 | bit<<(r&63)
		nd2 := d2 | bit<<((nmin-r)&63)
		if rows&(rows-1) == 0 {
			lr := uint64(bits.TrailingZeros64(rows))
			c := uint64(bits.OnesCount64(full &^ (nc | nd1>>lr | nd2>>((nmin-lr)&63))))
			solutions += c
			nodes += c
			continue
		}
		// The most constrained of the first Look free rows (choose,
		// written out: the Go compiler does not inline a loop).
		var br, ba uint64
		best := 99
		rf := rows
		for i := 0; i < Look && rf != 0; i++ {
			t := uint64(bits.TrailingZeros64(rf))
			rf &= rf - 1
			o := full &^ (nc | nd1>>t | nd2>>((nmin-t)&63))
			if o == 0 {
				ba = 0
				break
			}
			if c := bits.OnesCount64(o); c < best {
				best, br, ba = c, t, o
			}
		}
		if ba == 0 {
			continue
		}
		stack[d&(MaxN-1)] = level{avail, cols, d1, d2, rows, r}
		d++
		avail, cols, d1, d2, rows, r = ba, nc, nd1, nd2, rows&^(1<<br), br
	}
}
