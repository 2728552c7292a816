//go:build !unix

package journal

import "os"

// lock is a no-op where flock(2) is not available.
func lock(*os.File) error { return nil }

// openFlags are added to every open of a journal.
const openFlags = 0
