package sudokupage

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/generate"
	"github.com/nqcount/nqcount/web"
)

// Game is a Sudoku game as the page saves and loads it: the puzzle, the
// digits and pencil marks entered, the time played and where the puzzle
// came from.
type Game struct {
	// Puzzle is the givens (81 characters).
	Puzzle string `json:"puzzle"`
	// Progress is the board with the player's digits (81 characters,
	// agreeing with Puzzle on the givens); empty for none.
	Progress string `json:"progress,omitempty"`
	// Marks are the pencil marks: 81 strings of digits, "" for none; nil
	// for no marks at all.
	Marks []string `json:"marks,omitempty"`
	// Seconds is the time played.
	Seconds int `json:"seconds"`
	// Seed, Level, Symmetry and Index say how the puzzle was generated,
	// when it was.
	Seed     string `json:"seed,omitempty"`
	Level    string `json:"level,omitempty"`
	Symmetry string `json:"symmetry,omitempty"`
	Index    int    `json:"index,omitempty"`
}

// The file formats of save, the ones the sudoku command reads and writes.
const (
	FormatLine = "line"
	FormatGrid = "grid"
	FormatJSON = "json"
)

// maxSeconds bounds a saved time (a year).
const maxSeconds = 366 * 24 * 3600

// check validates and normalizes a game: a readable puzzle, progress
// agreeing with it, marks of digits.
func (gm *Game) check() *web.Error {
	p, e := parseGrid("puzzle", gm.Puzzle)
	if e != nil {
		return e
	}
	gm.Puzzle = p.String()
	if gm.Progress != "" {
		g, e := parseGrid("progress", gm.Progress)
		if e != nil {
			return e
		}
		for i, v := range p {
			if v != 0 && g[i] != v {
				return web.BadRequest("progress: %s is %d in the puzzle but %s in the progress", sudoku.CellName(i), v, cellDigit(g[i]))
			}
		}
		gm.Progress = g.String()
	}
	if gm.Marks != nil {
		if len(gm.Marks) != 81 {
			return web.BadRequest("marks: %d entries, want 81", len(gm.Marks))
		}
		gm.Marks = slices.Clone(gm.Marks)
		for i, m := range gm.Marks {
			norm, ok := normMarks(m)
			if !ok {
				return web.BadRequest("marks: %s has %q, want digits 1-9", sudoku.CellName(i), m)
			}
			gm.Marks[i] = norm
		}
	}
	if gm.Seconds < 0 || gm.Seconds > maxSeconds {
		return web.BadRequest("seconds %d: want 0 to %d", gm.Seconds, maxSeconds)
	}
	if gm.Seed != "" {
		if _, err := strconv.ParseUint(gm.Seed, 10, 64); err != nil {
			return web.BadRequest("seed %q: want a whole number", gm.Seed)
		}
	}
	if gm.Level != "" {
		lv, err := sudoku.ParseLevel(gm.Level)
		if err != nil {
			return web.BadRequest("%v", err)
		}
		gm.Level = lv.String()
	}
	if gm.Symmetry != "" {
		sym, err := generate.ParseSymmetry(gm.Symmetry)
		if err != nil {
			return web.BadRequest("%v", err)
		}
		gm.Symmetry = sym.String()
	}
	if gm.Index < 0 || gm.Index > maxIndex {
		return web.BadRequest("index %d: want 0 to %d", gm.Index, maxIndex)
	}
	return nil
}

// normMarks returns the digits of a cell's marks in order, each once.
func normMarks(m string) (string, bool) {
	if len(m) > 9 {
		return "", false
	}
	var have [10]bool
	for i := 0; i < len(m); i++ {
		c := m[i]
		if c < '1' || c > '9' {
			return "", false
		}
		have[c-'0'] = true
	}
	var b []byte
	for d := 1; d <= 9; d++ {
		if have[d] {
			b = append(b, byte('0'+d))
		}
	}
	return string(b), true
}

// saveRequest is the body of save.
type saveRequest struct {
	Game
	Format string `json:"format"`
}

// SavedFile is the answer of save: a file to offer for download.
type SavedFile struct {
	Filename string `json:"filename"`
	Text     string `json:"text"`
}

func (p *page) save(_ context.Context, req *saveRequest) (SavedFile, *web.Error) {
	gm := req.Game
	if e := gm.check(); e != nil {
		return SavedFile{}, e
	}
	text, err := FormatGame(gm, req.Format)
	if err != nil {
		return SavedFile{}, web.BadRequest("%v", err)
	}
	name := "sudoku"
	if gm.Seed != "" {
		name += "-" + gm.Level + "-" + gm.Seed
		if gm.Index > 0 {
			name += "-" + strconv.Itoa(gm.Index)
		}
	}
	// Each format its own name: a line and a grid of one game saved one
	// after the other must not overwrite each other.
	ext := map[string]string{"": ".txt", FormatLine: ".txt", FormatGrid: "-grid.txt", FormatJSON: ".json"}[req.Format]
	return SavedFile{Filename: name + ext, Text: text}, nil
}

// FormatGame checks a game and writes it in one of the sudoku command's
// formats (line, the default, grid or json), so that 'sudoku solve FILE' reads the
// puzzle: line and grid put the puzzle's givens in the body and the rest
// of the game in comment lines ("# progress: ..."); json writes one JSON
// object whose "puzzle" field the command reads.
func FormatGame(gm Game, format string) (string, error) {
	if e := gm.check(); e != nil {
		return "", e
	}
	var b strings.Builder
	switch format {
	case FormatJSON:
		// One line, as --format json writes.
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(gm); err != nil {
			return "", err
		}
		return buf.String(), nil
	case "", FormatLine, FormatGrid:
	default:
		return "", fmt.Errorf("unknown format %q: choose line, grid or json", format)
	}
	b.WriteString("# sudoku game saved by 'sudoku play'")
	if gm.Seed != "" {
		fmt.Fprintf(&b, ": %s, seed %s, index %d", gm.Level, gm.Seed, gm.Index)
	}
	b.WriteString("\n# 'sudoku solve FILE' solves the puzzle; 'sudoku play' loads the whole game.\n")
	meta := func(k, v string) { fmt.Fprintf(&b, "# %s: %s\n", k, v) }
	if gm.Seed != "" {
		meta("seed", gm.Seed)
	}
	if gm.Level != "" {
		meta("level", gm.Level)
	}
	if gm.Symmetry != "" {
		meta("symmetry", gm.Symmetry)
	}
	if gm.Index != 0 {
		meta("index", strconv.Itoa(gm.Index))
	}
	if format == FormatGrid {
		// Row by row from the text, not through sudoku.Parse: a puzzle
		// being fixed may have clashing digits, and is saved as it is.
		for r := 0; r < 9; r++ {
			b.WriteString(gm.Puzzle[r*9 : r*9+9])
			b.WriteByte('\n')
		}
		b.WriteString("\n")
	} else {
		b.WriteString(gm.Puzzle + "\n")
	}
	if gm.Progress != "" {
		meta("progress", gm.Progress)
	}
	if gm.Marks != nil {
		meta("marks", strings.Join(gm.Marks, ","))
	}
	if gm.Seconds > 0 {
		meta("seconds", strconv.Itoa(gm.Seconds))
	}
	return b.String(), nil
}

// parseRequest is the body of parse.
type parseRequest struct {
	Text string `json:"text"`
}

// Loaded is the answer of parse: the game read and the validation of its
// puzzle.
type Loaded struct {
	Game
	Validation
	// Puzzles is the number of puzzles in the text; the first is loaded.
	Puzzles int `json:"puzzles"`
}

func (p *page) parse(_ context.Context, req *parseRequest) (Loaded, *web.Error) {
	gm, n, e := ParseGame(req.Text)
	if e != nil {
		return Loaded{}, e
	}
	g, _ := parseGrid("puzzle", gm.Puzzle)
	v, _ := check(g)
	return Loaded{Game: gm, Validation: v, Puzzles: n}, nil
}

// ParseGame reads a puzzle or a saved game from text: a line or a grid
// as typed or pasted (clashing digits are kept, for the page to show), a
// file in any format the sudoku command reads (the first puzzle of it),
// or a game written by FormatGame. It returns the game and the number of
// puzzles the text holds.
func ParseGame(text string) (Game, int, *web.Error) {
	var gm Game
	body, meta := splitComments(text)
	trimmed := strings.TrimSpace(body)
	if trimmed == "" {
		return gm, 0, web.BadRequest("no puzzle in the text: paste 81 cells ('.' or 0 for empty), as one line or nine")
	}
	if trimmed[0] == '{' {
		return parseGameJSON(trimmed)
	}
	if cells, ok := layoutCells(body); ok {
		gm.Puzzle = cells
		n := 1
		if e := applyMeta(&gm, meta); e != nil {
			return gm, n, e
		}
		return gm, n, gm.check()
	}
	rd := sudoku.NewReader(strings.NewReader(text))
	n := 0
	var first sudoku.Item
	var firstErr *sudoku.Item
	for {
		it, ok := rd.Next()
		if !ok {
			break
		}
		if it.Err != nil {
			if firstErr == nil && n == 0 {
				it := it
				firstErr = &it
			}
			continue
		}
		if n == 0 {
			first = it
		}
		n++
		if n > 1000 {
			break
		}
	}
	if err := rd.Err(); err != nil {
		return gm, 0, web.BadRequest("reading the text: %v", err)
	}
	if n == 0 {
		if firstErr != nil {
			return gm, 0, web.BadRequest("%v", firstErr.Err)
		}
		return gm, 0, web.BadRequest("no puzzle in the text")
	}
	gm.Puzzle = first.Grid.String()
	if e := applyMeta(&gm, meta); e != nil {
		return gm, n, e
	}
	return gm, n, gm.check()
}

// splitComments separates the lines starting with '#' (after spaces) from
// the rest, and reads "# key: value" comments into meta.
func splitComments(text string) (body string, meta map[string]string) {
	var b strings.Builder
	meta = map[string]string{}
	for _, l := range strings.Split(text, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "#") {
			if k, v, ok := strings.Cut(strings.TrimSpace(t[1:]), ":"); ok {
				k = strings.TrimSpace(k)
				if _, dup := meta[k]; !dup && !strings.Contains(k, " ") {
					meta[k] = strings.TrimSpace(v)
				}
			}
			continue
		}
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String(), meta
}

// layoutCells reads text that is nothing but one puzzle laid out as a
// line or a grid (digits, '.' and the separators sudoku.Parse skips); ok
// is false for anything else.
func layoutCells(text string) (string, bool) {
	cells := make([]byte, 0, 81)
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '.' || (c >= '0' && c <= '9'):
			if len(cells) == 81 {
				return "", false
			}
			cells = append(cells, c)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '|' || c == '-' || c == '+':
		default:
			return "", false
		}
	}
	return string(cells), len(cells) == 81
}

// applyMeta reads the game's comment lines written by FormatGame.
func applyMeta(gm *Game, meta map[string]string) *web.Error {
	gm.Progress = meta["progress"]
	if m, ok := meta["marks"]; ok {
		gm.Marks = strings.Split(m, ",")
	}
	gm.Seed, gm.Level, gm.Symmetry = meta["seed"], meta["level"], meta["symmetry"]
	for _, f := range []struct {
		key string
		dst *int
	}{{"index", &gm.Index}, {"seconds", &gm.Seconds}} {
		if v, ok := meta[f.key]; ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				return web.BadRequest("# %s: %q is not a whole number", f.key, v)
			}
			*f.dst = n
		}
	}
	return nil
}

// parseGameJSON reads the first JSON line of a file: a game, or the
// output of 'sudoku generate --format json' (whose seed is a number).
func parseGameJSON(text string) (Game, int, *web.Error) {
	var gm Game
	line, rest, _ := strings.Cut(text, "\n")
	var v struct {
		Puzzle   *string         `json:"puzzle"`
		Progress string          `json:"progress"`
		Marks    []string        `json:"marks"`
		Seconds  int             `json:"seconds"`
		Seed     json.RawMessage `json:"seed"`
		Level    string          `json:"level"`
		Symmetry string          `json:"symmetry"`
		Index    int             `json:"index"`
	}
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		return gm, 0, web.BadRequest("bad JSON line: %v", err)
	}
	if v.Puzzle == nil {
		return gm, 0, web.BadRequest(`JSON object without a "puzzle" field`)
	}
	p, err := sudoku.Parse(*v.Puzzle)
	if err != nil {
		if cells, ok := layoutCells(*v.Puzzle); ok {
			gm.Puzzle = cells
		} else {
			return gm, 0, web.BadRequest("puzzle: %v", err)
		}
	} else {
		gm.Puzzle = p.String()
	}
	gm.Progress, gm.Marks, gm.Seconds, gm.Level, gm.Symmetry, gm.Index = v.Progress, v.Marks, v.Seconds, v.Level, v.Symmetry, v.Index
	if len(v.Seed) > 0 && string(v.Seed) != "null" {
		s := strings.Trim(string(v.Seed), `"`)
		if _, err := strconv.ParseUint(s, 10, 64); err != nil {
			return gm, 0, web.BadRequest("seed %s: want a whole number", v.Seed)
		}
		gm.Seed = s
	}
	n := 1
	for _, l := range strings.Split(rest, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "{") {
			n++
		}
	}
	return gm, n, gm.check()
}
