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
	"io"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
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

// env is what a subcommand talks to: its output streams.
type env struct {
	stdout, stderr io.Writer
}

func (e *env) errorf(format string, args ...any) {
	fmt.Fprintf(e.stderr, "nqueens: "+format+"\n", args...)
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// The first signal cancels ctx and starts a clean stop; restoring the
	// default handling then lets a second one end the process at once.
	context.AfterFunc(ctx, stop)
	code := run(ctx, &env{stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:])
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
		e.errorf("unknown command %q (run 'nqueens help')", args[0])
		return exitUsage
	}
	return c.run(ctx, e, args[1:])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: nqueens COMMAND [ARGS] [FLAGS]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'nqueens COMMAND -h' for a command's flags.")
}

// parseFlags parses flags that may come before, between or after the
// positional arguments (nqueens count 16 --json), and returns the
// positional ones. A negative number is an argument, not a flag, so that
// "count -3" is told its size is out of range. Errors are printed as one
// line; -h prints the flags.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	out := fs.Output()
	fs.SetOutput(io.Discard)
	defer fs.SetOutput(out)
	var pos []string
	for {
		for len(args) > 0 && isNegativeNumber(args[0]) {
			pos = append(pos, args[0])
			args = args[1:]
		}
		if err := fs.Parse(args); err != nil {
			fs.SetOutput(out)
			if errors.Is(err, flag.ErrHelp) {
				fs.Usage()
			} else {
				fmt.Fprintf(out, "nqueens %s: %v (see 'nqueens %s -h')\n", fs.Name(), err, fs.Name())
			}
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

func isNegativeNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return len(s) > 1 && s[0] == '-' && err == nil
}

// newFlags returns a flag set that reports errors instead of exiting and
// prints its usage to e.stderr.
func newFlags(e *env, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: nqueens %s %s\n\nflags:\n", name, synopsis)
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

// parseN reads a board size argument.
func parseN(s string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("board size %q is not a whole number", s)
	}
	if n < lo || n > hi {
		return 0, fmt.Errorf("board size %d is out of range: choose %d to %d", n, lo, hi)
	}
	return n, nil
}
