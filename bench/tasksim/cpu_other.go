//go:build !unix

package main

// cpuSeconds is not available on this system.
func cpuSeconds() float64 { return 0 }
