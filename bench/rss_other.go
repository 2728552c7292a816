//go:build !unix

package main

import "os"

// maxRSS is not available on this system.
func maxRSS(*os.ProcessState) (int64, bool) { return 0, false }

// selfCPU is not available on this system.
func selfCPU() float64 { return 0 }
