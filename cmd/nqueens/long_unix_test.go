//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nqcount/nqcount/internal/cli"
)

// --out and --checkpoint never replace, nor block on, anything but a
// regular file: a FIFO or a device is refused at once (as root, --out
// /dev/null used to replace the machine's /dev/null after the count); a
// link to a regular file is written through.
func TestSpecialFileTargets(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	targets := map[string]string{fifo: "a FIFO"}
	// As root, a device node of our own stands in for /dev/null.
	if dev := filepath.Join(dir, "null"); syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3) == nil {
		targets[dev] = "a character device"
	}
	for path, kind := range targets {
		for _, args := range [][]string{
			{"count", "10", "--shard", "0/2", "--out", path},
			{"count", "10", "--checkpoint", path},
		} {
			done := make(chan struct{})
			var (
				code      int
				out, errs string
			)
			go func() {
				defer close(done)
				code, out, errs = runCLI(args...)
			}()
			select {
			case <-done:
			case <-time.After(time.Minute):
				t.Fatalf("%q: blocked on %s", args, kind)
			}
			if code != cli.ExitUsage || out != "" || !strings.Contains(errs, kind) {
				t.Errorf("%q: exit %d, %q, want a usage error naming %s", args, code, errs, kind)
			}
			checkPrefixed(t, errs)
			if fi, err := os.Lstat(path); err != nil || fi.Mode().IsRegular() {
				t.Errorf("%s was replaced by a regular file", path)
			}
		}
	}

	// A link to a regular file is written through, for both files.
	real, link := filepath.Join(dir, "real.json"), filepath.Join(dir, "link.json")
	realJ, linkJ := filepath.Join(dir, "real.journal"), filepath.Join(dir, "link.journal")
	os.WriteFile(real, nil, 0o644) // made beforehand, empty
	os.WriteFile(realJ, nil, 0o644)
	os.Symlink(real, link)
	os.Symlink(realJ, linkJ)
	if code, _, errs := runCLI("count", "10", "--shard", "1/2", "--out", link, "--checkpoint", linkJ); code != cli.ExitOK {
		t.Fatalf("through links: %s", errs)
	}
	for _, l := range []string{link, linkJ} {
		if fi, _ := os.Lstat(l); fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s was replaced", l)
		}
	}
	if b, _ := os.ReadFile(real); !strings.Contains(string(b), `"shards": 2`) {
		t.Errorf("result not written through the link: %q", b)
	}
	if b, _ := os.ReadFile(realJ); !strings.HasPrefix(string(b), "nqcount-journal") {
		t.Errorf("journal not written through the link: %q", b)
	}
}
