package sudoku

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
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

// Reader reads puzzles from a text stream, one at a time. It understands:
//
//   - one puzzle per line, 81 cells ('.' or '0' empty), optionally followed
//     by ':' or white space and anything else (the answers files'
//     "puzzle:count:solution" and this tool's "puzzle status" lines);
//   - the 9-line grid layout: 9 lines of 9 cells, with optional spaces and
//     '|', '-', '+' box borders; lines of borders only are skipped and a
//     blank line ends a grid;
//   - JSON lines (starting with '{') with a "puzzle" field, as written by
//     this tool's --format json;
//   - comment lines starting with '#', and blank lines.
type Reader struct {
	sc    *bufio.Scanner
	line  int
	rows  []string // pending rows of a grid layout
	start int      // line of the first pending row
	back  *string  // a line read but not yet handled
}

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	return &Reader{sc: sc}
}

// Next returns the next puzzle or bad puzzle. ok is false at the end of
// the input; then Err reports a read error, if any.
func (r *Reader) Next() (it Item, ok bool) {
	for {
		var l string
		if r.back != nil {
			l, r.back = *r.back, nil
		} else {
			if !r.sc.Scan() {
				break
			}
			r.line++
			l = strings.TrimSpace(r.sc.Text())
		}
		if l == "" {
			if len(r.rows) > 0 {
				return r.flushGrid(), true
			}
			continue
		}
		if l[0] == '#' {
			continue
		}
		field := l
		if i := strings.IndexAny(field, ": \t"); i >= 0 {
			field = field[:i]
		}
		if len(r.rows) > 0 && (l[0] == '{' || len(field) > 9) {
			// A one-line puzzle after an unfinished grid: report the
			// grid, then read the line again.
			r.back = &l
			return r.flushGrid(), true
		}
		if l[0] == '{' {
			return r.jsonItem(l), true
		}
		if len(field) > 9 {
			g, err := Parse(field)
			return Item{Line: r.line, Grid: g, Err: withLine(err, r.line)}, true
		}
		// A row of the grid layout.
		n := cellCount(l)
		if n == 0 && strings.Trim(l, "-+| \t") == "" {
			continue // a border line
		}
		if len(r.rows) == 0 {
			r.start = r.line
		}
		r.rows = append(r.rows, l)
		if n != 9 {
			it := Item{Line: r.line, Err: &ParseError{Line: r.line, Msg: fmt.Sprintf("%d cells: neither a puzzle of 81 cells on one line nor a grid row of 9", n)}}
			if _, err := Parse(l); err != nil && n <= 9 {
				if pe, ok := err.(*ParseError); ok && strings.HasPrefix(pe.Msg, "character") {
					it.Err = &ParseError{Line: r.line, Msg: pe.Msg}
				}
			}
			r.rows = r.rows[:0]
			return it, true
		}
		if len(r.rows) == 9 {
			return r.flushGrid(), true
		}
	}
	if len(r.rows) > 0 {
		return r.flushGrid(), true
	}
	return Item{}, false
}

// Err returns the first read error, nil at a clean end of input.
func (r *Reader) Err() error { return r.sc.Err() }

func (r *Reader) flushGrid() Item {
	it := Item{Line: r.start}
	if len(r.rows) != 9 {
		it.Err = &ParseError{Line: r.start, Msg: fmt.Sprintf("grid of %d rows, want 9", len(r.rows))}
	} else {
		g, err := Parse(strings.Join(r.rows, "\n"))
		it.Grid, it.Err = g, withLine(err, r.start)
	}
	r.rows = r.rows[:0]
	return it
}

func (r *Reader) jsonItem(l string) Item {
	var v struct {
		Puzzle *string `json:"puzzle"`
	}
	if err := json.Unmarshal([]byte(l), &v); err != nil {
		return Item{Line: r.line, Err: &ParseError{Line: r.line, Msg: "bad JSON: " + err.Error()}}
	}
	if v.Puzzle == nil {
		return Item{Line: r.line, Err: &ParseError{Line: r.line, Msg: `JSON object without a "puzzle" field`}}
	}
	g, err := Parse(*v.Puzzle)
	return Item{Line: r.line, Grid: g, Err: withLine(err, r.line)}
}

// cellCount counts the characters of l that are cells.
func cellCount(l string) int {
	n := 0
	for i := 0; i < len(l); i++ {
		if c := l[i]; c == '.' || (c >= '0' && c <= '9') {
			n++
		}
	}
	return n
}

func withLine(err error, line int) error {
	if pe, ok := err.(*ParseError); ok {
		return &ParseError{Line: line, Msg: pe.Msg}
	}
	return err
}
