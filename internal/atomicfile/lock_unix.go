//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// lock takes an exclusive advisory lock on f, waiting for it: a writer
// that checked a file holds it until the file is replaced. Where the file
// system has no locks (ENOLCK, EOPNOTSUPP, or EBADF for a file NFS would
// lock only if opened for writing) the file is replaced unlocked, as
// before there was a lock.
func lock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		switch err {
		case syscall.EINTR:
			continue
		case syscall.ENOLCK, syscall.EOPNOTSUPP, syscall.EBADF:
			return nil
		}
		return err
	}
}

// openFlags are added to the open of a file about to be replaced:
// O_NONBLOCK, so that a FIFO put there meanwhile does not wait for a writer
// (it is then refused as not a regular file).
const openFlags = syscall.O_NONBLOCK
