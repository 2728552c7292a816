// Package report writes what the benchmark runner measured: markdown
// tables, small self-contained SVG line charts, and the marked block of
// RESULTS.md that the runner owns.
package report

import (
	"errors"
	"fmt"
	"io"
	"strings"
)

// Table is a markdown table. Align has one byte per column, 'l' or 'r'
// (missing columns are left-aligned).
type Table struct {
	Header []string
	Align  string
	Rows   [][]string
}

// AddRow appends a row of cells.
func (t *Table) AddRow(cells ...string) { t.Rows = append(t.Rows, cells) }

// Markdown writes the table in GitHub-flavoured markdown. Pipes in cells
// are escaped so that a cell can never split a row.
func (t *Table) Markdown(w io.Writer) error {
	var b strings.Builder
	row := func(cells []string) {
		b.WriteString("|")
		for i := range t.Header {
			c := ""
			if i < len(cells) {
				c = strings.ReplaceAll(cells[i], "|", `\|`)
			}
			b.WriteString(" " + c + " |")
		}
		b.WriteString("\n")
	}
	row(t.Header)
	b.WriteString("|")
	for i := range t.Header {
		if i < len(t.Align) && t.Align[i] == 'r' {
			b.WriteString("---:|")
		} else {
			b.WriteString("---|")
		}
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		row(r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// String returns the table as markdown.
func (t *Table) String() string {
	var b strings.Builder
	_ = t.Markdown(&b)
	return b.String()
}

// The markers around the part of RESULTS.md that the runner rewrites.
const (
	Begin = "<!-- bench:begin -->"
	End   = "<!-- bench:end -->"
)

// ErrMarkers is returned when a document has a broken pair of markers.
var ErrMarkers = errors.New("bench markers out of order or unpaired")

// ReplaceBlock returns doc with the text between Begin and End replaced by
// block, keeping everything around it. A document without markers gets the
// block appended, markers included; one with a single marker, repeated
// markers or an End before its Begin is refused rather than guessed at.
func ReplaceBlock(doc, block string) (string, error) {
	nb, ne := strings.Count(doc, Begin), strings.Count(doc, End)
	if !strings.HasSuffix(block, "\n") {
		block += "\n"
	}
	marked := Begin + "\n" + block + End
	if nb == 0 && ne == 0 {
		if doc != "" && !strings.HasSuffix(doc, "\n") {
			doc += "\n"
		}
		if doc != "" {
			doc += "\n"
		}
		return doc + marked + "\n", nil
	}
	if nb != 1 || ne != 1 {
		return "", fmt.Errorf("%w: %d %q and %d %q", ErrMarkers, nb, Begin, ne, End)
	}
	i, j := strings.Index(doc, Begin), strings.Index(doc, End)
	if j < i {
		return "", fmt.Errorf("%w: %q comes before %q", ErrMarkers, End, Begin)
	}
	return doc[:i] + marked + doc[j+len(End):], nil
}
