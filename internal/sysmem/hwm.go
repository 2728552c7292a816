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
	b, err := os.ReadFile("/proc/" + pid + "/status")
	if err != nil {
		return 0, false
	}
	return parseHWM(b)
}

// parseHWM reads the VmHWM line of a /proc/PID/status file.
func parseHWM(status []byte) (uint64, bool) {
	for line := range bytes.Lines(status) {
		rest, ok := bytes.CutPrefix(line, []byte("VmHWM:"))
		if !ok {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0, false
		}
		kb, err := strconv.ParseUint(string(f[0]), 10, 64)
		if err != nil || kb == 0 {
			return 0, false
		}
		return kb << 10, true
	}
	return 0, false
}
