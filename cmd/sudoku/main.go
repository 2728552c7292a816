// Command sudoku solves, counts, rates and generates sudoku puzzles. It is
// a thin layer over package github.com/nqcount/nqcount/count/sudoku: it
// parses flags, prints results on stdout (--format line, grid or json) and
// diagnostics on stderr, one line each.
//
// Exit status: 0 success, 1 a failed check (a bad puzzle in the input, a
// puzzle without a solution, or one that cannot be rated), 2 a usage
// error, 130 interrupted.
package main

import (
	"context"
	"flag"
	"os"

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

var app = cli.App{Name: "sudoku"}

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
