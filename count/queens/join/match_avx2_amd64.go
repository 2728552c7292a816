//go:build amd64 && !purego

package join

import "github.com/klauspost/cpuid/v2"

//go:noescape
func countAVX2(t *entry, items []uint64, nch int) uint64

//go:noescape
func tablesAVX2(t *entry, planes *entry, valid *entry, nch, m int)

// buildAVX2 is buildGeneric with the tables in assembly; the planes are
// transposed in Go.
func buildAVX2(b *block, pats []uint64, m int) {
	transposeGeneric(b, pats, m)
	valid := validEntry(len(pats))
	b.nch = max(1, (m+chunkBits-1)/chunkBits)
	tablesAVX2(&b.t[0][0], &b.planes[0], &valid, b.nch, m)
}

func init() {
	sortKeys, sortOut := pextSort()
	register(Kernel{
		Name: "avx2",
		Doc:  "amd64 assembly with AVX2 and BMI2",
		Rank: 10,
		Supported: func() bool {
			return cpuid.CPU.Supports(cpuid.AVX2, cpuid.BMI2)
		},
		build:    buildAVX2,
		filter:   vectorFilter(filterAVX2),
		sortKeys: sortKeys,
		sortOut:  sortOut,
		cross:    vectorCross(crossAVX2),
		count: func(b *block, items []uint64) uint64 {
			if len(items) == 0 {
				return 0
			}
			return countAVX2(&b.t[0][0], items, b.nch)
		},
	})
}
