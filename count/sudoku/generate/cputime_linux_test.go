package generate

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time used by the whole process (garbage
// collection included), or 0 if unknown. On a machine shared with other
// jobs it measures the generator better than the wall clock.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
