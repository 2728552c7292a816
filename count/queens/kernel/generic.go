package kernel

import "math/bits"

// generic is the portable kernel: plain Go, no assumption on the CPU.
//
// An explicit-stack backtracker over s's records: the current level lives
// in locals and is written to its record when the level is entered, and
// its squares still to try when a child is entered. The last free row is
// never entered; its open squares are counted with one population count.
func generic(s *Search) {
	full, nmin, limit := s.full, s.nmin, s.limit
	solutions, nodes := s.solutions, s.nodes
	lv := &s.lv
	d := s.depth
	l := &lv[d&(MaxN-1)]
	avail, cols, d1, d2, rows, r := l.avail, l.cols, l.d1, l.d2, l.rows, l.r
	for {
		if avail == 0 {
			if d == 0 {
				s.done = true
				break
			}
			d--
			l := &lv[d&(MaxN-1)]
			avail, cols, d1, d2, rows, r = l.avail, l.cols, l.d1, l.d2, l.rows, l.r
			if nodes >= limit {
				break // paused: the registers are this level's record
			}
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
		lv[d&(MaxN-1)].avail = avail
		d++
		avail, cols, d1, d2, rows, r = ba, nc, nd1, nd2, rows&^(1<<br), br
		// The child's record but its avail, written when it has a child
		// in turn (a search pauses only on a level it came back to).
		c := &lv[d&(MaxN-1)]
		c.cols, c.d1, c.d2, c.rows, c.r, c.nr = cols, d1, d2, rows, r, nmin-r
	}
	s.depth, s.solutions, s.nodes = d, solutions, nodes
}
