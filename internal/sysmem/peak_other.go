//go:build !unix

package sysmem

func peak() (uint64, bool) { return 0, false }
