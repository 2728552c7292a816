package solutions

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Format is an output format of Printer.
type Format string

// The output formats.
const (
	// Cols is one line per solution: the column of each row's queen,
	// separated by spaces ("1 3 0 2").
	Cols Format = "cols"
	// Coords is one line per solution: (row,col) pairs separated by
	// spaces ("(0,1) (1,3) (2,0) (3,2)").
	Coords Format = "coords"
	// Board draws each solution as an n×n grid, one line per row, with a
	// blank line between boards.
	Board Format = "board"
	// JSON is one JSON object per line: {"n":4,"cols":[1,3,0,2]}.
	JSON Format = "json"
)

// Formats lists the formats in the order help texts show them.
var Formats = []Format{Cols, Coords, Board, JSON}

// MaxBoardN is the largest n drawn by the Board format (and by WriteSVG):
// beyond it a picture is no longer readable.
const MaxBoardN = 256

// ParseFormat reads a format name.
func ParseFormat(s string) (Format, error) {
	f := Format(strings.ToLower(strings.TrimSpace(s)))
	for _, g := range Formats {
		if f == g {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %q: choose cols, coords, board or json", s)
}

// Board glyphs.
const (
	QueenUnicode = "♛"
	EmptyUnicode = "·"
	QueenASCII   = "Q"
	EmptyASCII   = "."
)

// Printer writes solutions in one Format to an io.Writer through its own
// buffer: Print does not allocate once the buffer has grown, and output
// reaches the writer in large blocks. Call Flush at the end. The first
// write error is kept and returned by every later call.
type Printer struct {
	w      io.Writer
	format Format
	queen  string
	empty  string
	buf    []byte
	count  int
	err    error
}

const printerFlushAt = 64 << 10

// NewPrinter returns a Printer writing format f to w. ascii selects Q and
// . for boards instead of ♛ and ·.
func NewPrinter(w io.Writer, f Format, ascii bool) *Printer {
	p := &Printer{w: w, format: f, queen: QueenUnicode, empty: EmptyUnicode,
		buf: make([]byte, 0, printerFlushAt+4096)}
	if ascii {
		p.queen, p.empty = QueenASCII, EmptyASCII
	}
	return p
}

// Count returns the number of solutions printed so far.
func (p *Printer) Count() int { return p.count }

// Print writes one solution. For the Board format, n must not exceed
// MaxBoardN.
func (p *Printer) Print(cols []int) error {
	if p.err != nil {
		return p.err
	}
	b := p.buf
	switch p.format {
	case Cols:
		for i, c := range cols {
			if i > 0 {
				b = append(b, ' ')
			}
			b = strconv.AppendInt(b, int64(c), 10)
			if len(b) >= printerFlushAt {
				if b = p.write(b); p.err != nil {
					return p.err
				}
			}
		}
		b = append(b, '\n')
	case Coords:
		for i, c := range cols {
			if i > 0 {
				b = append(b, ' ')
			}
			b = append(b, '(')
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(c), 10)
			b = append(b, ')')
			if len(b) >= printerFlushAt {
				if b = p.write(b); p.err != nil {
					return p.err
				}
			}
		}
		b = append(b, '\n')
	case JSON:
		b = append(b, `{"n":`...)
		b = strconv.AppendInt(b, int64(len(cols)), 10)
		b = append(b, `,"cols":[`...)
		for i, c := range cols {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(c), 10)
			if len(b) >= printerFlushAt {
				if b = p.write(b); p.err != nil {
					return p.err
				}
			}
		}
		b = append(b, "]}\n"...)
	case Board:
		if len(cols) > MaxBoardN {
			return fmt.Errorf("a %d×%d board is too large to draw (at most %d)", len(cols), len(cols), MaxBoardN)
		}
		if p.count > 0 {
			b = append(b, '\n')
		}
		for _, c := range cols {
			for j := range cols {
				if j > 0 {
					b = append(b, ' ')
				}
				if j == c {
					b = append(b, p.queen...)
				} else {
					b = append(b, p.empty...)
				}
			}
			b = append(b, '\n')
			if len(b) >= printerFlushAt {
				if b = p.write(b); p.err != nil {
					return p.err
				}
			}
		}
	default:
		return fmt.Errorf("unknown format %q", p.format)
	}
	p.count++
	if len(b) >= printerFlushAt {
		b = p.write(b)
	}
	p.buf = b
	return p.err
}

// write sends b to the writer and returns b emptied.
func (p *Printer) write(b []byte) []byte {
	if _, err := p.w.Write(b); err != nil && p.err == nil {
		p.err = err
	}
	return b[:0]
}

// Flush writes any buffered output and returns the first write error.
func (p *Printer) Flush() error {
	if p.err == nil && len(p.buf) > 0 {
		p.buf = p.write(p.buf)
	}
	return p.err
}
