//go:build race

package web_test

// raceEnabled shrinks the hint-after-hint test under -race, which slows
// the single-threaded human-style solver tenfold and finds nothing in it;
// the whole set runs in the plain test run (.ci/run runs it).
const raceEnabled = true
