package kernel

import (
	"math/bits"
	"strings"
	"testing"
)

// Deliberately broken kernels, built only in this test: each is the
// portable kernel with one bug of the kind a change to a kernel could
// bring, and the oracle comparison must catch every one. They are never
// registered, so the other tests and the commands never see them.
func brokenKernels() []Kernel {
	return []Kernel{
		{Name: "window-short", Doc: "compares Look-1 rows, as an assembly kernel with one row check too few", run: buggy(Look-1, false)},
		{Name: "window-long", Doc: "compares Look+1 rows", run: buggy(Look+1, false)},
		{Name: "leaf-d2", Doc: "forgets one diagonal in the last row", run: buggy(Look, true)},
		{Name: "resume-skips", Doc: "loses a square of the level it resumes", run: func(s *Search) {
			if s.depth > 0 {
				l := &s.lv[s.depth]
				l.avail &= l.avail - 1
			}
			generic(s)
		}},
	}
}

func TestBrokenKernelsCaught(t *testing.T) {
	for _, k := range brokenKernels() {
		k.Supported = func() bool { return true }
		t.Run(k.Name, func(t *testing.T) {
			err := oracleMismatch(t, k, []uint64{1000})
			if err == nil {
				t.Fatalf("the oracle comparison passed a kernel that %s", k.Doc)
			}
			t.Logf("caught: %s", strings.SplitN(err.Error(), "\n", 2)[0])
		})
	}
}

// buggy is generic with a row window of `window` rows and, if leafBug,
// the last row's open squares computed without the d2 diagonals.
func buggy(window int, leafBug bool) func(s *Search) {
	return func(s *Search) {
		full, nmin, limit := s.full, s.nmin, s.limit
		solutions, nodes := s.solutions, s.nodes
		d := s.depth
		l := &s.lv[d]
		avail, cols, d1, d2, rows, r := l.avail, l.cols, l.d1, l.d2, l.rows, l.r
		for {
			if avail == 0 {
				if d == 0 {
					s.done = true
					break
				}
				d--
				l := &s.lv[d]
				avail, cols, d1, d2, rows, r = l.avail, l.cols, l.d1, l.d2, l.rows, l.r
				if nodes >= limit {
					break
				}
				continue
			}
			bit := avail & -avail
			avail ^= bit
			nodes++
			nc, nd1, nd2 := cols|bit, d1|bit<<r, d2|bit<<(nmin-r)
			if rows&(rows-1) == 0 {
				lr := uint64(bits.TrailingZeros64(rows))
				att := nc | nd1>>lr | nd2>>(nmin-lr)
				if leafBug {
					att = nc | nd1>>lr
				}
				c := uint64(bits.OnesCount64(full &^ att))
				solutions += c
				nodes += c
				continue
			}
			var br, ba uint64
			best := 99
			rf := rows
			for i := 0; i < window && rf != 0; i++ {
				t := uint64(bits.TrailingZeros64(rf))
				rf &= rf - 1
				o := full &^ (nc | nd1>>t | nd2>>(nmin-t))
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
			s.lv[d].avail = avail
			d++
			avail, cols, d1, d2, rows, r = ba, nc, nd1, nd2, rows&^(1<<br), br
			s.lv[d] = level{avail: avail, cols: cols, d1: d1, d2: d2, rows: rows, r: r, nr: nmin - r}
		}
		s.depth, s.solutions, s.nodes = d, solutions, nodes
	}
}
