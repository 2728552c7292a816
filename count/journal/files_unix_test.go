//go:build unix

package journal

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o644) }

// A new journal is 0666 less the umask (0644 here), so a merge or a resume
// running as another user on a shared file system can read it.
func TestNewJournalMode(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	path := filepath.Join(t.TempDir(), "j")
	open(t, path, testHeader).Close()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v (%v), want 0644", fi.Mode().Perm(), err)
	}
}
