//go:build linux || darwin || freebsd || netbsd || openbsd

package cputime

import (
	"time"

	"golang.org/x/sys/unix"
)

func thread() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return time.Since(start), false
	}
	return time.Duration(ts.Nano()), true
}

func process() (time.Duration, bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
