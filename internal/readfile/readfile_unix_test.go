//go:build unix

package readfile

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO that nobody opens for writing, and one whose writer holds it open
// and never writes: cancelling the context ends the read at once.
func TestReadFIFOCancelled(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	// Without a writer the FIFO reads as empty (opened without blocking).
	if b, err := Read(context.Background(), fifo, 100, "x"); err != nil || len(b) != 0 {
		t.Errorf("FIFO without a writer: %q, %v", b, err)
	}
	w, err := os.OpenFile(fifo, os.O_RDWR, 0) // a writer that never writes
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err = Read(ctx, fifo, 100, "x")
	if !errors.Is(err, context.Canceled) {
		t.Errorf("held-open FIFO: %v", err)
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("cancelled read took %v", el)
	}
	// What the writer sends is read, up to the limit.
	go w.Write([]byte("0123456789"))
	ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := Read(ctx, fifo, 5, "x"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("FIFO over the limit: %v", err)
	}
}

// Open on a FIFO nobody writes waits until the context is done; on a FIFO
// whose writer comes later it returns the file, which reads what the
// writer writes.
func TestOpenFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	if f, err := Open(ctx, fifo); !errors.Is(err, context.Canceled) {
		t.Errorf("FIFO without a writer: %v, %v", f, err)
		if f != nil {
			f.Close()
		}
	}
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("cancelled open took %v", el)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		if err := os.WriteFile(fifo, []byte("late\n"), 0); err != nil {
			t.Error(err)
		}
	}()
	f, err := Open(context.Background(), fifo)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, 16)
	n, _ := f.Read(b)
	if string(b[:n]) != "late\n" {
		t.Errorf("read %q, want %q", b[:n], "late\n")
	}
}

// TestOpenRegular: a regular file opens as os.Open would open it: its
// bytes, its name, and os.Open's error where it cannot be opened.
func TestOpenRegular(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "puzzles.txt")
	if err := os.WriteFile(p, []byte("some puzzles\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(f)
	if err != nil || string(b) != "some puzzles\n" || f.Name() != p {
		t.Errorf("read %q, %v; name %q", b, err, f.Name())
	}
	if err := f.Close(); err != nil {
		t.Error(err)
	}
	missing := filepath.Join(dir, "gone.txt")
	_, err = openRegular(missing)
	_, want := os.Open(missing)
	if err == nil || want == nil || err.Error() != want.Error() || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v, want %v", err, want)
	}
}
