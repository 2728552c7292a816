//go:build amd64 && !purego

package kernel

import "github.com/nqcount/nqcount/internal/x86"

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
			f := x86.CPU()
			return f.BMI1 && f.BMI2 && f.POPCNT
		},
		run: searchBMI2,
	})
}
