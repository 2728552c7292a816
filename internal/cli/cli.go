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
	"io/fs"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"
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
	fmt.Fprintf(e.Stderr, "%s: %s\n", e.Prog, ClipWords(fmt.Sprintf(format, args...)))
}

// maxWord is the longest word (a run of characters without a space) a
// message quotes whole.
const maxWord = 512

// ClipWords shortens every word of msg longer than 512 bytes to its first
// 80 bytes and its length: a message quotes what the user gave (an
// argument, a number read from a file), which may be megabytes long, and
// stays a line a person can read.
func ClipWords(msg string) string {
	if len(msg) <= maxWord {
		return msg
	}
	var b strings.Builder
	for len(msg) > 0 {
		i := strings.IndexAny(msg, " \t\n")
		if i < 0 {
			i = len(msg)
		}
		word := msg[:i]
		if len(word) > maxWord {
			cut := 80
			for cut > 0 && !utf8.RuneStart(word[cut]) {
				cut--
			}
			fmt.Fprintf(&b, "%s…(%d bytes)", word[:cut], len(word))
		} else {
			b.WriteString(word)
		}
		if i < len(msg) {
			b.WriteByte(msg[i])
			i++
		}
		msg = msg[i:]
	}
	return b.String()
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

// Main runs the program on args (os.Args[1:], or those of another
// program that runs this one's command) and exits. The first SIGINT,
// SIGTERM or SIGHUP (the terminal closed, the ssh session dropped) cancels
// the context, so the running command can stop cleanly; the
// default handling is then restored, so a second one ends the process at
// once. SIGPIPE is caught, so that writing to a pipe whose reader has gone
// away fails with EPIPE instead of killing the process (see Run).
func (a *App) Main(args []string) {
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	context.AfterFunc(ctx, stop)
	code := a.Run(ctx, &Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, args)
	stop()
	os.Exit(code)
}

// Run runs the subcommand named by args[0] and returns its exit code.
// "-h", "--help" and "help" print the usage on Stdout; "help COMMAND" is
// "COMMAND -h"; "--version" prints the version (see VersionLine).
//
// Output that cannot be written is an error: Run gives the command a
// Stdout that records the first write error (see Env.OutputErr) and, when
// the command returns, reports it as one line on Stderr and turns a
// success into ExitFail. A broken pipe (EPIPE: the reader, such as head,
// has gone away) is the one exception: it ends the command quietly with
// the status the command returns for the work it did. Commands stop
// writing once OutputErr is set, and never report write errors
// themselves.
func (a *App) Run(ctx context.Context, e *Env, args []string) int {
	ce := *e
	if ce.Prog == "" {
		ce.Prog = a.Name
	}
	out := &Output{w: ce.Stdout}
	ce.Stdout = out
	return finish(&ce, out, a.run(ctx, &ce, args))
}

func (a *App) run(ctx context.Context, e *Env, args []string) int {
	if len(args) == 0 {
		a.usage(e.Stderr)
		return ExitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		if len(args) > 1 && args[0] == "help" {
			if c, ok := a.commands[args[1]]; ok {
				return c.Run(ctx, e, []string{"-h"})
			}
			e.Errorf("help: unknown command %q (run '%s help')", args[1], a.Name)
			return ExitUsage
		}
		a.usage(e.Stdout)
		return ExitOK
	case "-version", "--version", "version":
		fmt.Fprintln(e.Stdout, VersionLine(a.Name))
		return ExitOK
	}
	c, ok := a.commands[args[0]]
	if !ok {
		e.Errorf("unknown command %q (run '%s help')", args[0], a.Name)
		return ExitUsage
	}
	return c.Run(ctx, e, args[1:])
}

// finish reports an output error recorded while the command ran.
func finish(e *Env, out *Output, code int) int {
	err := out.Err()
	if err == nil || errors.Is(err, syscall.EPIPE) {
		return code
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // "write /dev/stdout: " says nothing the line does not
	}
	e.Errorf("cannot write the output: %v", err)
	if code == ExitOK {
		return ExitFail
	}
	return code
}

func (a *App) usage(w io.Writer) {
	fmt.Fprintf(w, "usage: %s COMMAND [ARGS] [FLAGS]\n\ncommands:\n", a.Name)
	names := make([]string, 0, len(a.commands))
	for n := range a.commands {
		names = append(names, n)
	}
	sort.Strings(names)
	width := 10 // the names' column: the longest name's
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s %s\n", width, n, a.commands[n].Summary)
	}
	fmt.Fprintf(w, "\nRun '%s COMMAND -h' for a command's flags, '%s --version' for the version.\n", a.Name, a.Name)
}

// NewFlags returns a flag set for subcommand name that reports errors
// instead of exiting. -h prints, on Stdout, the synopsis, the about
// paragraphs (say there what the arguments are and their range) and the
// flags.
func NewFlags(e *Env, name, synopsis string, about ...string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.Stdout)
	fs.Usage = func() {
		w := fs.Output()
		fmt.Fprintf(w, "usage: %s %s %s\n", e.Prog, name, synopsis)
		for _, p := range about {
			fmt.Fprintf(w, "\n%s\n", p)
		}
		fmt.Fprintf(w, "\nflags:\n")
		fs.PrintDefaults()
	}
	return fs
}

// ParseFlags parses flags that may come before, between or after the
// positional arguments (nqueens count 16 --json), and returns the
// positional ones. A negative number is an argument, not a flag, so that
// "count -3" is told its size is out of range. An error is printed on
// Stderr as one line; -h prints the usage on Stdout.
func ParseFlags(e *Env, fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	defer fs.SetOutput(e.Stdout)
	var pos []string
	for {
		for len(args) > 0 && isNegativeNumber(args[0]) {
			pos = append(pos, args[0])
			args = args[1:]
		}
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				fs.SetOutput(e.Stdout)
				fs.Usage()
			} else {
				fmt.Fprintf(e.Stderr, "%s %s: %s (see '%s %s -h')\n", e.Prog, fs.Name(), ClipWords(err.Error()), e.Prog, fs.Name())
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
