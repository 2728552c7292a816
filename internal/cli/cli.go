// Package cli is the small command-line frame shared by cmd/nqueens and
// cmd/sudoku: subcommands that register themselves, flags that may follow
// the arguments, one-line errors and the exit codes both tools document.
package cli

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
	"syscall"
)

// Exit codes of both commands.
const (
	ExitOK          = 0   // success
	ExitFail        = 1   // a failed check: a wrong count, no solution, a bad input line
	ExitUsage       = 2   // a usage error
	ExitInterrupted = 130 // stopped by SIGINT or SIGTERM
)

// Env is what a subcommand talks to: its program name and streams.
type Env struct {
	Prog   string // the program's name, for messages
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Errorf prints one diagnostic line on Stderr, prefixed by the program
// name. It is a printf wrapper that go vet checks: the format is passed
// to fmt unchanged (building it by concatenation would hide every call
// from vet's printf check).
func (e *Env) Errorf(format string, args ...any) {
	fmt.Fprintf(e.Stderr, "%s: %s\n", e.Prog, fmt.Sprintf(format, args...))
}

// Command is one subcommand.
type Command struct {
	Name    string
	Summary string
	Run     func(ctx context.Context, e *Env, args []string) int
}

// App is a program made of subcommands.
type App struct {
	Name     string
	commands map[string]*Command
}

// Register adds a subcommand; each one calls it from its file's init.
func (a *App) Register(c *Command) {
	if a.commands == nil {
		a.commands = map[string]*Command{}
	}
	a.commands[c.Name] = c
}

// Main runs the program on os.Args and exits. The first SIGINT or SIGTERM
// cancels the context, so the running command can stop cleanly; the
// default handling is then restored, so a second one ends the process at
// once.
func (a *App) Main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	context.AfterFunc(ctx, stop)
	code := a.Run(ctx, &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, os.Args[1:])
	stop()
	os.Exit(code)
}

// Run runs the subcommand named by args[0] and returns its exit code.
func (a *App) Run(ctx context.Context, e *Env, args []string) int {
	if e.Prog == "" {
		e.Prog = a.Name
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		a.usage(e.Stderr)
		if len(args) == 0 {
			return ExitUsage
		}
		return ExitOK
	}
	c, ok := a.commands[args[0]]
	if !ok {
		e.Errorf("unknown command %q (run '%s help')", args[0], a.Name)
		return ExitUsage
	}
	return c.Run(ctx, e, args[1:])
}

func (a *App) usage(w io.Writer) {
	fmt.Fprintf(w, "usage: %s COMMAND [ARGS] [FLAGS]\n\ncommands:\n", a.Name)
	names := make([]string, 0, len(a.commands))
	for n := range a.commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, a.commands[n].Summary)
	}
	fmt.Fprintf(w, "\nRun '%s COMMAND -h' for a command's flags.\n", a.Name)
}

// NewFlags returns a flag set for subcommand name that reports errors
// instead of exiting; -h prints its flags on e.Stderr.
func NewFlags(e *Env, name, synopsis string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s %s %s\n\nflags:\n", e.Prog, name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// ParseFlags parses flags that may come before, between or after the
// positional arguments (nqueens count 16 --json), and returns the
// positional ones. A negative number is an argument, not a flag, so that
// "count -3" is told its size is out of range. An error is printed as one
// line; -h prints the flags.
func ParseFlags(e *Env, fs *flag.FlagSet, args []string) ([]string, error) {
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
				fmt.Fprintf(out, "%s %s: %v (see '%s %s -h')\n", e.Prog, fs.Name(), err, e.Prog, fs.Name())
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

// FlagExit turns a flag parsing error into an exit code: -h is success.
func FlagExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	return ExitUsage
}
