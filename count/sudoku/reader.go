package sudoku

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// Item is one puzzle read from a file, or the error that stopped it from
// being read.
type Item struct {
	// Line is the 1-based line where the puzzle starts.
	Line int
	// Grid is the puzzle (valid when Err is nil).
	Grid Grid
	// Err is a *ParseError for a bad puzzle; the Reader goes on after it.
	Err error
}

// MaxLine is the longest line a Reader reads, in bytes. A longer line is
// reported as a bad puzzle as soon as it passes this length (it is never
// held in memory), and the Reader goes on after its end.
const MaxLine = 1 << 20

// ErrBinary ends reading at the first NUL byte: the input is not text
// (/dev/zero, an executable, a compressed file, UTF-16 text).
var ErrBinary = errors.New("binary data (a NUL byte), not text: not a file of puzzles")

// Reader reads puzzles from a text stream, one at a time. It understands:
//
//   - one puzzle per line, 81 cells ('.' or '0' empty), optionally followed
//     by ':' or white space and anything else (the answers files'
//     "puzzle:count:solution" and this tool's "puzzle status" lines); the
//     cells may be separated by spaces or box borders '|', '-' and '+';
//   - the 9-line grid layout: 9 lines of 9 cells, with optional spaces and
//     '|', '-', '+' box borders; lines of borders only are skipped and a
//     blank line ends a grid;
//   - JSON lines (starting with '{') with a "puzzle" field, as written by
//     this tool's --format json;
//   - comment lines starting with '#', and blank lines;
//   - a UTF-8 byte order mark at the start, and CR LF line ends.
//
// A bad line is reported as an Item with its line number and Err set, and
// reading goes on; so is a line longer than MaxLine. A NUL byte ends the
// input with ErrBinary (see Err). Reading allocates nothing per puzzle,
// except for bad ones, and holds at most about MaxLine bytes, whatever the
// input.
type Reader struct {
	br   *bufio.Reader
	line int   // lines read so far
	err  error // the read error that ended the input
	long []byte
	// skipping: the last line returned was too long and its rest is
	// still to be read past.
	skipping bool

	rows    []byte // pending rows of a grid layout, each ending in '\n'
	nrows   int
	start   int   // line of the first pending row
	pending *Item // an item read after an unfinished grid, returned next
	item    Item  // pending points here
}

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, 64*1024)}
}

// gridAlphabet reports whether c may appear in a row of the grid layout.
func gridAlphabet(c byte) bool {
	return c == '.' || c >= '0' && c <= '9' || c == '|' || c == '-' || c == '+' || c == ' ' || c == '\t' || c == '\r'
}

// Next returns the next puzzle or bad puzzle. ok is false at the end of
// the input; then Err reports a read error, if any.
func (r *Reader) Next() (it Item, ok bool) {
	if r.pending != nil {
		it, r.pending = *r.pending, nil
		return it, true
	}
	for {
		raw, tooLong, ok := r.readLine()
		if !ok {
			break
		}
		if tooLong {
			r.dropRows()
			return r.bad(fmt.Sprintf("line longer than %d bytes: not a puzzle (skipped to its end)", MaxLine)), true
		}
		if r.nrows == 0 {
			// The usual case, 81 cells at the start of the line and
			// nothing or a field after them, in one pass; the rest
			// below reads it the same way, slower.
			if g, ok := cells81(raw); ok {
				if err := g.Check(); err != nil {
					return Item{Line: r.line, Err: withLine(err, r.line)}, true
				}
				return Item{Line: r.line, Grid: g}, true
			}
		}
		l := bytes.TrimSpace(raw)
		if len(l) == 0 {
			if r.nrows > 0 {
				return r.flushGrid(), true
			}
			continue
		}
		if l[0] == '#' {
			continue
		}
		if l[0] == '{' {
			return r.after(r.jsonItem(l)), true
		}
		field := l
		if i := bytes.IndexAny(field, ": \t"); i >= 0 {
			field = field[:i]
		}
		if cellCount(field) > 9 {
			// One puzzle on the line, maybe followed by more fields.
			return r.after(r.parsed(field)), true
		}
		n, alphabet, bad := cellCount(l), true, 0
		for i, c := range l {
			if !gridAlphabet(c) {
				alphabet, bad = false, i
				break
			}
		}
		switch {
		case !alphabet:
			r.dropRows()
			c, _ := utf8.DecodeRune(l[bad:])
			return r.bad(fmt.Sprintf("character %d is %q, not a digit or '.'", utf8.RuneCount(l[:bad])+1, string(c))), true
		case n == 0:
			continue // a border line
		case n > 9:
			// The cells of one puzzle separated by spaces.
			return r.after(r.parsed(l)), true
		case n != 9:
			r.dropRows()
			return r.bad(fmt.Sprintf("%d %s: neither a puzzle of 81 cells on one line nor a grid row of 9", n, plural(n, "cell", "cells"))), true
		}
		if r.nrows == 0 {
			r.start = r.line
		}
		r.rows = append(append(r.rows, l...), '\n')
		if r.nrows++; r.nrows == 9 {
			return r.flushGrid(), true
		}
	}
	if r.nrows > 0 {
		return r.flushGrid(), true
	}
	return Item{}, false
}

// Err returns the first read error, nil at a clean end of input.
func (r *Reader) Err() error { return r.err }

// readLine returns the next line, without its end. A line longer than
// MaxLine is not kept: tooLong reports it as soon as it passes MaxLine,
// and the next call reads past its rest first. A NUL byte ends the input
// with ErrBinary.
func (r *Reader) readLine() (line []byte, tooLong, ok bool) {
	if r.skipping && !r.skipRest() {
		return nil, false, false
	}
	b, err := r.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		r.long = append(r.long[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) && len(r.long) <= MaxLine {
			b, err = r.br.ReadSlice('\n')
			r.long = append(r.long, b...)
		}
		b = r.long
		if len(b) > MaxLine {
			r.long = r.long[:0]
			if r.isBinary(b, r.line+1) {
				return nil, false, false
			}
			r.skipping = errors.Is(err, bufio.ErrBufferFull)
			if err != nil && err != io.EOF && !r.skipping {
				r.err = err
			}
			r.line++
			return nil, true, true
		}
	}
	switch {
	case err == io.EOF && len(b) == 0:
		return nil, false, false
	case err != nil && err != io.EOF:
		r.err = err
		return nil, false, false
	}
	if r.isBinary(b, r.line+1) {
		return nil, false, false
	}
	r.line++
	if r.line == 1 {
		b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	}
	return b, false, true
}

// skipRest reads past the rest of a line too long to keep. It returns
// false at the end of the input or on a read error or a NUL byte.
func (r *Reader) skipRest() bool {
	r.skipping = false
	for {
		b, err := r.br.ReadSlice('\n')
		if r.isBinary(b, r.line) {
			return false
		}
		switch {
		case err == nil:
			return true
		case errors.Is(err, bufio.ErrBufferFull):
		case err == io.EOF:
			return false
		default:
			r.err = err
			return false
		}
	}
}

// isBinary reports whether b, a part of the given line, holds a NUL byte,
// and if so ends the input with ErrBinary.
func (r *Reader) isBinary(b []byte, line int) bool {
	if bytes.IndexByte(b, 0) < 0 {
		return false
	}
	r.err = fmt.Errorf("line %d: %w", line, ErrBinary)
	return true
}

// after returns it, unless a grid is pending: then the grid (reported as
// unfinished) comes first and it is kept for the next call.
func (r *Reader) after(it Item) Item {
	if r.nrows == 0 {
		return it
	}
	r.item = it
	r.pending = &r.item
	return r.flushGrid()
}

// dropRows forgets an unfinished grid that a bad row interrupts: the bad
// row is the error reported.
func (r *Reader) dropRows() {
	r.rows, r.nrows = r.rows[:0], 0
}

// bad is an error item for the current line.
func (r *Reader) bad(msg string) Item {
	return Item{Line: r.line, Err: &ParseError{Line: r.line, Msg: msg}}
}

// parsed is the item for puzzle text b on the current line.
func (r *Reader) parsed(b []byte) Item {
	g, err := parse(b)
	return Item{Line: r.line, Grid: g, Err: withLine(err, r.line)}
}

func (r *Reader) flushGrid() Item {
	it := Item{Line: r.start}
	if r.nrows != 9 {
		it.Err = &ParseError{Line: r.start, Msg: fmt.Sprintf("grid of %d %s, want 9", r.nrows, plural(r.nrows, "row", "rows"))}
	} else {
		g, err := parse(r.rows)
		it.Grid, it.Err = g, withLine(err, r.start)
	}
	r.dropRows()
	return it
}

func (r *Reader) jsonItem(l []byte) Item {
	var v struct {
		Puzzle *string `json:"puzzle"`
	}
	if err := json.Unmarshal(l, &v); err != nil {
		return r.bad("bad JSON: " + err.Error())
	}
	if v.Puzzle == nil {
		return r.bad(`JSON object without a "puzzle" field`)
	}
	g, err := Parse(*v.Puzzle)
	return Item{Line: r.line, Grid: g, Err: withLine(err, r.line)}
}

// cells81 reads a line that starts with 81 cells ('.' or a digit)
// followed by its end, ':' or white space; ok is false for any other
// line.
func cells81(l []byte) (g Grid, ok bool) {
	if len(l) < 81 {
		return g, false
	}
	if len(l) > 81 {
		switch l[81] {
		case '\n', ':', ' ', '\t', '\r':
		default:
			return g, false
		}
	}
	// Eight cells at a time: a byte is a digit if it is '0'-'9', a '.'
	// if it equals '.'; each becomes its value or 0.
	var bad uint64
	for i := 0; i < 80; i += 8 {
		x := binary.LittleEndian.Uint64(l[i:])
		d := x ^ '0'*byteOnes                                // a digit's value, in 0-9
		notDigit := (d&byteLo7 + 0x76*byteOnes | d) & byteHi // high bit: the byte is above 9
		e := x ^ '.'*byteOnes
		notDot := nonzeroHi(e) // high bit: the byte is not '.'
		bad |= notDigit & notDot
		binary.LittleEndian.PutUint64(g[i:], d&^(notDigit>>7*0xff))
	}
	switch c := l[80]; {
	case c >= '0' && c <= '9':
		g[80] = c - '0'
	case c != '.':
		bad = 1
	}
	return g, bad == 0
}

// cellCount counts the characters of l that are cells.
func cellCount(l []byte) int {
	n := 0
	for _, c := range l {
		if c == '.' || (c >= '0' && c <= '9') {
			n++
		}
	}
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func withLine(err error, line int) error {
	if pe, ok := err.(*ParseError); ok {
		return &ParseError{Line: line, Msg: pe.Msg}
	}
	return err
}
