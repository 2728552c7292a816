//go:build unix

package journal

import (
	"os"
	"syscall"
)

// lock takes an exclusive advisory lock on f without waiting, so two
// processes never append to one journal.
func lock(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}

// openFlags are added to every open of a journal: O_NONBLOCK, so that
// opening a FIFO by mistake does not wait for a writer (it is then refused
// as not a regular file).
const openFlags = syscall.O_NONBLOCK
