// Command nqueens counts, lists and draws the solutions of the n-queens
// problem. It is a thin layer over package
// github.com/nqcount/nqcount/count/queens: it parses flags, prints results
// on stdout (text, or JSON with --json) and diagnostics on stderr.
//
// Exit status: 0 success, 1 a failed check (a count that disagrees with the
// OEIS, no solution), 2 a usage error, 130 interrupted.
package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/internal/cli"
)

var app = cli.App{Name: "nqueens"}

func main() { app.Main(os.Args[1:]) }

// parseN reads a board size argument.
func parseN(s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("board size %s is out of range: choose %d to %d", strings.TrimSpace(s), lo, hi)
	}
	if err != nil {
		return 0, fmt.Errorf("board size %q is not a whole number", s)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("board size %d is out of range: choose %d to %d", n, lo, hi)
	}
	return n, nil
}

// boardArg reads the one board size (1 to queens.MaxN) that command cmd
// takes, reporting a usage error (with usage, its synopsis) if it is not
// there alone or is not a size.
func boardArg(e *cli.Env, pos []string, cmd, usage string) (int, bool) {
	if len(pos) != 1 {
		e.Errorf("%s takes one board size, got %d arguments (usage: %s)", cmd, len(pos), usage)
		return 0, false
	}
	n, err := parseN(pos[0], 1, queens.MaxN)
	if err != nil {
		e.Errorf("%v", err)
		return 0, false
	}
	return n, true
}
