//go:build unix

package server

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// lockFile is the file in a data folder that the server using it locks.
const lockFile = "nqcount-serve.lock"

// lockDir takes an exclusive advisory lock on dir's lock file without
// waiting, and writes this process's id in it: two servers on one folder
// would corrupt JetStream's files. The lock goes with the process, however
// it ends (a server killed with SIGKILL leaves none behind).
func lockDir(dir string) (*os.File, error) {
	path := filepath.Join(dir, lockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("data folder: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b := make([]byte, 32)
		n, _ := f.ReadAt(b, 0)
		f.Close()
		who := "another process"
		if pid, err := strconv.Atoi(string(bytes.TrimSpace(b[:n]))); err == nil {
			who = "process " + strconv.Itoa(pid)
		}
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: %s holds %s (one server per folder: two would corrupt the queue's files; stop it, or give this server its own --data)", ErrInUse, who, dir)
		}
		return nil, fmt.Errorf("data folder: locking %s: %w", path, err)
	}
	f.Truncate(0)
	f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return f, nil
}
