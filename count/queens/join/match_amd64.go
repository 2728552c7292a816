//go:build amd64 && !purego

package join

import "github.com/klauspost/cpuid/v2"

//go:noescape
func countAVX512(t *entry, items []uint64, nch int) uint64

func init() {
	register(Kernel{
		Name: "avx512",
		Doc:  "amd64 assembly with AVX-512F and VPOPCNTQ",
		Rank: 20,
		Supported: func() bool {
			return cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512VPOPCNTDQ, cpuid.BMI2)
		},
		count: func(b *block, items []uint64) uint64 {
			if len(items) == 0 {
				return 0
			}
			return countAVX512(&b.t[0][0], items, b.nch)
		},
	})
}
