//go:build unix

package readfile

import (
	"os"
	"syscall"
)

// openRegular opens a regular file with a plain blocking descriptor:
// os.Open would register it with the runtime's network poller (which
// refuses regular files on Linux), and the poller's start costs a
// short-lived command more than its reads.
func openRegular(path string) (*os.File, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: path, Err: err}
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}
