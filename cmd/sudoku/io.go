package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/nqcount/nqcount/count/sudoku"
)

// common holds the flags every puzzle command takes.
type common struct {
	format  string
	workers int
}

func (c *common) add(fs *flag.FlagSet) {
	fs.StringVar(&c.format, "format", "line", "output format: line, grid or json (one object per line)")
	fs.IntVar(&c.workers, "workers", 0, "goroutines to use (0: every core)")
}

func (c *common) check(e *env) bool {
	switch c.format {
	case "line", "grid", "json":
	default:
		e.Errorf("unknown --format %q: choose line, grid or json", c.format)
		return false
	}
	if c.workers < 0 {
		e.Errorf("--workers %d: want 0 (every core) or more", c.workers)
		return false
	}
	return true
}

// input opens the puzzles named by the positional arguments: none or "-"
// is standard input, an argument of 81 cells is a puzzle itself, anything
// else a file. name is what messages call it.
func input(e *env, args []string) (r io.Reader, name string, closeFn func(), err error) {
	if len(args) > 1 {
		return nil, "", nil, fmt.Errorf("one input at a time, got %d: %s", len(args), strings.Join(args, " "))
	}
	if len(args) == 0 || args[0] == "-" {
		return e.Stdin, "stdin", func() {}, nil
	}
	a := args[0]
	if _, statErr := os.Stat(a); statErr != nil && len(a) >= 17 && strings.Trim(a, ".0123456789") == "" {
		return strings.NewReader(a), "argument", func() {}, nil
	}
	f, err := os.Open(a)
	if err != nil {
		return nil, "", nil, err
	}
	return f, a, func() { f.Close() }, nil
}

// out writes results in the chosen format, buffered.
type out struct {
	w      *bufio.Writer
	format string
}

func newOut(e *env, format string) *out {
	return &out{w: bufio.NewWriterSize(e.Stdout, 64*1024), format: format}
}

// record writes one result: grid is the grid to show in line and grid
// formats, word the status after it; obj the JSON object.
func (o *out) record(grid sudoku.Grid, comment, word string, obj any) {
	switch o.format {
	case "json":
		b, _ := json.Marshal(obj)
		o.w.Write(b)
		o.w.WriteByte('\n')
	case "grid":
		fmt.Fprintf(o.w, "# %s\n%s\n", comment, grid.GridString())
	default:
		if word == "" {
			fmt.Fprintf(o.w, "%s\n", grid)
		} else {
			fmt.Fprintf(o.w, "%s %s\n", grid, word)
		}
	}
}

func (o *out) flush() error { return o.w.Flush() }

// note reports the clue count of puzzles that cannot be unique.
func noteClues(e *env, name string, line int, g sudoku.Grid) {
	if n := g.Clues(); n <= 16 {
		e.Errorf("%s:%d: note: %d clues; a puzzle needs at least 17 to have a unique solution", name, line, n)
	}
}

// badItem reports a puzzle that could not be read, as FILE:LINE: message.
func badItem(e *env, name string, it sudoku.Item) {
	msg := it.Err.Error()
	if pe, ok := it.Err.(*sudoku.ParseError); ok {
		msg = pe.Msg
	}
	e.Errorf("%s:%d: %s (skipped)", name, it.Line, msg)
}

func itoa(n int) string { return strconv.Itoa(n) }

// session is what solve, count and rate share: their common flags, the
// input, the output and a reader of its puzzles.
type session struct {
	e       *env
	c       common
	name    string // the input's name in messages
	o       *out
	rd      *sudoku.Reader
	closeIn func()
	failed  bool // a puzzle was bad or could not be handled: exit 1 at the end
}

// openSession parses the flags of subcommand cmd (own adds the command's
// own flags), opens the input the arguments name and the output. When it
// returns a nil session the command ends with the code returned.
func openSession(e *env, cmd string, args []string, own func(fs *flag.FlagSet)) (*session, int) {
	fs := newFlags(e, cmd, "[FILE|-|PUZZLE]")
	s := &session{e: e}
	s.c.add(fs)
	if own != nil {
		own(fs)
	}
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return nil, flagExit(err)
	}
	if !s.c.check(e) {
		return nil, exitUsage
	}
	in, name, closeIn, err := input(e, pos)
	if err != nil {
		e.Errorf("%v", err)
		return nil, exitUsage
	}
	s.name, s.closeIn = name, closeIn
	s.o = newOut(e, s.c.format)
	s.rd = sudoku.NewReader(in)
	return s, exitOK
}

// next returns the next well-formed puzzle; bad ones are reported with
// their line and skipped.
func (s *session) next() (sudoku.Item, bool) {
	for {
		it, ok := s.rd.Next()
		if !ok || it.Err == nil {
			return it, ok
		}
		s.o.flush()
		badItem(s.e, s.name, it)
		s.failed = true
	}
}

// finish reports an error reading the input and returns the exit code.
func (s *session) finish() int {
	if err := s.rd.Err(); err != nil {
		s.o.flush()
		s.e.Errorf("%s: %v", s.name, err)
		return exitFail
	}
	if s.failed {
		return exitFail
	}
	return exitOK
}

// close flushes the output and closes the input.
func (s *session) close() {
	s.o.flush()
	s.closeIn()
}
