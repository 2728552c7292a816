//go:build !unix

package suite

// selfCPU is not available on this system.
func selfCPU() float64 { return 0 }
