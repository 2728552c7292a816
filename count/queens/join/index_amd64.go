//go:build amd64 && !purego

package join

import "github.com/nqcount/nqcount/internal/x86"

//go:noescape
func keysPEXT(pats *uint64, n int, mask uint64, keys *uint32, cnt *int32)

//go:noescape
func scatterPEXT(pats *uint64, n int, mask uint64, keys *uint32, start *int32, out *uint64, top uint64)

// fastPEXT reports whether PEXT takes a cycle or so on a CPU with
// features f: on every CPU with BMI2 but AMD's (and Hygon's) before Zen 3
// (family 0x19), which run it in microcode, hundreds of cycles.
func fastPEXT(f x86.Features) bool {
	return f.BMI2 && (!f.AMD || f.Family >= 0x19)
}

// sortKeysPEXT is sortKeysGeneric by PEXT (keys[i] and cnt need room for
// len(pats) and every key).
func sortKeysPEXT(kr *keyer, pats []uint64, keys []uint32, cnt []int32) {
	_ = keys[len(pats)-1]
	_ = cnt[1<<uint(kr.bits)-1]
	keysPEXT(&pats[0], len(pats), kr.chosen, &keys[0], &cnt[0])
}

// sortOutPEXT is sortOutGeneric by PEXT.
func sortOutPEXT(kr *keyer, pats []uint64, keys []uint32, start []int32, out []uint64) {
	_ = keys[len(pats)-1]
	_ = start[1<<uint(kr.bits)-1]
	_ = out[len(pats)-1]
	scatterPEXT(&pats[0], len(pats), kr.others, &keys[0], &start[0], &out[0], kr.top&63)
}

// pextSort returns the passes of bucket that take the PEXT ones where
// PEXT is fast, else the portable ones (x86.CPU reads the CPU on the
// first call).
func pextSort() (func(*keyer, []uint64, []uint32, []int32), func(*keyer, []uint64, []uint32, []int32, []uint64)) {
	keys := func(kr *keyer, pats []uint64, keys []uint32, cnt []int32) {
		if fastPEXT(x86.CPU()) {
			sortKeysPEXT(kr, pats, keys, cnt)
		} else {
			sortKeysGeneric(kr, pats, keys, cnt)
		}
	}
	out := func(kr *keyer, pats []uint64, keys []uint32, start []int32, out []uint64) {
		if fastPEXT(x86.CPU()) {
			sortOutPEXT(kr, pats, keys, start, out)
		} else {
			sortOutGeneric(kr, pats, keys, start, out)
		}
	}
	return keys, out
}
