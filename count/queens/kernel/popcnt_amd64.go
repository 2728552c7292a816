//go:build amd64 && !purego

package kernel

import "github.com/klauspost/cpuid/v2"

// countPOPCNT is the assembly kernel for x86-64-v2 CPUs: no BMI, shifts
// by CL, POPCNT for the last row. The rung between the generic Go kernel
// and bmi2, so that every CPU since about 2008 runs assembly.
//
//go:noescape
func countPOPCNT(f *Frame) (solutions, nodes uint64)

func init() {
	register(Kernel{
		Name:      "popcnt",
		Doc:       "amd64 assembly with POPCNT (x86-64-v2)",
		Rank:      10,
		Supported: func() bool { return cpuid.CPU.Supports(cpuid.POPCNT) },
		Count:     countPOPCNT,
	})
}
