//go:build amd64 && !purego

package join

import (
	"sync"

	"github.com/nqcount/nqcount/internal/x86"
	"golang.org/x/sys/cpu"
)

//go:noescape
func keysPEXT(pats *uint64, n int, mask uint64, keys *uint32, cnt *int32)

//go:noescape
func scatterPEXT(pats *uint64, n int, mask uint64, keys *uint32, start *int32, out *uint64, top uint64)

// fastPEXT reports whether PEXT takes a cycle or so: on every CPU with
// BMI2 but AMD's before Zen 3 (family 0x19), which run it in microcode,
// hundreds of cycles.
func fastPEXT() bool {
	if !cpu.X86.HasBMI2 {
		return false
	}
	amd, family := vendorFamily()
	return !amd || family >= 0x19
}

// vendorFamily reports whether the CPU is AMD's or Hygon's (whose
// pre-Zen 3 cores run PEXT in microcode), and its family as the
// vendors' manuals compose it (the extended family added where the
// base family is 0xF).
func vendorFamily() (amd bool, family uint32) {
	_, b, c, d := x86.CPUID(0, 0)
	amd = b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163 || // "AuthenticAMD"
		b == 0x6f677948 && d == 0x6e65476e && c == 0x656e6975 // "HygonGenuine"
	a, _, _, _ := x86.CPUID(1, 0)
	family = a >> 8 & 0xf
	if family == 0xf {
		family += a >> 20 & 0xff
	}
	return amd, family
}

// fastPEXTOnce is fastPEXT, asked the first time a bucket is sorted
// rather than at start-up: CPUID traps to the hypervisor on virtual
// machines, and every command that links this package would pay for it.
var fastPEXTOnce = sync.OnceValue(fastPEXT)

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
// PEXT is fast, else the portable ones (decided on the first call).
func pextSort() (func(*keyer, []uint64, []uint32, []int32), func(*keyer, []uint64, []uint32, []int32, []uint64)) {
	keys := func(kr *keyer, pats []uint64, keys []uint32, cnt []int32) {
		if fastPEXTOnce() {
			sortKeysPEXT(kr, pats, keys, cnt)
		} else {
			sortKeysGeneric(kr, pats, keys, cnt)
		}
	}
	out := func(kr *keyer, pats []uint64, keys []uint32, start []int32, out []uint64) {
		if fastPEXTOnce() {
			sortOutPEXT(kr, pats, keys, start, out)
		} else {
			sortOutGeneric(kr, pats, keys, start, out)
		}
	}
	return keys, out
}
