//go:build amd64 && !purego && !darwin

package x86

// osZMM reports whether the operating system saves the opmask and ZMM
// registers (XCR0 bits 5-7).
func osZMM(xcr0 uint32) bool { return has(xcr0, 5, 6, 7) }
