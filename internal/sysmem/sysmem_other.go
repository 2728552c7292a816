//go:build !linux

package sysmem

func total() (uint64, bool) { return 0, false }
