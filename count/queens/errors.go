package queens

import "errors"

// ErrInvalid marks errors caused by arguments out of range (n, depth,
// method, kernel), as opposed to failures while counting.
var ErrInvalid = errors.New("invalid argument")

// ErrMemory reports a count that does not fit in the memory allowed.
var ErrMemory = errors.New("not enough memory")

// ErrOverflow is returned when a task's weighted count does not fit in 64
// bits (far beyond any n the counter can reach in practice).
var ErrOverflow = errors.New("weighted count overflows 64 bits")

// Usage marks err as caused by the arguments (errors.Is(err, ErrInvalid)
// holds) while keeping its message.
func Usage(err error) error {
	if err == nil || errors.Is(err, ErrInvalid) {
		return err
	}
	return usageError{err}
}

type usageError struct{ err error }

func (e usageError) Error() string   { return e.err.Error() }
func (e usageError) Unwrap() []error { return []error{e.err, ErrInvalid} }
