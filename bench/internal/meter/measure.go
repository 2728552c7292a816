// Package meter holds what both benchmark tools need (the developers'
// runner in bench/ and the machine benchmark bench/suite behind `nqueens
// bench`): medians and paired ratios of rounds, the CPU time and peak
// memory the operating system accounts, the load average, and the
// formatting of seconds (rates: cli.Rate).
package meter

import (
	"fmt"
	"os"
	"slices"
	"strings"
)

// Median is the median of xs (the mean of the middle two for an even
// count), 0 for none; xs is not changed.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Paired is the median over rounds of num[i]/den[i], rounds with den[i]
// = 0 left out (0 when none is left): a ratio of two timings taken next
// to each other in each round, which cancels most of the load other
// processes put on a shared machine, where a ratio of medians taken
// minutes apart would not.
func Paired(num, den []float64) float64 {
	var q []float64
	for i := range min(len(num), len(den)) {
		if den[i] > 0 {
			q = append(q, num[i]/den[i])
		}
	}
	return Median(q)
}

// LoadAverage is the 1, 5 and 15 minute load average as /proc/loadavg
// gives it ("0.52 0.58 0.59"), or "" where the system has none.
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}

// Busy reports whether a load average as LoadAverage gives it shows more
// runnable processes over the last minute than half of cpus: other
// processes then competed for the cores, and timings are pessimistic.
func Busy(load string, cpus int) bool {
	var one float64
	_, err := fmt.Sscan(load, &one)
	return err == nil && one > float64(cpus)/2
}

// Seconds formats a duration in seconds with four significant digits or
// so: 0.0123, 1.234, 12.34.
func Seconds(s float64) string {
	switch {
	case s < 0.1:
		return fmt.Sprintf("%.4f", s)
	case s < 10:
		return fmt.Sprintf("%.3f", s)
	}
	return fmt.Sprintf("%.2f", s)
}
