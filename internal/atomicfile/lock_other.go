//go:build !unix

package atomicfile

import "os"

// lock is a no-op where flock(2) is not available.
func lock(*os.File) error { return nil }

// openFlags are added to the open of a file about to be replaced.
const openFlags = 0
