package journal

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nqcount/nqcount/internal/atomicfile"
)

// Of several openers racing to create the same new journal, exactly one
// runs and the others get ErrLocked; the winner's records land in the file
// at path. (Creating the header elsewhere and renaming it into place let a
// second opener rename a fresh header over the file the first had locked,
// whose records then went to a deleted file.)
func TestConcurrentCreate(t *testing.T) {
	const trials, openers = 30, 6
	for trial := 0; trial < trials; trial++ {
		path := filepath.Join(t.TempDir(), "j")
		var (
			wg      sync.WaitGroup
			start   = make(chan struct{})
			mu      sync.Mutex
			winners []*Journal
			errs    []error
		)
		for i := 0; i < openers; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				j, err := Open(path, testHeader, Options{})
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					errs = append(errs, err)
				} else {
					winners = append(winners, j)
				}
			}()
		}
		close(start)
		wg.Wait()
		for _, err := range errs {
			if !errors.Is(err, ErrLocked) {
				t.Fatalf("trial %d: %v, want ErrLocked", trial, err)
			}
		}
		if len(winners) != 1 {
			for _, j := range winners {
				j.Close()
			}
			t.Fatalf("trial %d: %d of %d openers run at once on one new journal", trial, len(winners), openers)
		}
		if err := winners[0].Append(Record{ID: 5, Count: 1, Nodes: 2}); err != nil {
			t.Fatal(err)
		}
		winners[0].Close()
		j := open(t, path, testHeader)
		if len(j.Records()) != 1 {
			t.Fatalf("trial %d: the winner's record is not in %s", trial, path)
		}
		j.Close()
	}
}

// A FIFO, a directory or a device is refused at once, never blocked on nor
// replaced.
func TestRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	targets := map[string]string{dir: "a directory"}
	if fifo := filepath.Join(dir, "fifo"); mkfifo(fifo) == nil {
		targets[fifo] = "a FIFO"
	}
	if _, err := os.Stat(os.DevNull); err == nil && os.DevNull == "/dev/null" {
		targets[os.DevNull] = "a character device"
	}
	for path, kind := range targets {
		done := make(chan error, 1)
		go func() {
			_, err := Open(path, testHeader, Options{})
			done <- err
		}()
		var err error
		select {
		case err = <-done:
		case <-time.After(time.Minute):
			t.Fatalf("%s: Open blocked on %s", path, kind)
		}
		if !errors.Is(err, atomicfile.ErrNotRegular) || !strings.Contains(err.Error(), kind) {
			t.Errorf("%s: %v, want an error naming %s", path, err, kind)
		}
		if fi, err := os.Lstat(path); err != nil || fi.Mode().IsRegular() {
			t.Errorf("%s was replaced", path)
		}
	}
}

// A link to a journal is written through; a dangling link is refused.
func TestSymlink(t *testing.T) {
	dir := t.TempDir()
	real := write(t, 3)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	j := open(t, link, testHeader)
	if len(j.Records()) != 3 {
		t.Fatalf("%d records through the link", len(j.Records()))
	}
	j.Append(Record{ID: 50})
	j.Close()
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("link replaced")
	}
	j = open(t, real, testHeader)
	if len(j.Records()) != 4 {
		t.Fatal("record not written through the link")
	}
	j.Close()
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "missing"), dangling)
	if _, err := Open(dangling, testHeader, Options{}); !errors.Is(err, atomicfile.ErrNotRegular) || !strings.Contains(err.Error(), "missing file") {
		t.Fatalf("dangling link: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("created the target of a dangling link")
	}
}

// Info is recorded but not compared; Accept may take an older header.
func TestInfoAndAccept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	h := testHeader
	h.Info = map[string]string{"program": "v1.0.0"}
	j := open(t, path, h)
	j.Append(Record{ID: 1, Count: 2, Nodes: 3})
	j.Close()
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), "\ninfo program v1.0.0\n") {
		t.Fatalf("info not written: %q", b)
	}
	h.Info = map[string]string{"program": "v1.0.1+dirty"}
	j = open(t, path, h)
	if len(j.Records()) != 1 || j.header.Info["program"] != "v1.0.0" {
		t.Fatalf("records %v, header %+v", j.Records(), j.header)
	}
	j.Close()

	other := h
	other.Meta = map[string]string{"n": "12"}
	if _, err := Open(path, other, Options{}); !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), `method is "constellations" in the journal but absent in this run`) {
		t.Fatalf("mismatch: %v", err)
	}
	var asked Header
	j, err := Open(path, other, Options{Accept: func(found Header) bool { asked = found; return true }})
	if err != nil || asked.Meta["method"] != "constellations" || len(j.Records()) != 1 {
		t.Fatalf("accept: %v %+v", err, asked)
	}
	j.Append(Record{ID: 2})
	j.Close()
	// The journal kept its own header: the original run still opens it.
	j = open(t, path, testHeader)
	if len(j.Records()) != 2 {
		t.Fatalf("%d records", len(j.Records()))
	}
	j.Close()
}
