//go:build amd64 && !purego

package sudoku

// roundLanesAVX512 is roundLanesGo in assembly (kernel_lanes_amd64.s),
// save that it goes on with a lane that fails (its words are then
// garbage) and reports it changed or not as it falls; triFail and
// triWork are valid for lanes at a fixpoint only.
//
//go:noescape
func roundLanesAVX512(s *laneState) (fail, changed, triFail, triWork uint16)

// haveAVX512Lanes reports whether this CPU runs roundLanesAVX512.
func haveAVX512Lanes() bool { return x86().avx512 }
