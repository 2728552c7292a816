//go:build amd64 && !purego

package sudoku

import (
	"sync"

	x86id "github.com/nqcount/nqcount/internal/x86"
)

// The kernels' CPU features, read with CPUID when a variant's Supported
// is first asked: three CPUID leaves and XGETBV, where
// golang.org/x/sys/cpu reads seven at every start-up (CPUID traps to the
// hypervisor on a virtual machine, some 10 µs each here).

// x86Features is what the kernels need to know of the CPU.
type x86Features struct {
	bmi2   bool // BMI1 and BMI2: propagateBMI2
	avx512 bool // AVX-512 F, BW, VL and VPOPCNTDQ, with the ZMM state enabled by the OS: roundLanesAVX512
}

var x86 = sync.OnceValue(func() (f x86Features) {
	maxLeaf, _, _, _ := x86id.CPUID(0, 0)
	if maxLeaf < 7 {
		return f
	}
	_, _, ecx1, _ := x86id.CPUID(1, 0)
	_, ebx7, ecx7, _ := x86id.CPUID(7, 0)
	has := func(r uint32, bits ...uint) bool {
		for _, b := range bits {
			if r>>b&1 == 0 {
				return false
			}
		}
		return true
	}
	f.bmi2 = has(ebx7, 3, 8)
	// The OS saves the opmask and ZMM registers (XCR0 bits 5-7) as well
	// as XMM and YMM (bits 1, 2).
	if has(ecx1, 27) { // OSXSAVE
		xcr0, _ := x86id.XGETBV()
		f.avx512 = has(xcr0, 1, 2, 5, 6, 7) && has(ebx7, 16, 30, 31) && has(ecx7, 14)
	}
	return f
})
