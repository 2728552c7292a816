package readfile

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	os.WriteFile(small, []byte("hello"), 0o644)
	for _, limit := range []int64{5, 6, 1 << 20} {
		if b, err := Read(context.Background(), small, limit, "a greeting"); err != nil || string(b) != "hello" {
			t.Errorf("limit %d: %q, %v", limit, b, err)
		}
	}
	if _, err := Read(context.Background(), small, 4, "a greeting"); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "5 bytes, more than a greeting can be (4 bytes)") {
		t.Errorf("over the limit: %v", err)
	}
	// A huge file (sparse: it takes no disk) is refused from its size.
	huge := filepath.Join(dir, "huge")
	f, _ := os.Create(huge)
	f.Truncate(1 << 40)
	f.Close()
	if _, err := Read(context.Background(), huge, 64<<20, "a shard file"); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "is 1 TiB, more than a shard file can be (64 MiB)") {
		t.Errorf("huge: %v", err)
	}
	if _, err := Read(context.Background(), dir, 100, "a shard file"); err == nil || !strings.Contains(err.Error(), "is a directory, not a shard file") {
		t.Errorf("directory: %v", err)
	}
	if _, err := Read(context.Background(), filepath.Join(dir, "absent"), 100, "x"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Read(ctx, small, 100, "x"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// Input that never ends stops at the limit.
func TestReadEndless(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, err := Read(context.Background(), "/dev/zero", 1<<20, "a shard file")
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "/dev/zero holds more than a shard file can (1 MiB)") {
		t.Errorf("/dev/zero: %v", err)
	}
}

func TestReadAll(t *testing.T) {
	for _, n := range []int{0, 1, 511, 512, 513, 100000} {
		in := bytes.Repeat([]byte("x"), n)
		for _, size := range []int64{1, 512, int64(n) + 512} {
			b, err := readAll(context.Background(), bytes.NewReader(in), int64(n), size)
			if err != nil || !bytes.Equal(b, in) {
				t.Errorf("n=%d size=%d: %d bytes, %v", n, size, len(b), err)
			}
			if _, err := readAll(context.Background(), bytes.NewReader(append(in, 'y')), int64(n), size); !errors.Is(err, ErrTooLarge) {
				t.Errorf("n=%d size=%d, one byte over: %v", n, size, err)
			}
		}
	}
}

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 bytes", 1023: "1023 bytes", 1024: "1 KiB", 1536: "1.5 KiB", 64 << 20: "64 MiB", 1 << 40: "1 TiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}
