package kernel

import "math/bits"

// generic is the portable kernel: plain Go, no assumption on the CPU.
//
// It is an explicit-stack backtracker with a one-row lookahead. The stack keeps, per free row, the
// squares still to try there and the masks they were computed from; the
// last free row is never entered, its open squares are counted with one
// population count.
func generic(f *Frame) (solutions, nodes uint64) {
	if f.Free == 0 {
		return 1, 0
	}
	full := f.Full
	cols, ld, rd := f.Cols, f.LD, f.RD
	avail := full &^ (cols | ld | rd)
	last := f.Free - 1
	if last == 0 {
		c := uint64(bits.OnesCount64(avail))
		return c, c
	}
	type level struct{ avail, cols, ld, rd uint64 }
	var stack [MaxN]level
	d := 0
	for {
		if avail == 0 {
			if d == 0 {
				return solutions, nodes
			}
			d--
			l := &stack[d&(MaxN-1)]
			avail, cols, ld, rd = l.avail, l.cols, l.ld, l.rd
			continue
		}
		bit := avail & -avail
		avail ^= bit
		nodes++
		s := f.Shift[d&(MaxN-1)] & 63
		ncols := cols | bit
		nld := (ld|bit)<<s | f.Inject[(d+1)&(MaxN-1)]
		nrd := (rd | bit) >> s
		next := full &^ (ncols | nld | nrd)
		if d+1 == last {
			c := uint64(bits.OnesCount64(next))
			solutions += c
			nodes += c
			continue
		}
		if next == 0 {
			continue
		}
		// Look one row further: if the row after next is already full
		// whatever queen goes in the next row, the whole subtree is
		// dead. A few operations here save about a sixth of the nodes.
		s2 := f.Shift[(d+1)&(MaxN-1)] & 63
		if full&^(ncols|nld<<s2|f.Inject[(d+2)&(MaxN-1)]|nrd>>s2) != 0 {
			stack[d&(MaxN-1)] = level{avail, cols, ld, rd}
			d++
			avail, cols, ld, rd = next, ncols, nld, nrd
		}
	}
}
