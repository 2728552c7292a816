//go:build amd64 && !purego

package sudoku

import "github.com/nqcount/nqcount/internal/x86"

// roundLanesAVX512 is roundLanesGo in assembly (kernel_lanes_amd64.s),
// save that it goes on with a lane that fails (its words are then
// garbage) and reports it changed or not as it falls; triFail and
// triWork are valid for lanes at a fixpoint only.
//
//go:noescape
func roundLanesAVX512(s *laneState) (fail, changed, triFail, triWork uint16)

// haveAVX512Lanes reports whether this CPU runs roundLanesAVX512:
// AVX-512 F, BW, VL and VPOPCNTDQ.
func haveAVX512Lanes() bool {
	f := x86.CPU()
	return f.AVX512F && f.AVX512BW && f.AVX512VL && f.AVX512VPOPCNTDQ
}
