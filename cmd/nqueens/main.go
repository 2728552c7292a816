// Command nqueens counts, lists and draws the solutions of the n-queens
// problem. It is a thin layer over package
// github.com/nqcount/nqcount/count/queens: it parses flags, prints results
// on stdout (text, or JSON with --json) and diagnostics on stderr.
//
// Exit status: 0 success, 1 a failed check (a count that disagrees with the
// OEIS, no solution), 2 a usage error, 130 interrupted.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/internal/cli"
)

// Exit codes (see package cli).
const (
	exitOK          = cli.ExitOK
	exitFail        = cli.ExitFail
	exitUsage       = cli.ExitUsage
	exitInterrupted = cli.ExitInterrupted
)

// The names the subcommand files use for the frame shared with the other
// command, in package cli.
type (
	env     = cli.Env
	command = cli.Command
)

var app = cli.App{Name: "nqueens"}

func register(c *command) { app.Register(c) }

func main() { app.Main(os.Args[1:]) }

func run(ctx context.Context, e *env, args []string) int { return app.Run(ctx, e, args) }

func newFlags(e *env, name, synopsis string, about ...string) *flag.FlagSet {
	return cli.NewFlags(e, name, synopsis, about...)
}

func parseFlags(e *env, fs *flag.FlagSet, args []string) ([]string, error) {
	return cli.ParseFlags(e, fs, args)
}

func flagExit(err error) int { return cli.FlagExit(err) }

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
func boardArg(e *env, pos []string, cmd, usage string) (int, bool) {
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
