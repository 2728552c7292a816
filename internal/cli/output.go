package cli

import (
	"io"
	"sync"
)

// Output is the Stdout that App.Run gives a command: it records the first
// write error, and every later write fails with that error at once, so
// that a command (or a bufio.Writer over it) stops producing output nobody
// can read. It is safe for concurrent use.
type Output struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// Write writes b, or fails with the first error seen.
func (o *Output) Write(b []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(b)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	o.err = err
	return n, err
}

// Err returns the first write error, nil if there was none.
func (o *Output) Err() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// OutputErr returns the first error writing Stdout, nil if none: a command
// that writes a lot checks it to stop early. App.Run reports the error
// when the command returns, so the command need not (see App.Run).
// OutputErr is nil when Stdout is not the one App.Run installed.
func (e *Env) OutputErr() error {
	if o, ok := e.Stdout.(*Output); ok {
		return o.Err()
	}
	return nil
}
