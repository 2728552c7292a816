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
