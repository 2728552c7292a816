//go:build !unix

package meter

import "os"

// SelfCPU is not available on this system: 0.
func SelfCPU() float64 { return 0 }

// PeakRSS is not available on this system.
func PeakRSS(*os.ProcessState) (int64, bool) { return 0, false }

// SelfPeakRSS is not available on this system.
func SelfPeakRSS() (int64, bool) { return 0, false }
