// Package hostile is the harness that runs every subcommand of both
// commands (nqueens, sudoku) and every endpoint of the web API against
// input a hostile or careless user would give: huge and negative numbers
// in every flag, argument and numeric field of every file format the
// commands read, input that never ends or never comes, binary junk, huge
// files, special files as inputs and outputs, and edited or truncated
// copies of the commands' own outputs (shard result files, exports,
// journals, saved games).
//
// Each case runs the real binary in its own process, under an
// address-space limit (RLIMIT_AS) and a time limit, and the harness
// asserts what the project promises of bad input (docs/architecture.md):
// an exit status of 0, 1, 2 or 130; every line on stderr naming the
// program, and one line for an error; no Go stack trace; a peak resident
// memory within the limit; SIGINT, SIGTERM and SIGHUP answered within a
// second; no wrong answer where the case can tell. A case still running at its time
// limit is sent SIGINT (or SIGTERM), so every case is also a test that the
// command can be stopped.
//
// The table of cases is in the tests (hostile_test.go): a target per
// subcommand and endpoint, a format per file format we write, and classes
// that turn them into cases. A new subcommand, endpoint or format joins
// by adding a line there; a test fails when a command listed in a usage,
// or an endpoint listed in docs/web.md, has no target.
//
// The full table runs when NQCOUNT_HOSTILE=1 (.ci/run sets it); without
// it the quick cases run (the defects the harness was built for).
// NQCOUNT_HOSTILE_TABLE=FILE also writes the table of classes × commands
// with the count of cases to FILE.
package hostile
