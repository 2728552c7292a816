// Package readfile reads a whole input file in bounded memory and time:
// the reader of every file format the commands take back (shard result
// files, exports) goes through it, so that an input that is merely huge, an
// input that never ends (/dev/zero) and an input that never comes (a FIFO
// nobody writes to, a pipe held open) each end in an error, and Ctrl-C ends
// the wait.
//
// A regular file larger than the limit is refused from its size, before
// anything is read. Anything else that can be read (a FIFO, a pipe given as
// /dev/stdin or by a shell's process substitution, a device) is read up to
// the limit and refused beyond it. A directory is refused. A FIFO is opened
// without blocking, so that cancelling the context ends the wait for a
// writer too.
//
// Open is for the readers that stream their input instead (the Sudoku
// commands' puzzle files): a FIFO's writer may come later, and Ctrl-C
// still ends the wait.
package readfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrTooLarge is wrapped by Read's error for input longer than the limit.
var ErrTooLarge = errors.New("too large")

// Read returns the contents of the file at path, at most limit bytes (see
// the package comment). what names the kind of file in messages ("a shard
// result file"). When ctx is done Read stops and returns ctx's error.
func Read(ctx context.Context, path string, limit int64, what string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not %s", path, what)
	}
	if fi.Mode().IsRegular() && fi.Size() > limit {
		return nil, tooLarge(path, fi.Size(), limit, what)
	}
	flag := os.O_RDONLY
	if fi.Mode()&fs.ModeNamedPipe != 0 {
		// Opening a FIFO blocks until a writer opens it, in a system call
		// that no signal interrupts; non-blocking, the reads wait in the
		// runtime's poller instead, where closing the file ends them.
		flag |= syscall.O_NONBLOCK
	}
	f, err := os.OpenFile(path, flag, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	stop := context.AfterFunc(ctx, func() { f.Close() })
	defer stop()
	size := int64(512)
	if fi.Mode().IsRegular() {
		size += fi.Size()
	}
	b, err := readAll(ctx, f, limit, size)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if errors.Is(err, ErrTooLarge) {
		return nil, tooLarge(path, -1, limit, what)
	}
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Open opens the file at path for reading as it comes, for a reader that
// streams it rather than reading it whole. A FIFO's open waits, in a
// system call no signal interrupts, until a writer opens it (unlike Read,
// Open must not see a FIFO without a writer as empty: its writer may come
// later): it is made in a goroutine of its own and given up when ctx is
// done, returning ctx's error; the goroutine closes the file if a writer
// comes later.
func Open(ctx context.Context, path string) (*os.File, error) {
	if fi, err := os.Stat(path); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		if err == nil && fi.Mode().IsRegular() {
			return openRegular(path)
		}
		return os.Open(path)
	}
	type opened struct {
		f   *os.File
		err error
	}
	done := make(chan opened) // unbuffered: taken only while waited for
	abandoned := make(chan struct{})
	go func() {
		f, err := os.Open(path)
		select {
		case done <- opened{f, err}:
		case <-abandoned:
			if f != nil {
				f.Close()
			}
		}
	}()
	select {
	case o := <-done:
		return o.f, o.err
	case <-ctx.Done():
		close(abandoned)
		return nil, ctx.Err()
	}
}

// readAll reads r to its end, failing with ErrTooLarge past limit bytes and
// stopping when ctx is done; size is the first buffer's size.
func readAll(ctx context.Context, r io.Reader, limit, size int64) ([]byte, error) {
	b := make([]byte, 0, min(size, limit+1))
	for {
		if int64(len(b)) > limit {
			return nil, ErrTooLarge
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			// Double (append grows large slices by a quarter, copying
			// each time), never past what the limit needs.
			nb := make([]byte, len(b), min(max(2*int64(cap(b)), 4096), limit+1))
			copy(nb, b)
			b = nb
		}
		room := min(int64(cap(b)-len(b)), limit+1-int64(len(b)))
		n, err := r.Read(b[len(b) : int64(len(b))+room])
		b = b[:len(b)+n]
		if err == io.EOF {
			if int64(len(b)) > limit {
				return nil, ErrTooLarge
			}
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

func tooLarge(path string, size, limit int64, what string) error {
	if size >= 0 {
		return &tooLargeError{fmt.Sprintf("%s is %s, more than %s can be (%s)", path, Bytes(size), what, Bytes(limit))}
	}
	return &tooLargeError{fmt.Sprintf("%s holds more than %s can (%s)", path, what, Bytes(limit))}
}

// tooLargeError is an error that wraps ErrTooLarge without saying so.
type tooLargeError struct{ msg string }

func (e *tooLargeError) Error() string { return e.msg }
func (e *tooLargeError) Unwrap() error { return ErrTooLarge }

// Bytes writes a size for people: "512 bytes", "64 MiB", "1.5 GiB".
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	v, suffix := float64(n), ""
	for _, s := range []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"} {
		if v < unit {
			break
		}
		v, suffix = v/unit, s
	}
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), suffix)
	}
	return fmt.Sprintf("%.1f %s", v, suffix)
}
