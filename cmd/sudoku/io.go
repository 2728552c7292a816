package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/readfile"
)

// common holds the flags every puzzle command takes.
type common struct {
	format  string
	workers int
}

func (c *common) add(fs *flag.FlagSet) {
	fs.StringVar(&c.format, "format", "line", "output format: line, grid or json (one object per line)")
	fs.IntVar(&c.workers, "workers", 0, fmt.Sprintf("goroutines to use, 0 (every core) to %d", cli.MaxWorkers))
}

func (c *common) check(e *cli.Env) bool {
	switch c.format {
	case "line", "grid", "json":
	default:
		e.Errorf("unknown --format %q: choose line, grid or json", c.format)
		return false
	}
	if c.workers < 0 || c.workers > cli.MaxWorkers {
		e.Errorf("--workers %d is out of range: choose 0 (every core) to %d", c.workers, cli.MaxWorkers)
		return false
	}
	return true
}

// input opens the puzzles named by the positional arguments: none or "-"
// is standard input, a file that exists is read, and an argument that
// looks like a puzzle (9 cells or more, no '/') is the puzzle itself, so
// that a bad puzzle is reported as one, not as a missing file. name is
// what messages call it. Opening a FIFO waits for its writer until ctx is
// done.
func input(ctx context.Context, e *cli.Env, args []string) (r io.Reader, name string, closeFn func(), err error) {
	if len(args) > 1 {
		return nil, "", nil, fmt.Errorf("one input at a time, got %d: %s", len(args), strings.Join(args, " "))
	}
	if len(args) == 0 || args[0] == "-" {
		return e.Stdin, "stdin", func() {}, nil
	}
	a := args[0]
	f, err := readfile.Open(ctx, a)
	if err == nil {
		return f, a, func() { f.Close() }, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		cells := 0
		for _, c := range a {
			if c == '.' || c >= '0' && c <= '9' {
				cells++
			}
		}
		if cells >= 9 && !strings.ContainsRune(a, '/') {
			return strings.NewReader(a), "argument", func() {}, nil
		}
		_, perr := sudoku.Parse(a)
		return nil, "", nil, fmt.Errorf("%q is neither a file (no such file) nor a puzzle (%v)", a, perr)
	}
	return nil, "", nil, err
}

// out writes results in the chosen format, buffered. Writing a line
// allocates nothing.
type out struct {
	e      *cli.Env
	w      *bufio.Writer
	enc    *json.Encoder
	format string
}

func newOut(e *cli.Env, format string) *out {
	w := bufio.NewWriterSize(e.Stdout, 64*1024)
	return &out{e: e, w: w, enc: json.NewEncoder(w), format: format}
}

// line writes a grid on one line, followed by a word if there is one
// (--format line).
func (o *out) line(g sudoku.Grid, word string) {
	b := g.AppendText(o.w.AvailableBuffer())
	if word != "" {
		b = append(append(b, ' '), word...)
	}
	o.w.Write(append(b, '\n'))
}

// grid writes a comment line and the grid in 9 lines (--format grid).
func (o *out) grid(g sudoku.Grid, comment string) {
	fmt.Fprintf(o.w, "# %s\n%s\n", comment, g.GridString())
}

// object writes v as one line of JSON (--format json).
func (o *out) object(v any) {
	o.enc.Encode(v)
}

// record writes one result in the chosen format: v as JSON, the grid
// under a comment, or the grid on one line followed by a word.
func (o *out) record(g sudoku.Grid, comment, word string, v any) {
	switch o.format {
	case "json":
		o.object(v)
	case "grid":
		o.grid(g, comment)
	default:
		o.line(g, word)
	}
}

// failed reports that the output can no longer be written: the command
// stops (cli reports the error, or ends quietly on a broken pipe).
func (o *out) failed() bool { return o.e.OutputErr() != nil }

func (o *out) flush() error { return o.w.Flush() }

// noteClues reports the clue count of puzzles that cannot be unique,
// after the results before it (stdout is flushed first, so that the two
// streams keep their order on a terminal or in one file).
func noteClues(e *cli.Env, o *out, name string, line int, g sudoku.Grid) {
	if n := g.Clues(); n <= 16 {
		o.flush()
		e.Errorf("%s:%d: note: %d %s; a puzzle needs at least 17 to have a unique solution", name, line, n, cli.Plural(n, "clue", "clues"))
	}
}

// badItem reports a puzzle that could not be read, as FILE:LINE: message.
func badItem(e *cli.Env, name string, it sudoku.Item) {
	msg := it.Err.Error()
	if pe, ok := it.Err.(*sudoku.ParseError); ok {
		msg = pe.Msg
	}
	e.Errorf("%s:%d: %s (skipped)", name, it.Line, msg)
}

func itoa(n int) string { return strconv.Itoa(n) }

// session is what solve, count, rate and explain share: their common
// flags, the input and the output.
type session struct {
	e       *cli.Env
	c       common
	name    string // the input's name in messages
	o       *out
	in      io.Reader
	closeIn func()
	failed  bool // a puzzle was bad or could not be handled: exit 1 at the end
	// interruptSaid: the command said what the interrupt stopped (count's
	// partial count), so finish need not.
	interruptSaid bool
}

// openSession parses the flags of subcommand cmd (own adds the command's
// own flags), opens the input the arguments name and the output. When it
// returns a nil session the command ends with the code returned.
func openSession(ctx context.Context, e *cli.Env, cmd, about string, args []string, own func(fs *flag.FlagSet)) (*session, int) {
	fs := cli.NewFlags(e, cmd, "[FILE|-|PUZZLE] [flags]", about, inputHelp)
	s := &session{e: e}
	s.c.add(fs)
	if own != nil {
		own(fs)
	}
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return nil, cli.FlagExit(err)
	}
	if !s.c.check(e) {
		return nil, cli.ExitUsage
	}
	in, name, closeIn, err := input(ctx, e, pos)
	if ctx.Err() != nil && err == ctx.Err() {
		e.Errorf("interrupted")
		return nil, cli.ExitInterrupted
	}
	if err != nil {
		e.Errorf("%v", err)
		return nil, cli.ExitUsage
	}
	s.name, s.in, s.closeIn = name, in, closeIn
	s.o = newOut(e, s.c.format)
	return s, cli.ExitOK
}

// inputHelp is the part of -h about the input that solve, count and rate
// share.
const inputHelp = `Reads FILE, standard input (none or '-'), or the puzzle given as the argument:
one puzzle a line (81 cells, '.' or '0' empty, anything after ':' or a space
ignored), the 9-line grid (box borders |-+ allowed, a blank line between
grids), or JSON lines with a "puzzle" field; '#' starts a comment. A bad puzzle
is reported with its line on stderr and skipped; the exit status is then 1.`

// errOutput stops a batch whose output can no longer be written.
var errOutput = errors.New("output failed")

// written is what an emit function returns after writing a record:
// errOutput once the output has failed, so that the batch stops.
func (s *session) written() error {
	if s.o.failed() {
		return errOutput
	}
	return nil
}

// bad reports a puzzle that could not be read and marks the run failed.
func (s *session) bad(line int, err error) {
	s.o.flush()
	badItem(s.e, s.name, sudoku.Item{Line: line, Err: err})
	s.failed = true
}

// finish turns the error that ended a batch into the exit code, with its
// message: the output's (cli reports it, or a broken pipe ends quietly),
// an interrupt, an input that cannot be read (a read error, binary data).
func (s *session) finish(err error) int {
	s.o.flush()
	switch {
	case errors.Is(err, errOutput) || s.o.failed():
		return cli.ExitOK
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		if !s.interruptSaid {
			s.e.Errorf("interrupted")
		}
		return cli.ExitInterrupted
	case err != nil:
		s.e.Errorf("%s: %v", s.name, err)
		return cli.ExitFail
	case s.failed:
		return cli.ExitFail
	}
	return cli.ExitOK
}

// close flushes the output and closes the input.
func (s *session) close() {
	s.o.flush()
	s.closeIn()
}
