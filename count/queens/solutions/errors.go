package solutions

import "errors"

// ErrNoSolution says that the board has no solution: n = 2 and n = 3.
var ErrNoSolution = errors.New("no solution exists")

// ErrNodeLimit says that a search gave up after its node limit.
var ErrNodeLimit = errors.New("search node limit reached")

// ErrStopped says that an enumeration was stopped before its end.
var ErrStopped = errors.New("enumeration stopped")
