//go:build race

package logic

// raceEnabled shrinks the samples of the long tests under -race, which
// slows this single-threaded solver tenfold and finds nothing in it; the
// full samples run in the plain test runs (and rateAll's concurrency is
// covered under -race either way).
const raceEnabled = true
