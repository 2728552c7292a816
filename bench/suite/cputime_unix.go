//go:build unix

package suite

import "syscall"

// selfCPU is the user plus system CPU time of this process so far, in
// seconds (0 when the system does not say).
func selfCPU() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
