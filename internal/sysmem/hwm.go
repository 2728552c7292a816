package sysmem

import (
	"bytes"
	"os"
	"strconv"
)

// PeakOf returns the high-water mark of the resident memory of process
// pid ("self" for this one) as Linux reports it in /proc/PID/status
// (VmHWM), in bytes; false where there is no such file (other systems, a
// process that has exited).
func PeakOf(pid string) (uint64, bool) {
	b, ok := status(pid)
	if !ok {
		return 0, false
	}
	return parseHWM(b)
}

// status reads /proc/PID/status of process pid ("self" for this one);
// false where there is no such file.
func status(pid string) ([]byte, bool) {
	b, err := os.ReadFile("/proc/" + pid + "/status")
	return b, err == nil
}

// Outside returns the part of this process's resident memory that the Go
// runtime does not manage, and so does not count against its memory limit
// (runtime/debug.SetMemoryLimit): the resident pages of files it maps (its
// own code and data) and of shared memory (Linux's RssFile and RssShmem
// in /proc/self/status), in bytes; false where the system does not say.
func Outside() (uint64, bool) {
	b, ok := status("self")
	if !ok {
		return 0, false
	}
	return parseOutside(b)
}

// RuntimeLimit returns the limit to give the Go runtime
// (runtime/debug.SetMemoryLimit) for a process that may hold budget
// bytes in all: the runtime's limit covers only the memory it manages,
// so the resident pages outside it (Outside: the binary's own, about 15
// MiB) are taken off, with a MiB to spare for code not yet touched, and
// never more than half the budget. Budgets past 2^62 are 2^62.
func RuntimeLimit(budget uint64) uint64 {
	limit := min(budget, 1<<62)
	if out, ok := Outside(); ok {
		limit -= min(out+1<<20, limit/2)
	}
	return limit
}

// parseOutside adds the RssFile and RssShmem lines of a /proc/PID/status
// file; false unless both are there.
func parseOutside(status []byte) (uint64, bool) {
	file, ok1 := statusField(status, "RssFile:")
	shmem, ok2 := statusField(status, "RssShmem:")
	if !ok1 || !ok2 {
		return 0, false
	}
	return file + shmem, true
}

// parseHWM reads the VmHWM line of a /proc/PID/status file.
func parseHWM(status []byte) (uint64, bool) {
	b, ok := statusField(status, "VmHWM:")
	return b, ok && b != 0
}

// statusField reads the line of a /proc/PID/status file that begins with
// name, a size in kB, in bytes; false where it is missing or malformed.
func statusField(status []byte, name string) (uint64, bool) {
	for line := range bytes.Lines(status) {
		rest, ok := bytes.CutPrefix(line, []byte(name))
		if !ok {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0, false
		}
		kb, err := strconv.ParseUint(string(f[0]), 10, 64)
		if err != nil {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}
