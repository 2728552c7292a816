//go:build amd64 && !purego

package join

import (
	"fmt"
	"unsafe"

	"github.com/nqcount/nqcount/internal/x86"
)

//go:noescape
func pairsAVX512(e *uint64, ne int, w *uint64, nw int) uint64

//go:noescape
func transposeAVX512(planes *entry, pats *uint64, groups int)

//go:noescape
func tablesAVX512(t *entry, planes *entry, valid *entry, nch, wide, m, narrow int)

// buildAVX512 is buildGeneric with the transposition and the tables in
// assembly.
func buildAVX512(b *block, pats []uint64, m int, lay layout) {
	full := len(pats) / 64
	if full > 0 {
		transposeAVX512(&b.planes[0], &pats[0], full)
	}
	if r := len(pats) - 64*full; r > 0 {
		copy(b.pad[:], pats[64*full:])
		clear(b.pad[r:])
		transposeAVX512((*entry)(unsafe.Add(unsafe.Pointer(&b.planes[0]), 8*full)), &b.pad[0], 1)
	}
	valid := validEntry(len(pats))
	b.lay = lay
	tablesAVX512(&b.t[0], &b.planes[0], &valid, lay.nch, lay.wide, m, 64<<lay.bits)
}

func init() {
	sortKeys, sortOut := pextSort()
	register(Kernel{
		Name: "avx512",
		Doc:  "amd64 assembly with AVX-512 (F, VL, BW, VBMI, VPOPCNTDQ) and BMI2",
		Rank: 20,
		Supported: func() bool {
			f := x86.CPU()
			return f.AVX512F && f.AVX512VL && f.AVX512BW && f.AVX512VBMI && f.AVX512VPOPCNTDQ && f.BMI2
		},
		build:    buildAVX512,
		filter:   vectorFilter(filterAVX512),
		sortKeys: sortKeys,
		sortOut:  sortOut,
		cross:    vectorCross(crossAVX512),
		pairs: func(e, w []uint64) uint64 {
			if len(e) == 0 || len(w) == 0 {
				return 0
			}
			return pairsAVX512(&e[0], len(e), &w[0], len(w))
		},
		count: func(b *block, items []uint64) uint64 {
			if len(items) == 0 {
				return 0
			}
			return loopOf(b.lay).full512(&b.t[0][0], items)
		},
		half: func(b *block, items []uint64) uint64 {
			if len(items) == 0 {
				return 0
			}
			return loopOf(b.lay).half512(&b.t[0][0], items)
		},
	})
}

// loopRow is the row of each layout code in loops, plus one (0: none).
var loopRow [1 << 12]int16

func init() {
	for i, l := range loops {
		loopRow[l.code] = int16(i + 1)
	}
}

// loopOf returns the loops of layout l, whoever built the block. Every
// layout that layoutOf returns has them (TestLayout).
func loopOf(l layout) *countLoops {
	i := int(loopRow[l.code()&(len(loopRow)-1)]) - 1
	if i < 0 {
		panic(fmt.Sprintf("join: no counting loop for layout %+v", l))
	}
	return &loops[i]
}
