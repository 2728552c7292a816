package main

import (
	"runtime/debug"

	"github.com/nqcount/nqcount/count/queens"
)

// setMemoryLimit tells the Go runtime the memory a count or an estimate
// may hold (queens.DefaultMemory where limit is 0), so that its collector
// works harder near it rather than letting garbage take the process past
// it.
func setMemoryLimit(limit uint64) {
	if limit == 0 {
		limit = queens.DefaultMemory()
	}
	debug.SetMemoryLimit(int64(min(limit, 1<<62)))
}
