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
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// Exit codes.
const (
	exitOK          = 0
	exitFail        = 1
	exitUsage       = 2
	exitInterrupted = 130
)

// command is one subcommand. Each lives in its own file and registers
// itself from init, so adding one touches nothing else.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *env, args []string) int
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// env is what a subcommand talks to: its input and output streams.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func (e *env) errorf(format string, args ...any) {
	fmt.Fprintf(e.stderr, "sudoku: "+format+"\n", args...)
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:])
	stop()
	os.Exit(code)
}

func run(ctx context.Context, e *env, args []string) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(e.stderr)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	c, ok := commands[args[0]]
	if !ok {
		e.errorf("unknown command %q (run 'sudoku help')", args[0])
		return exitUsage
	}
	return c.run(ctx, e, args[1:])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: sudoku COMMAND [ARGS] [FLAGS]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'sudoku COMMAND -h' for a command's flags.")
}

// parseFlags parses flags that may come before, between or after the
// positional arguments, and returns the positional ones. Errors are
// already printed by the flag set.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// newFlags returns a flag set that reports errors instead of exiting and
// prints its usage to e.stderr.
func newFlags(e *env, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: sudoku %s %s\n\nflags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// flagExit turns a flag parsing error into an exit code: -h is success.
func flagExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}
