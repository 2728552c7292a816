//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// New files are 0666 less the umask, as a shell redirection would make
// them, so that a merge running as another user can read them.
func TestModeFollowsUmask(t *testing.T) {
	for _, mask := range []int{0o022, 0o077, 0o002} {
		old := syscall.Umask(mask)
		path := filepath.Join(t.TempDir(), "out.json")
		err := WriteFile(path, []byte("x"))
		syscall.Umask(old)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := fi.Mode().Perm(), os.FileMode(0o666&^mask); got != want {
			t.Errorf("umask %03o: mode %v, want %v", mask, got, want)
		}
	}
}

// A FIFO or a device is never replaced by a regular file.
func TestRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	targets := map[string]string{fifo: "a FIFO"}
	// As root, a device node of our own (a copy of /dev/null's numbers)
	// stands in for /dev/null, which a broken WriteFile would replace.
	dev := filepath.Join(dir, "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		targets[dev] = "a character device"
	} else {
		t.Logf("mknod: %v (not root): checking /dev/null with Check only", err)
	}
	for path, kind := range targets {
		for _, err := range []error{Check(path), WriteFile(path, []byte("x"))} {
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), kind) {
				t.Errorf("%s: %v, want an error naming %s", path, err, kind)
			}
		}
		if fi, err := os.Lstat(path); err != nil || fi.Mode().IsRegular() {
			t.Errorf("%s was replaced by a regular file", path)
		}
	}
	if _, err := os.Stat("/dev/null"); err == nil {
		if err := Check("/dev/null"); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "character device") {
			t.Errorf("/dev/null: %v", err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != len(targets) {
		t.Errorf("files left: %v", entries)
	}
}
