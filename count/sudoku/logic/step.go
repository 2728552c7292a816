package logic

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nqcount/nqcount/count/sudoku"
)

// Step is one logical step: what it concludes (digits placed, candidates
// removed), the technique that justifies it, a sentence saying why, and the
// pattern behind it for a board to highlight. Cells are numbered 0-80 row
// by row and digits 1-9. A Step from this package is never empty: it
// places at least one digit or removes at least one candidate. Its slices
// are never nil, so that JSON readers see [] rather than null.
type Step struct {
	// Technique names the technique, as in Techniques ("hidden single",
	// "x-wing", "forcing chain", ...).
	Technique string `json:"technique"`
	// Score is the step's difficulty on the Sudoku Explainer-like scale:
	// the technique's score, plus a length bonus for chains.
	Score float64 `json:"score"`
	// Text says what the step finds and why, e.g. "r3c5 can only be 7:
	// hidden single in box 2, the only place for 7 there". Cells are
	// named rRcC and houses "row R", "column C", "box B", all from 1.
	Text string `json:"text"`
	// Placements are the digits the step puts in cells.
	Placements []Move `json:"placements"`
	// Eliminations are the candidates the step removes.
	Eliminations []Move `json:"eliminations"`
	// Cells are the cells of the pattern that justifies the step (the
	// cells to highlight), increasing, without the cells it changes
	// unless they belong to the pattern too.
	Cells []int `json:"cells"`
	// Houses are the rows, columns and boxes the pattern works in.
	Houses []House `json:"houses"`
	// Marks are the pattern's candidates, each with a color (see Mark).
	Marks []Mark `json:"marks"`
	// Links are a chain's or a coloring's links between candidates, in
	// order along the chain.
	Links []Link `json:"links"`
	// Message is Text as a message key and its values, for a page to say
	// the step in another language (not in the JSON of a step: package
	// web's hint answer carries it).
	Message Message `json:"-"`
}

// Move is a digit in a cell: a placement, or a candidate removed.
type Move struct {
	// Cell is 0-80, row by row (r3c5 is 22).
	Cell int `json:"cell"`
	// Digit is 1-9.
	Digit int `json:"digit"`
}

// String writes the move as rRcC=D.
func (m Move) String() string { return sudoku.CellName(m.Cell) + "=" + strconv.Itoa(m.Digit) }

// House is a row, a column or a box.
type House struct {
	// Kind is "row", "column" or "box".
	Kind string `json:"kind"`
	// Index is 0-8: rows top to bottom, columns left to right, boxes row
	// by row (box 0 top left, box 8 bottom right). Text numbers them from
	// 1.
	Index int `json:"index"`
}

// String names the house as Text does: "row 3", "column 5", "box 2".
func (h House) String() string { return h.Kind + " " + strconv.Itoa(h.Index+1) }

// houseOfIndex returns house h (0-26) as a House.
func houseOfIndex(h int) House {
	switch {
	case h < 9:
		return House{"row", h}
	case h < 18:
		return House{"column", h - 9}
	}
	return House{"box", h - 18}
}

func houseName(h int) string { return houseOfIndex(h).String() }

// Mark is a candidate of a step's pattern with a color for display.
// Color 0 marks the pattern's candidates (a subset's digits, a fish's
// base, a chain's candidates that are true when the chain's first one is
// false); color 1 the opposite ones (in coloring and chains, the
// candidates of the other color); 2 and 3 the two colors of a second
// cluster in multi-coloring.
type Mark struct {
	Cell  int `json:"cell"`
	Digit int `json:"digit"`
	Color int `json:"color"`
}

// Link joins two candidates of a chain or a coloring. A strong link says
// at least one of the two is true (written =), a weak one that at most one
// is (written -).
type Link struct {
	From   Move `json:"from"`
	To     Move `json:"to"`
	Strong bool `json:"strong"`
}

// score converts tenths to a score.
func score(tenths int) float64 { return float64(tenths) / 10 }

// tenths converts a score to tenths.
func tenths(s float64) int { return int(s*10 + 0.5) }

// finish sorts and de-duplicates the step's lists and replaces nil slices
// by empty ones.
func (s *Step) finish() {
	less := func(a, b Move) int {
		if a.Cell != b.Cell {
			return a.Cell - b.Cell
		}
		return a.Digit - b.Digit
	}
	slices.SortFunc(s.Placements, less)
	s.Placements = slices.Compact(s.Placements)
	slices.SortFunc(s.Eliminations, less)
	s.Eliminations = slices.Compact(s.Eliminations)
	slices.Sort(s.Cells)
	s.Cells = slices.Compact(s.Cells)
	s.Houses = slices.Compact(s.Houses)
	if s.Placements == nil {
		s.Placements = []Move{}
	}
	if s.Eliminations == nil {
		s.Eliminations = []Move{}
	}
	if s.Cells == nil {
		s.Cells = []int{}
	}
	if s.Houses == nil {
		s.Houses = []House{}
	}
	if s.Marks == nil {
		s.Marks = []Mark{}
	}
	if s.Links == nil {
		s.Links = []Link{}
	}
}

// cellList names cells: "r1c1, r1c4, r2c7".
func cellList(cs []int) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = sudoku.CellName(c)
	}
	return strings.Join(names, ", ")
}

// digitList writes digits as "3, 5 and 8" (or "3 or 5" with word "or").
func digitList(ds []int, word string) string {
	s := make([]string, len(ds))
	for i, d := range ds {
		s[i] = strconv.Itoa(d)
	}
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " " + word + " " + s[len(s)-1]
}

// cannot says which candidates go: "r1c7, r1c9 cannot be 3" when there is
// one digit, else cell by cell "r1c1 cannot be 4 or 6, r2c2 cannot be 6".
func cannot(ms []Move) string {
	ms = slices.Clone(ms)
	slices.SortFunc(ms, func(a, b Move) int {
		if a.Cell != b.Cell {
			return a.Cell - b.Cell
		}
		return a.Digit - b.Digit
	})
	oneDigit := true
	for _, m := range ms {
		oneDigit = oneDigit && m.Digit == ms[0].Digit
	}
	if oneDigit {
		cs := make([]int, len(ms))
		for i, m := range ms {
			cs[i] = m.Cell
		}
		return fmt.Sprintf("%s cannot be %d", cellList(cs), ms[0].Digit)
	}
	var parts []string
	for i := 0; i < len(ms); {
		j := i
		var ds []int
		for ; j < len(ms) && ms[j].Cell == ms[i].Cell; j++ {
			ds = append(ds, ms[j].Digit)
		}
		parts = append(parts, fmt.Sprintf("%s cannot be %s", sudoku.CellName(ms[i].Cell), digitList(ds, "or")))
		i = j
	}
	return strings.Join(parts, ", ")
}

// candName writes a candidate as (D)rRcC, the chain notation.
func candName(m Move) string { return fmt.Sprintf("(%d)%s", m.Digit, sudoku.CellName(m.Cell)) }
