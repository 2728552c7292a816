//go:build unix

package sysmem

import (
	"runtime"
	"syscall"
)

func peak() (uint64, bool) {
	if b, ok := PeakOf("self"); ok {
		return b, true
	}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil || ru.Maxrss <= 0 {
		return 0, false
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return uint64(ru.Maxrss), true // bytes there
	}
	return uint64(ru.Maxrss) * 1024, true // KiB on Linux and the BSDs
}
