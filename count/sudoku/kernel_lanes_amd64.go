//go:build amd64 && !purego

package sudoku

import "github.com/klauspost/cpuid/v2"

// propagateLanesAVX512 runs propagation rounds on the sixteen lanes of s
// until none but those that failed changes, and returns the lanes that
// failed and the rounds run (kernel_lanes_amd64.s).
//
//go:noescape
func propagateLanesAVX512(s *laneState) (fail uint16, rounds int)

// haveAVX512Lanes reports whether this CPU runs propagateLanesAVX512.
func haveAVX512Lanes() bool {
	return cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VL, cpuid.AVX512VPOPCNTDQ)
}
