//go:build amd64 && !purego

package join

import "github.com/klauspost/cpuid/v2"

//go:noescape
func keysPEXT(pats *uint64, n int, mask uint64, keys *uint32, cnt *int32)

//go:noescape
func scatterPEXT(pats *uint64, n int, mask uint64, keys *uint32, start *int32, out *uint64)

// fastPEXT reports whether PEXT takes a cycle or so: on every CPU with
// BMI2 but AMD's before Zen 3 (family 0x19), which run it in microcode,
// hundreds of cycles.
func fastPEXT() bool {
	c := cpuid.CPU
	return c.Supports(cpuid.BMI2) && (c.VendorID != cpuid.AMD && c.VendorID != cpuid.Hygon || c.Family >= 0x19)
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
	scatterPEXT(&pats[0], len(pats), kr.others, &keys[0], &start[0], &out[0])
}

// pextSort returns the PEXT passes of bucket where PEXT is fast, else the
// portable ones (nil).
func pextSort() (func(*keyer, []uint64, []uint32, []int32), func(*keyer, []uint64, []uint32, []int32, []uint64)) {
	if !fastPEXT() {
		return nil, nil
	}
	return sortKeysPEXT, sortOutPEXT
}
