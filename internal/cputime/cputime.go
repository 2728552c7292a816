// Package cputime reads the CPU time of the calling thread and of the
// process: what a measurement on a machine shared with other work should
// use rather than the wall clock.
package cputime

import "time"

// Thread returns the CPU time the calling OS thread has used, and whether
// the system reports it; the caller keeps its goroutine on one thread
// (runtime.LockOSThread) between two readings. Where it is not reported,
// Thread returns the time since the process started, and false.
func Thread() (time.Duration, bool) { return thread() }

// Process returns the CPU time (user and system) the process has used,
// and whether the system reports it.
func Process() (time.Duration, bool) { return process() }

var start = time.Now()
