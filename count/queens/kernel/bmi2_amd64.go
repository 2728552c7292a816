//go:build amd64 && !purego

package kernel

import "github.com/klauspost/cpuid/v2"

// countBMI2 is the generic kernel in assembly, for CPUs with BMI1, BMI2
// and POPCNT (x86-64-v3 and later): BLSI isolates the next queen, SHLX and
// SHRX shift by a register without tying up CX, ANDN forms the open
// squares, POPCNT counts the last row; every value of the loop lives in a
// register, where the Go compiler spills three of them per node.
//
//go:noescape
func countBMI2(f *Frame) (solutions, nodes uint64)

func init() {
	register(Kernel{
		Name: "bmi2",
		Doc:  "amd64 assembly with BMI1, BMI2 and POPCNT",
		Rank: 20,
		Supported: func() bool {
			return cpuid.CPU.Supports(cpuid.BMI1, cpuid.BMI2, cpuid.POPCNT)
		},
		Count: countBMI2,
	})
}
