//go:build amd64 && !purego

package kernel

import "github.com/klauspost/cpuid/v2"

// searchBMI2 is the generic kernel's search in assembly, for CPUs with
// BMI1, BMI2 and POPCNT (x86-64-v3 and later); see bmi2_amd64.s.
//
//go:noescape
func searchBMI2(s *Search)

func init() {
	register(Kernel{
		Name: "bmi2",
		Doc:  "amd64 assembly with BMI1, BMI2 and POPCNT",
		Rank: 20,
		Supported: func() bool {
			return cpuid.CPU.Supports(cpuid.BMI1, cpuid.BMI2, cpuid.POPCNT)
		},
		run: searchBMI2,
	})
}
