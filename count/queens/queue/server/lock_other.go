//go:build !unix

package server

import (
	"fmt"
	"os"
	"path/filepath"
)

// lockFile is the file in a data folder that the server using it holds.
const lockFile = "nqcount-serve.lock"

// lockDir opens dir's lock file; where flock(2) is not available it does
// not keep a second server out (scripts/README.md: one server per folder).
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, lockFile), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("data folder: %w", err)
	}
	return f, nil
}
