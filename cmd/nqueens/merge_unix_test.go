//go:build unix

package main

import (
	"path/filepath"
	"syscall"
	"testing"
)

// mkfifo makes a FIFO in a temporary folder, or returns "" where it cannot.
func mkfifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Logf("no FIFO: %v", err)
		return ""
	}
	return p
}
