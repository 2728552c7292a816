// Package x86 is the one place the project asks what the CPU can do: the
// features every kernel's Supported test decides by (and the join's
// check for AMD's slow PEXT), read with the CPUID and XGETBV instructions
// the first time CPU is called, not at start-up: CPUID traps to the
// hypervisor on a virtual machine, and a short command would pay for
// every leaf read before main (RESULTS.md measures both). On other
// architectures, and with the purego tag, CPU reports nothing.
//
// Describing the machine (its name, caches and cores, for nqueens cpu and
// the benchmarks) is github.com/klauspost/cpuid's, which reads everything
// at start-up; no kernel decides by it, and this package's tests check
// their reading against it.
package x86

import "sync"

// Features is what the kernels ask of the CPU. The AVX flags are set
// only where the operating system saves the registers they use (XGETBV):
// AVX2 with the XMM and YMM states, the AVX-512 ones with the opmask and
// ZMM states as well.
type Features struct {
	POPCNT, BMI1, BMI2 bool
	AVX2               bool
	AVX512F            bool
	AVX512VL           bool
	AVX512BW           bool
	AVX512VBMI         bool
	AVX512VPOPCNTDQ    bool
	// AMD is set on AMD's and Hygon's CPUs, Family to the family as the
	// vendors' manuals compose it (the extended family added where the
	// base family is 0xF).
	AMD    bool
	Family uint32
}

// CPU returns this CPU's features, read the first time it is called.
func CPU() Features { return cpu() }

var cpu = sync.OnceValue(read)
