//go:build unix

package meter

import (
	"os"
	"runtime"
	"syscall"
)

// SelfCPU is the user plus system CPU time of this process so far, in
// seconds (0 where the system does not say).
func SelfCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return seconds(ru.Utime) + seconds(ru.Stime)
}

func seconds(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }

// PeakRSS is the largest resident set of a finished process in bytes,
// the memory probe: false where the system does not say.
func PeakRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return 0, false
	}
	return maxrss(ru), true
}

// SelfPeakRSS is PeakRSS of this process so far.
func SelfPeakRSS() (int64, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return maxrss(&ru), true
}

// maxrss is ru_maxrss in bytes: the kernel gives KiB on Linux and the
// BSDs, bytes on Darwin.
func maxrss(ru *syscall.Rusage) int64 {
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss)
	}
	return int64(ru.Maxrss) * 1024
}
