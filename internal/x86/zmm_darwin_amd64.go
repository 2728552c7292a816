//go:build !purego

package x86

import (
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// osZMM reports whether macOS runs AVX-512 code: it enables the ZMM
// state in XCR0 only once a thread uses it, so the kernel says so by
// sysctl, and kernels before 21.3 (macOS 12.2) can corrupt the opmask
// registers on signal return. This is golang.org/x/sys/cpu's test.
func osZMM(uint32) bool {
	if v, err := unix.SysctlUint32("hw.optional.avx512f"); err != nil || v != 1 {
		return false
	}
	rel, err := unix.Sysctl("kern.osrelease")
	if err != nil {
		return false
	}
	var v [3]int
	parts := strings.Split(rel, ".")
	if len(parts) != 3 {
		return false
	}
	for i, p := range parts {
		if v[i], err = strconv.Atoi(p); err != nil {
			return false
		}
	}
	return v[0] > 21 || v[0] == 21 && v[1] >= 3
}
