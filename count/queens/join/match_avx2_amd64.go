//go:build amd64 && !purego

package join

import (
	"unsafe"

	"github.com/nqcount/nqcount/internal/x86"
)

//go:noescape
func pairsAVX2(e *uint64, ne int, w *uint64, nw int) uint64

//go:noescape
func tablesAVX2(t *entry, planes *entry, valid *entry, nch, wide, m, narrow int)

//go:noescape
func transpose32AVX2(planes *uint32, pats *uint64, nbytes int)

// buildAVX2 is buildGeneric with the transposition (32 patterns a call)
// and the tables in assembly.
func buildAVX2(b *block, pats []uint64, m int, lay layout) {
	nbytes := (m + 7) / 8
	if nbytes > 0 {
		full := len(pats) / 32
		for i := 0; i < full; i++ {
			transpose32AVX2(planeHalf(b, i), &pats[32*i], nbytes)
		}
		if r := len(pats) - 32*full; r > 0 {
			copy(b.pad[:], pats[32*full:])
			clear(b.pad[r:32])
			transpose32AVX2(planeHalf(b, full), &b.pad[0], nbytes)
		}
	}
	valid := validEntry(len(pats))
	b.lay = lay
	tablesAVX2(&b.t[0], &b.planes[0], &valid, lay.nch, lay.wide, m, 64<<lay.bits)
}

func init() {
	sortKeys, sortOut := pextSort()
	register(Kernel{
		Name: "avx2",
		Doc:  "amd64 assembly with AVX2 and BMI2",
		Rank: 10,
		Supported: func() bool {
			f := x86.CPU()
			return f.AVX2 && f.BMI2
		},
		build:    buildAVX2,
		filter:   vectorFilter(filterAVX2),
		sortKeys: sortKeys,
		sortOut:  sortOut,
		cross:    vectorCross(crossAVX2),
		pairs: func(e, w []uint64) uint64 {
			if len(e) == 0 || len(w) == 0 {
				return 0
			}
			_ = e[:len(e)+3] // the last four's lanes beyond e are read
			return pairsAVX2(&e[0], len(e), &w[0], len(w))
		},
		count: func(b *block, items []uint64) uint64 {
			if len(items) == 0 {
				return 0
			}
			return loopOf(b.lay).fullAVX2(&b.t[0][0], items)
		},
		half: func(b *block, items []uint64) uint64 {
			if len(items) == 0 {
				return 0
			}
			return loopOf(b.lay).halfAVX2(&b.t[0][0], items)
		},
	})
}

// planeHalf points at the 32-bit half of the planes' words that patterns
// 32i..32i+31 fill.
func planeHalf(b *block, i int) *uint32 {
	return (*uint32)(unsafe.Add(unsafe.Pointer(&b.planes[0]), 4*i))
}
