package main

// Helpers shared by the solutions and solve commands: output format flags,
// the end of output, the --trace printer and --svg files.

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/nqcount/nqcount/count/queens/solutions"
	"github.com/nqcount/nqcount/internal/cli"
)

// showFlags are the output flags of solutions and solve.
type showFlags struct {
	format     string
	ascii      bool
	trace      bool
	traceLimit int
	svg        string
}

func (o *showFlags) add(fs *flag.FlagSet, defaultFormat string) {
	fs.StringVar(&o.format, "format", defaultFormat, "output `format`: cols, coords, board or json")
	fs.BoolVar(&o.ascii, "ascii", false, "draw boards with Q and . instead of ♛ and ·")
	fs.BoolVar(&o.trace, "trace", false, "show the search step by step on stderr (stdout is unchanged)")
	fs.IntVar(&o.traceLimit, "trace-limit", 200, "at most this many trace `lines` (0: no limit)")
	fs.StringVar(&o.svg, "svg", "", "also draw the (first) solution as an SVG chessboard in `FILE`")
}

// check validates the flags for boards of size n; it returns the format
// or an error for a usage message.
func (o *showFlags) check(n int) (solutions.Format, error) {
	f, err := solutions.ParseFormat(o.format)
	if err != nil {
		return "", err
	}
	if f == solutions.Board && n > solutions.MaxBoardN {
		return "", fmt.Errorf("--format board draws boards up to %d wide; use cols, coords or json for n = %d", solutions.MaxBoardN, n)
	}
	if o.svg != "" && n > solutions.MaxBoardN {
		return "", fmt.Errorf("--svg draws boards up to %d wide, not n = %d", solutions.MaxBoardN, n)
	}
	if o.traceLimit < 0 {
		return "", fmt.Errorf("--trace-limit must be 0 (no limit) or more, not %d", o.traceLimit)
	}
	return f, nil
}

// outputExit is the exit code of a command whose writing to stdout
// failed with err: cli.App.Run reports the error (or, for a broken pipe,
// ends quietly), so the command only stops. Any other error is reported
// here.
func outputExit(e *cli.Env, err error) int {
	if e.OutputErr() != nil {
		return cli.ExitOK
	}
	e.Errorf("%v", err)
	return cli.ExitFail
}

// writeSVG draws cols into the file path.
func writeSVG(path string, cols []int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = solutions.WriteSVG(f, cols)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// tracer prints trace events on w up to a number of lines.
type tracer struct {
	w     *bufio.Writer
	limit int // 0: none
	lines int
	cut   bool
}

func newTracer(w io.Writer, limit int) *tracer {
	return &tracer{w: bufio.NewWriter(w), limit: limit}
}

func (t *tracer) line(s string) {
	if t.limit > 0 && t.lines >= t.limit {
		t.cut = true
		return
	}
	t.lines++
	t.w.WriteString(s)
	t.w.WriteByte('\n')
}

// flush writes pending lines; call it before stdout gets output so that
// a terminal shows both streams in order.
func (t *tracer) flush() { t.w.Flush() }

// close writes the note about a cut trace, if any, and flushes.
func (t *tracer) close() {
	if t.cut {
		fmt.Fprintf(t.w, "… trace cut after %d %s (raise --trace-limit, or 0 for no limit)\n", t.limit, cli.Plural(t.limit, "line", "lines"))
	}
	t.w.Flush()
}
