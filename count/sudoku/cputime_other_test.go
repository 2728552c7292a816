//go:build !linux

package sudoku

import "time"

// threadCPU is not measured on this system.
func threadCPU() time.Duration { return 0 }
