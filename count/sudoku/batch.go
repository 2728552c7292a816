package sudoku

import "runtime"

// Workers returns the number of goroutines Count (and package batch) use
// when asked for n: GOMAXPROCS (every core) for n <= 0, and never more than
// GOMAXPROCS. Go runs at most GOMAXPROCS goroutines at a time, so more
// workers could not go faster; they would only cost memory (each holds a
// solver), which a mistyped --workers 10000000 would exhaust.
func Workers(n int) int {
	p := runtime.GOMAXPROCS(0)
	if n <= 0 || n > p {
		return p
	}
	return n
}
