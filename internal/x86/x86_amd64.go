//go:build amd64 && !purego

package x86

// cpuid returns the registers CPUID leaves for leaf (EAX) and sub-leaf
// (ECX).
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// xgetbv returns XCR0, the register-state components the operating
// system enables; valid only where CPUID leaf 1 says OSXSAVE (ECX bit
// 27).
func xgetbv() (eax, edx uint32)

// read reads the features with four CPUID leaves and XGETBV, as
// golang.org/x/sys/cpu reads them.
func read() (f Features) {
	maxLeaf, b, c, d := cpuid(0, 0)
	f.AMD = b == 0x68747541 && d == 0x69746e65 && c == 0x444d4163 || // "AuthenticAMD"
		b == 0x6f677948 && d == 0x6e65476e && c == 0x656e6975 // "HygonGenuine"
	if maxLeaf < 1 {
		return f
	}
	eax1, _, ecx1, _ := cpuid(1, 0)
	f.Family = eax1 >> 8 & 0xf
	if f.Family == 0xf {
		f.Family += eax1 >> 20 & 0xff
	}
	f.POPCNT = has(ecx1, 23)
	var osAVX, osAVX512 bool
	if has(ecx1, 27) { // OSXSAVE
		xcr0, _ := xgetbv()
		osAVX = has(xcr0, 1, 2) // the XMM and YMM states
		osAVX512 = osAVX && osZMM(xcr0)
	}
	if maxLeaf < 7 {
		return f
	}
	_, ebx7, ecx7, _ := cpuid(7, 0)
	f.BMI1 = has(ebx7, 3)
	f.BMI2 = has(ebx7, 8)
	f.AVX2 = has(ebx7, 5) && osAVX
	if has(ebx7, 16) && osAVX512 {
		f.AVX512F = true
		f.AVX512BW = has(ebx7, 30)
		f.AVX512VL = has(ebx7, 31)
		f.AVX512VBMI = has(ecx7, 1)
		f.AVX512VPOPCNTDQ = has(ecx7, 14)
	}
	return f
}

// has reports whether every bit of r numbered in bits is set.
func has(r uint32, bits ...uint) bool {
	for _, b := range bits {
		if r>>b&1 == 0 {
			return false
		}
	}
	return true
}
