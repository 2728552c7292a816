//go:build amd64 && !purego

package sudoku

import "github.com/klauspost/cpuid/v2"

// propagateBMI2 is triadState.propagate in assembly (see
// kernel_bmi2_amd64.s): the same steps, with every value in a register
// and BMI1/BMI2 shifts and bit scans; the Go compiler spills a third of
// propagate's values to the stack.
//
//go:noescape
func propagateBMI2(s *triadState) bool

func init() {
	register(Variant{
		Name: "triad-bmi2",
		Doc:  "the triad solver propagating in amd64 assembly with BMI1 and BMI2",
		Rank: 20,
		Supported: func() bool {
			return cpuid.CPU.Supports(cpuid.BMI1, cpuid.BMI2)
		},
		newEngine: func() engine { return &triadKernel{asm: true} },
	})
}
