// Package sysmem reports the machine's physical memory and the process's
// peak resident memory, for memory limits and reports.
package sysmem

// Total returns the machine's physical memory in bytes, and false when it
// cannot tell.
func Total() (uint64, bool) { return total() }

// Peak returns the largest resident set size the process has had, in
// bytes, and false when the system does not report it.
//
// On Linux it is the high-water mark of the process's own memory (VmHWM):
// getrusage's ru_maxrss also takes in the parent's resident size when the
// parent started the process by vfork and exec (as Go's os/exec does), so
// a count started by a large process reported that process's memory.
func Peak() (uint64, bool) { return peak() }
