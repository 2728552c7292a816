package sudoku

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time used by the calling OS thread (the caller
// locks its goroutine to the thread), or 0 if unknown. On a machine shared
// with other jobs it measures the solver better than the wall clock.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD
	if syscall.Getrusage(rusageThread, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
