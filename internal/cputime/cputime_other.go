//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package cputime

import "time"

func thread() (time.Duration, bool) { return time.Since(start), false }

func process() (time.Duration, bool) { return 0, false }
