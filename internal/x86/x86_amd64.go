//go:build amd64 && !purego

package x86

// CPUID returns the registers CPUID leaves for leaf (EAX) and sub-leaf
// (ECX).
func CPUID(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// XGETBV returns XCR0, the register-state components the operating
// system enables; valid only where CPUID leaf 1 says OSXSAVE (ECX bit
// 27).
func XGETBV() (eax, edx uint32)
