package atomicfile

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// renameNoReplace renames tmp to target unless target exists
// (renameat2(2) with RENAME_NOREPLACE), for file systems without hard
// links. It returns errNoRenameNoReplace where the call is not supported.
func renameNoReplace(tmp, target string) error {
	err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, target, unix.RENAME_NOREPLACE)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EOPNOTSUPP) {
		return errNoRenameNoReplace
	}
	if errors.Is(err, unix.EEXIST) {
		return &os.LinkError{Op: "rename", Old: tmp, New: target, Err: fs.ErrExist}
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: tmp, New: target, Err: err}
	}
	return nil
}
