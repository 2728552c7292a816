//go:build !unix

package readfile

import "os"

// openRegular is os.Open where there is no poller to avoid.
func openRegular(path string) (*os.File, error) { return os.Open(path) }
