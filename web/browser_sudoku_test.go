package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/nqcount/nqcount/web/internal/apitest"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/generate"
	"github.com/nqcount/nqcount/count/sudoku/logic"
	"github.com/nqcount/nqcount/web"
	"github.com/nqcount/nqcount/web/queenspage"
	"github.com/nqcount/nqcount/web/sudokupage"
)

// hintWait bounds the wait for a hint: a forcing chain on a hard board
// takes a second or more, ten times that under the race detector.
const hintWait = 60 * time.Second

// allowedDigits returns the digits none of cell i's peers holds in g, as
// the page writes candidates ("1479").
func allowedDigits(g sudoku.Grid, i int) string {
	var have [10]bool
	for _, p := range peers(i) {
		have[g[p]] = true
	}
	s := ""
	for d := 1; d <= 9; d++ {
		if !have[d] {
			s += strconv.Itoa(d)
		}
	}
	return s
}

func marksOf(p *tab) []string {
	return eval[[]string](p, `Array.from(document.querySelectorAll('#board .cell')).map(c => c.dataset.marks || '')`)
}

// pasteGame loads a game through the paste box, as a player pastes a
// saved file.
func pasteGame(p *tab, gm sudokupage.Game) {
	p.t.Helper()
	b, err := json.Marshal(gm)
	if err != nil {
		p.t.Fatal(err)
	}
	p.do(chromedp.SetValue(chromedp.ID("paste"), string(b)))
	p.click("#usepaste")
	if eval[bool](p, `!!document.getElementById('discard')`) {
		p.click("#discard")
	}
	want := gm.Progress
	if want == "" {
		want = gm.Puzzle
	}
	// The board, and the status that comes with the marks (a game may
	// differ from the one shown in its marks alone).
	p.wait("the pasted game", boardJS+` === '`+want+`' && document.getElementById('status').textContent.startsWith('Pasted puzzle')`)
}

// hintStages presses Hint three times and checks the stages: the
// technique, where, the move. It returns the step's text.
func hintStages(p *tab) string {
	p.t.Helper()
	before := p.statusText()
	p.click("#hint")
	p.waitFor("the first stage of the hint", fmt.Sprintf(`(t => t !== %q && /^Hint 1 of 3|^Mistake|solved/.test(t))(document.getElementById('status').textContent)`, before), hintWait)
	if !strings.HasPrefix(p.statusText(), "Hint 1 of 3") {
		p.t.Fatalf("hint: %q", p.statusText())
	}
	p.click("#hint")
	p.wait("the second stage", `document.getElementById('status').textContent.startsWith('Hint 2 of 3')`)
	p.click("#hint")
	p.wait("the third stage", `document.getElementById('status').textContent.startsWith('Hint 3 of 3') && !!document.getElementById('apply')`)
	return eval[string](p, `document.querySelector('#status .steptext').textContent`)
}

// testSudokuPage plays a game through: load, generate, type, clash, undo,
// pencil marks, a hint, save, solve, load, a puzzle of one's own.
func testSudokuPage(t *testing.T, base string, bctx context.Context) {
	p := newTab(t, bctx)
	p.loadTimes("sudoku", base+"/sudoku?level=hidden&seed=7")
	want := apitest.Puzzle(t, generate.Options{Level: sudoku.Hidden, Seed: 7}, 0).Puzzle.String()
	p.wait("the shared puzzle", boardJS+` === '`+want+`'`)

	// Every cell is addressable and labelled.
	if got := eval[int](p, `new Set(Array.from(document.querySelectorAll('#board .cell')).filter(c => c.getAttribute('aria-label')).map(c => c.dataset.row + ',' + c.dataset.col)).size`); got != 81 {
		t.Errorf("%d labelled cells with distinct data-row/data-col, want 81", got)
	}

	// A new puzzle, by difficulty and seed.
	p.do(chromedp.SetValue(chromedp.ID("level"), "singles"), chromedp.SetValue(chromedp.ID("seed"), "12345"))
	p.click("#new")
	gen := apitest.Puzzle(t, generate.Options{Level: sudoku.Singles, Seed: 12345}, 0)
	puzzle := gen.Puzzle.String()
	p.wait("the generated puzzle", boardJS+` === '`+puzzle+`'`)
	if src := eval[string](p, `document.getElementById('source').textContent`); !strings.Contains(src, "seed 12345") {
		t.Errorf("seed not shown: %q", src)
	}
	if st := p.statusText(); !strings.Contains(st, fmt.Sprintf("%d clues", gen.Puzzle.Clues())) {
		t.Errorf("status %q", st)
	}

	// Type a digit that clashes: it is highlighted at once.
	empty, clashDigit := -1, 0
	for i := 0; i < 81 && empty < 0; i++ {
		if gen.Puzzle[i] == 0 {
			for c := 0; c < 9; c++ {
				if v := gen.Puzzle[i/9*9+c]; v != 0 {
					empty, clashDigit = i, int(v)
					break
				}
			}
		}
	}
	p.click(cellSel(empty))
	p.do(chromedp.KeyEvent(fmt.Sprint(clashDigit)))
	p.wait("the clash highlight", fmt.Sprintf(`%s.classList.contains('clash') && %s.dataset.value === '%d'`, cellJS(empty), cellJS(empty), clashDigit))
	// Undo takes it back.
	p.do(chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	p.wait("undo", fmt.Sprintf(`!%s.dataset.value && document.querySelectorAll('.cell.clash').length === 0`, cellJS(empty)))

	// A pencil mark shows as a candidate, not as the cell's digit.
	p.click("#pencil")
	p.click(cellSel(empty))
	d := int(gen.Solution[empty])
	p.do(chromedp.KeyEvent(fmt.Sprint(d)))
	p.wait("the pencil mark", fmt.Sprintf(`(%s.dataset.marks||'') === '%d' && !%s.dataset.value && %s.textContent === '%d'`, cellJS(empty), d, cellJS(empty), markJS(empty, d), d))
	p.click("#pencil")

	// A game under way: a few right digits and pencil marks.
	filled := 0
	for i := 80; i >= 0 && filled < 4; i-- {
		if gen.Puzzle[i] == 0 && i != empty {
			p.click(cellSel(i))
			p.do(chromedp.KeyEvent(fmt.Sprint(gen.Solution[i])))
			filled++
		}
	}
	p.click("#pencil")
	for _, i := range []int{40, 41, 50} {
		if gen.Puzzle[i] == 0 {
			p.click(cellSel(i))
			p.do(chromedp.KeyEvent(fmt.Sprint(gen.Solution[i])), chromedp.KeyEvent(fmt.Sprint(gen.Solution[i]%9+1)))
		}
	}
	p.click("#pencil")

	// A hint, given gradually, from the board and the candidates as the
	// player keeps them, then applied.
	pl := newPlayer(puzzle)
	copy(pl.grid[:], eval[string](p, boardJS))
	for i, m := range marksOf(p) {
		for _, c := range m {
			pl.marks[i] |= 1 << (c - '0')
		}
	}
	step, err := handlerHinter(web.New(web.Options{Pages: pages(queenspage.Options{})}))(pl.request())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := hintStages(p), sudokupage.HintOf(step).Words; got != want {
		t.Errorf("hint %q, want %q", got, want)
	}
	mv := step.Placements[0]
	p.wait("the hinted digit", fmt.Sprintf(`%s.classList.contains('hint-cell') && %s.querySelector('.hv').textContent === '%d'`, cellJS(mv.Cell), cellJS(mv.Cell), mv.Digit))
	p.click("#apply")
	p.wait("the hint applied", fmt.Sprintf(`%s.dataset.value === '%d'`, cellJS(mv.Cell), mv.Digit))
	progress := eval[string](p, boardJS)

	// Save (a download in the CLI's JSON format) ...
	dl := t.TempDir()
	if _, err := chromedp.CallBrowser(p.ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dl}); err != nil {
		t.Fatal(err)
	}
	p.do(chromedp.SetValue(chromedp.ID("format"), "json"))
	p.click("#save")
	saved := waitFile(t, filepath.Join(dl, "sudoku-singles-12345.json"))
	gm, _, apiErr := sudokupage.ParseGame(saved)
	if apiErr != nil {
		t.Fatalf("saved file %q: %v", saved, apiErr)
	}
	if gm.Puzzle != puzzle || gm.Progress != progress || gm.Seed != "12345" || gm.Level != "singles" {
		t.Errorf("saved game %+v, want puzzle %s progress %s", gm, puzzle, progress)
	}
	if it, ok := sudoku.NewReader(strings.NewReader(saved)).Next(); !ok || it.Err != nil || it.Grid.String() != puzzle {
		t.Errorf("the sudoku command's reader reads %v from the saved file", it)
	}

	// ... solve ...
	p.click("#solve")
	p.wait("the solution", boardJS+` === '`+gen.Solution.String()+`'`)

	// ... and load the saved game back (a solved board is no game lost).
	p.do(chromedp.SetUploadFiles(chromedp.CSS("#load"), []string{filepath.Join(dl, "sudoku-singles-12345.json")}))
	p.wait("the loaded game", boardJS+` === '`+progress+`'`)
	if marks := eval[string](p, cellJS(empty)+`.dataset.marks||''`); mv.Cell != empty && !strings.Contains(marks, fmt.Sprint(gen.Solution[empty])) {
		t.Errorf("pencil marks not restored: %q", marks)
	}

	// A puzzle of one's own: typed, with the verdict as it is typed (the
	// game in progress is given up only when the player says so) ...
	p.click("#enter")
	p.wait("the question", `!!document.getElementById('discard')`)
	p.click("#discard")
	p.wait("an empty board", boardJS+` === '`+strings.Repeat(".", 81)+`'`)
	p.click(cellSel(0))
	p.do(chromedp.KeyEvent("5"))
	p.click(cellSel(1))
	p.do(chromedp.KeyEvent("5"))
	p.wait("the verdict on a clash", `document.querySelectorAll('.cell.clash').length === 2 && document.getElementById('status').textContent.includes('No solution: r1c1 and r1c2 are both 5')`)
	p.do(chromedp.KeyEvent("\b"))
	p.wait("the verdict on one digit", `document.getElementById('status').textContent.startsWith('1 clue. Several solutions')`)
	// ... or pasted.
	p.do(chromedp.SetValue(chromedp.ID("paste"), strings.Join([]string{top1[:27], top1[27:54], top1[54:]}, "\n")))
	p.click("#usepaste")
	p.wait("the question", `!!document.getElementById('discard')`)
	p.click("#discard")
	p.wait("the pasted puzzle", boardJS+` === '`+top1+`' && document.getElementById('status').textContent.includes('Exactly one solution')`)
}

func waitFile(t *testing.T, path string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return string(b)
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no download %s", path)
	return ""
}

// chainGame returns a game whose next hint, from its candidates, is a
// chain with weak and strong links (ExampleStep's: a strong-link fish on
// the SE scale), reached by applying the explained solve's steps before it.
func chainGame(t *testing.T) (sudokupage.Game, logic.Step) {
	t.Helper()
	const puzzle = ".1.6...8.3.2..........49.....83...........4.7......5..46..........2...9.7...5...."
	g := apitest.Grid(t, puzzle)
	ex, err := logic.Explain(g)
	if err != nil {
		t.Fatal(err)
	}
	pl := newPlayer(puzzle)
	for i := range pl.marks {
		if pl.grid[i] == '.' {
			pl.marks[i] = pl.allowed(i)
		}
	}
	for _, st := range ex.Steps {
		h, err := handlerHinter(web.New(web.Options{Pages: pages(queenspage.Options{})}))(pl.request())
		if err != nil {
			t.Fatal(err)
		}
		if len(h.Links) > 0 {
			gm := sudokupage.Game{Puzzle: puzzle, Progress: string(pl.grid[:]), Marks: make([]string, 81)}
			for i, m := range pl.marks {
				for d := 1; d <= 9; d++ {
					if m&(1<<d) != 0 && pl.grid[i] == '.' {
						gm.Marks[i] += strconv.Itoa(d)
					}
				}
			}
			return gm, h
		}
		pl.apply(st)
	}
	t.Fatal("no chain in the solve")
	return sudokupage.Game{}, logic.Step{}
}

// pathEnds reads a link's ends from its SVG path (x1, y1, x2, y2 of a
// JavaScript object literal, for the path l).
const pathEnds = `...(() => { const n = l.getAttribute('d').match(/-?[\d.]+/g).map(Number); return {x1: n[0], y1: n[1], x2: n[n.length - 2], y2: n[n.length - 1]}; })()`

var sudokuSteps = []pageStep{
	{"hint after hint", func(p *tab, base string) {
		// The puzzle the hints once looped on, from its eighth hint. Hint,
		// hint, hint, Apply, again and again, solves it with no step twice:
		// the first steps with the buttons, the rest with the H key (four
		// presses a step), as a player in a hurry does.
		p.fresh(base, base+"/sudoku?level=hard&seed="+loopSeed)
		const boardState = boardJS + ` + JSON.stringify(Array.from(document.querySelectorAll('#board .cell')).map(c => c.dataset.marks || ''))`
		seen := map[string]int{}
		for i := 1; ; i++ {
			if strings.Contains(p.statusText(), "Well done") {
				break
			}
			if i > 100 {
				p.t.Fatalf("not solved after %d hints", i-1)
			}
			before := eval[string](p, boardState)
			var text string
			if i <= 3 {
				text = hintStages(p)
				p.click("#apply")
			} else {
				p.do(chromedp.KeyEvent("h"))
				p.waitFor("the first stage of hint "+strconv.Itoa(i), `document.getElementById('status').textContent.startsWith('Hint 1 of 3')`, hintWait)
				p.do(chromedp.KeyEvent("h"), chromedp.KeyEvent("h"))
				text = eval[string](p, `(t => t ? t.textContent : '')(document.querySelector('#status .steptext'))`)
				if text == "" {
					p.t.Fatalf("hint %d after three presses: %q", i, p.statusText())
				}
				p.do(chromedp.KeyEvent("h"))
			}
			if j, ok := seen[text]; ok {
				p.t.Fatalf("hint %d repeats hint %d: %q", i, j, text)
			}
			seen[text] = i
			p.wait("the step applied", boardState+` !== `+strconv.Quote(before))
		}
		if got := eval[string](p, boardJS); strings.Contains(got, ".") {
			p.t.Errorf("solved on %s", got)
		}
		p.t.Logf("solved in %d hints", len(seen))
	}},

	{"gradual hints", func(p *tab, base string) {
		p.fresh(base, base+"/sudoku?level=hidden&seed=7")
		puzzle := apitest.Puzzle(p.t, generate.Options{Level: sudoku.Hidden, Seed: 7}, 0).Puzzle
		st, err := logic.HintCandidates(context.Background(), puzzle, logic.Candidates{})
		if err != nil {
			p.t.Fatal(err)
		}
		lit := `document.querySelectorAll('#board .cell.hint-cell, #board .cell.hint-house').length`
		shown := `Array.from(document.querySelectorAll('#board .hv')).map(h => h.textContent).join('')`
		// First the technique alone: nothing on the board.
		p.click("#hint")
		p.waitFor("the technique", `document.getElementById('status').textContent.startsWith('Hint 1 of 3')`, hintWait)
		if got, want := p.statusText(), fmt.Sprintf("Hint 1 of 3: look for a %s (difficulty %.1f).", sudokupage.HintOf(st).Name, st.Score); !strings.HasPrefix(got, want) {
			p.t.Errorf("first press: %q, want %q", got, want)
		}
		if n := eval[int](p, lit); n != 0 || eval[string](p, shown) != "" {
			p.t.Errorf("first press: %d cells lit, digits %q shown", n, eval[string](p, shown))
		}
		// Then where: the house lit, still no digit.
		p.click("#hint")
		p.wait("where", `document.getElementById('status').textContent.startsWith('Hint 2 of 3')`)
		if got := p.statusText(); !strings.HasPrefix(got, "Hint 2 of 3: look in "+st.Houses[0].String()+".") {
			p.t.Errorf("second press: %q, want %s", got, st.Houses[0])
		}
		if n := eval[int](p, `document.querySelectorAll('#board .cell.hint-house, #board .cell.hint-cell').length`); n < 8 || eval[string](p, shown) != "" {
			p.t.Errorf("second press: %d cells lit (want the house's 9), digits %q", n, eval[string](p, shown))
		}
		// Then the move, drawn on its cell.
		p.click("#hint")
		p.wait("the move", `document.getElementById('status').textContent.startsWith('Hint 3 of 3')`)
		if got, want := eval[string](p, `document.querySelector('#status .steptext').textContent`), sudokupage.HintOf(st).Words; got != want {
			p.t.Errorf("third press: %q, want %q", got, want)
		}
		mv := st.Placements[0]
		if got := eval[string](p, cellJS(mv.Cell)+`.querySelector('.hv').textContent`); got != fmt.Sprint(mv.Digit) {
			p.t.Errorf("the move's digit shows %q in %s, want %d", got, sudoku.CellName(mv.Cell), mv.Digit)
		}
		p.contrast("a hint's move shown")
		// A fourth press applies it.
		p.click("#hint")
		p.wait("the move applied", fmt.Sprintf(`%s.dataset.value === '%d'`, cellJS(mv.Cell), mv.Digit))
	}},

	{"candidates filled", func(p *tab, base string) {
		p.fresh(base, base+"/sudoku?level=hidden&seed=8")
		g := apitest.Grid(p.t, eval[string](p, boardJS))
		want := make([]string, 81)
		for i := range want {
			if g[i] == 0 {
				want[i] = allowedDigits(g, i)
			}
		}
		check := func(how string) {
			p.t.Helper()
			got := marksOf(p)
			for i := range want {
				if got[i] != want[i] {
					p.t.Fatalf("%s: %s has candidates %q, want %q", how, sudoku.CellName(i), got[i], want[i])
				}
			}
			// Drawn: each candidate in its place of the cell's 3 by 3.
			i := strings.IndexByte(g.String(), '.')
			for _, c := range want[i] {
				d := int(c - '0')
				if got := eval[string](p, markJS(i, d)+`.textContent`); got != string(c) {
					p.t.Errorf("%s: candidate %d of %s shows %q", how, d, sudoku.CellName(i), got)
				}
			}
		}
		p.click("#fill")
		p.wait("the candidates", `document.querySelectorAll('#board .cell[data-marks]').length > 0`)
		check("the Candidates button")
		p.click("#undo")
		p.wait("undone", `document.querySelectorAll('#board .cell[data-marks]').length === 0`)
		p.click(cellSel(0))
		p.do(chromedp.KeyEvent("c"))
		p.wait("the candidates", `document.querySelectorAll('#board .cell[data-marks]').length > 0`)
		check("the C key")

		// Kept updated: a digit placed leaves its peers' candidates, a cell
		// emptied again gets its candidates back.
		p.click("#autocands")
		_, sol := sudoku.Solve(g, 1)
		i := strings.IndexByte(g.String(), '.')
		d := int(sol[i])
		p.click(cellSel(i))
		p.do(chromedp.KeyEvent(fmt.Sprint(d)))
		p.wait("the digit", fmt.Sprintf(`%s.dataset.value === '%d'`, cellJS(i), d))
		got := marksOf(p)
		for _, q := range peers(i) {
			if strings.ContainsRune(got[q], rune('0'+d)) {
				p.t.Errorf("%s still has candidate %d after %s = %d", sudoku.CellName(q), d, sudoku.CellName(i), d)
			}
		}
		p.do(chromedp.KeyEvent("\b"))
		p.wait("the cell emptied", fmt.Sprintf(`!%s.dataset.value`, cellJS(i)))
		g2 := apitest.Grid(p.t, eval[string](p, boardJS))
		if got := marksOf(p)[i]; got != allowedDigits(g2, i) {
			p.t.Errorf("%s emptied again has candidates %q, want %q", sudoku.CellName(i), got, allowedDigits(g2, i))
		}
		// The option is remembered.
		p.do(chromedp.Reload())
		p.wait("the page", `document.body.dataset.content === '1'`)
		if !eval[bool](p, `document.getElementById('autocands').checked`) {
			p.t.Error("Keep candidates updated forgotten on reload")
		}
	}},

	{"chain drawn", func(p *tab, base string) {
		p.fresh(base, base+"/sudoku?level=hidden&seed=9")
		gm, st := chainGame(p.t)
		pasteGame(p, gm)
		if got, want := hintStages(p), sudokupage.HintOf(st).Words; got != want {
			p.t.Fatalf("hint %q, want %q", got, want)
		}
		// One line per link, from candidate to candidate: its ends inside
		// the two candidates' circles, solid for a strong link, dashed for
		// a weak one.
		type line struct {
			From, To, Class, Dash string
			X1, Y1, X2, Y2        float64
		}
		lines := eval[[]line](p, `Array.from(document.querySelectorAll('#overlay path')).map(l => ({from: l.dataset.from, to: l.dataset.to, class: l.getAttribute('class'), dash: getComputedStyle(l).strokeDasharray, `+pathEnds+`}))`)
		if len(lines) != len(st.Links) {
			p.t.Fatalf("%d lines drawn for %d links", len(lines), len(st.Links))
		}
		box := p.rect(`document.getElementById('boardbox')`)
		near := func(x, y float64, m logic.Move) bool {
			r := p.rect(markJS(m.Cell, m.Digit))
			cx, cy := r.X-box.X+r.W/2, r.Y-box.Y+r.H/2
			return math.Hypot(x-cx, y-cy) <= math.Max(r.W, r.H)/2+1.5
		}
		strong := 0
		for i, l := range st.Links {
			ln := lines[i]
			if ln.From != fmt.Sprintf("%d:%d", l.From.Cell, l.From.Digit) || ln.To != fmt.Sprintf("%d:%d", l.To.Cell, l.To.Digit) {
				p.t.Errorf("line %d joins %s and %s, want link %v", i, ln.From, ln.To, l)
			}
			if !near(ln.X1, ln.Y1, l.From) || !near(ln.X2, ln.Y2, l.To) {
				p.t.Errorf("line %d (%.0f,%.0f)-(%.0f,%.0f) does not end on candidates %v and %v", i, ln.X1, ln.Y1, ln.X2, ln.Y2, l.From, l.To)
			}
			if dashed := ln.Dash != "none" && ln.Dash != ""; dashed == l.Strong || strings.Contains(ln.Class, "strong") != l.Strong {
				p.t.Errorf("line %d: class %q dash %q for a strong=%v link", i, ln.Class, ln.Dash, l.Strong)
			}
			if l.Strong {
				strong++
			}
		}
		if strong == 0 || strong == len(st.Links) {
			p.t.Errorf("%d strong links of %d: want both kinds drawn", strong, len(st.Links))
		}
		// The pattern's candidates in their colours; the eliminated ones
		// struck through in red.
		for _, m := range st.Marks {
			cls := eval[string](p, markJS(m.Cell, m.Digit)+`.className`)
			bg := p.cssColor(`getComputedStyle(` + markJS(m.Cell, m.Digit) + `).backgroundColor`)
			if !strings.Contains(cls, fmt.Sprintf("c%d", m.Color)) || bg == p.cssColor(`getComputedStyle(`+cellJS(m.Cell)+`).backgroundColor`) {
				p.t.Errorf("pattern candidate %v: class %q, background %v", m, cls, bg)
			}
		}
		red := p.cssColor(varColorJS("--clash"))
		for _, m := range st.Eliminations {
			deco := eval[string](p, `getComputedStyle(`+markJS(m.Cell, m.Digit)+`).textDecorationLine`)
			col := p.cssColor(`getComputedStyle(` + markJS(m.Cell, m.Digit) + `).textDecorationColor`)
			if !strings.Contains(deco, "line-through") || colorDist(col, red) > 3 {
				p.t.Errorf("eliminated candidate %v: decoration %q, colour %v, want struck in %v", m, deco, col, red)
			}
		}
		p.contrast("a chain drawn")
		if os.Getenv("NQCOUNT_SCREENSHOTS") != "" {
			p.viewport(1100, 1000, false)
			p.shot("sudoku.png")
		}
		// On the phone the same lines join the same candidates.
		p.viewport(390, 844, true)
		p.wait("the phone layout", `document.documentElement.scrollWidth <= 390`)
		p.wait("the lines redrawn", `document.querySelectorAll('#overlay path').length === `+strconv.Itoa(len(st.Links)))
		box = p.rect(`document.getElementById('boardbox')`)
		lines = eval[[]line](p, `Array.from(document.querySelectorAll('#overlay path')).map(l => ({`+pathEnds+`}))`)
		for i, l := range st.Links {
			if !near(lines[i].X1, lines[i].Y1, l.From) || !near(lines[i].X2, lines[i].Y2, l.To) {
				p.t.Errorf("phone: line %d does not end on candidates %v and %v", i, l.From, l.To)
			}
		}
		// The elimination applied stays out of the candidates.
		p.click("#apply")
		m := st.Eliminations[0]
		p.wait("the candidate removed", fmt.Sprintf(`!(%s.dataset.marks||'').includes('%d')`, cellJS(m.Cell), m.Digit))
	}},

	{"solve then undo", func(p *tab, base string) {
		p.fresh(base, base+"/sudoku?level=singles&seed=21")
		gen := apitest.Puzzle(p.t, generate.Options{Level: sudoku.Singles, Seed: 21}, 0)
		start := eval[string](p, boardJS)
		p.click("#solve")
		p.wait("the solution", boardJS+` === '`+gen.Solution.String()+`'`)
		time.Sleep(300 * time.Millisecond)
		if st := p.statusText(); !strings.HasPrefix(st, "Solved by the computer") || strings.Contains(st, "Well done") {
			p.t.Errorf("after Solve: %q", st)
		}
		p.click("#undo")
		p.wait("the board back", boardJS+` === '`+start+`'`)
		// Playable: a digit typed goes in, and the clock runs.
		i := strings.IndexByte(start, '.')
		p.click(cellSel(i))
		p.do(chromedp.KeyEvent(fmt.Sprint(gen.Solution[i])))
		p.wait("the digit typed", fmt.Sprintf(`%s.dataset.value === '%d'`, cellJS(i), gen.Solution[i]))
		t0 := eval[string](p, `document.getElementById('timer').textContent`)
		p.waitFor("the clock", `document.getElementById('timer').textContent !== '`+t0+`'`, 5*time.Second)
		// After a reload the game is not "solved".
		p.do(chromedp.Reload())
		p.wait("the page", `document.body.dataset.content === '1'`)
		if st := p.statusText(); strings.Contains(st, "Solved") || !strings.Contains(eval[string](p, boardJS), ".") {
			p.t.Errorf("after reload: %q on %s", st, eval[string](p, boardJS))
		}
		j := strings.LastIndexByte(start, '.')
		p.click(cellSel(j))
		p.do(chromedp.KeyEvent(fmt.Sprint(gen.Solution[j])))
		p.wait("a digit typed after the reload", fmt.Sprintf(`%s.dataset.value === '%d'`, cellJS(j), gen.Solution[j]))
	}},

	{"several solutions", func(p *tab, base string) {
		p.fresh(base, base+"/sudoku?level=singles&seed=3")
		// top1 without its first clue: 16 clues, several solutions.
		several := "." + top1[1:]
		p.click("#enter")
		p.wait("typing", `document.body.classList.contains('entering')`)
		for i, c := range several {
			if c != '.' {
				p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector('%s').dispatchEvent(new PointerEvent('pointerdown', {bubbles: true}))`, cellSel(i))))
				p.do(chromedp.KeyEvent(string(c)))
			}
		}
		p.wait("the verdict", `document.getElementById('status').textContent.includes('Several solutions')`)
		p.click("#start")
		p.wait("play", `!document.body.classList.contains('entering')`)
		if st := p.statusText(); !strings.Contains(st, "Check says whether your digits still lead to one") || strings.Contains(st, "use one of them") {
			p.t.Errorf("start: %q", st)
		}
		p.click("#check")
		p.wait("the check", `document.getElementById('status').textContent.startsWith('No contradiction')`)
		p.click("#solve")
		p.wait("a solution", `!document.querySelector('#board .cell:not([data-value="1"]):not([data-value="2"]):not([data-value="3"]):not([data-value="4"]):not([data-value="5"]):not([data-value="6"]):not([data-value="7"]):not([data-value="8"]):not([data-value="9"])')`)
		g := apitest.Grid(p.t, eval[string](p, boardJS))
		if g.Check() != nil || !strings.HasPrefix(p.statusText(), "Solved by the computer, one of the solutions") {
			p.t.Errorf("solve: %s, %q", g, p.statusText())
		}
		for i := range several {
			if several[i] != '.' && g[i] != several[i]-'0' {
				p.t.Fatalf("solve changed the given %s", sudoku.CellName(i))
			}
		}
	}},

	{"asks before discarding", func(p *tab, base string) {
		p.fresh(base, base+"/sudoku?level=singles&seed=5")
		start := eval[string](p, boardJS)
		i := strings.IndexByte(start, '.')
		p.click(cellSel(i))
		p.do(chromedp.KeyEvent("7"))
		played := eval[string](p, boardJS)
		for _, b := range []string{"#new", "#enter"} {
			p.click(b)
			p.wait("the question", `!!document.getElementById('discard')`)
			if st := p.statusText(); !strings.Contains(st, "Discard the game in progress (1 digit entered") {
				p.t.Errorf("%s: %q", b, st)
			}
			p.click("#keep")
			if got := eval[string](p, boardJS); got != played {
				p.t.Errorf("%s, Keep playing: the board changed", b)
			}
		}
		p.click("#new")
		p.wait("the question", `!!document.getElementById('discard')`)
		p.click("#discard")
		p.wait("a new puzzle", boardJS+` !== '`+played+`' && !document.getElementById('discard')`)
	}},

	{"difficulty remembered", func(p *tab, base string) {
		p.fresh(base, base+"/sudoku")
		p.do(chromedp.Evaluate[chromedp.Void](`(s => { s.value = 'intermediate'; s.dispatchEvent(new Event('change')); })(document.getElementById('level'))`))
		p.do(chromedp.Reload())
		p.wait("the page", `document.body.dataset.ready === '1'`)
		if v := eval[string](p, `document.getElementById('level').value`); v != "intermediate" {
			p.t.Errorf("difficulty after reload: %q", v)
		}
	}},

	{"pasted puzzle rated", func(p *tab, base string) {
		p.fresh(base, base+"/sudoku?level=singles&seed=5")
		r, err := logic.Rate(apitest.Grid(p.t, top1))
		if err != nil {
			p.t.Fatal(err)
		}
		p.do(chromedp.SetValue(chromedp.ID("paste"), top1))
		p.click("#usepaste")
		p.wait("the pasted puzzle", boardJS+` === '`+top1+`'`)
		want := fmt.Sprintf("your puzzle · %s %.1f", r.Level, r.Score)
		p.wait("the rating", `document.getElementById('source').textContent === `+strconv.Quote(want))
	}},

	{"timer pause", func(p *tab, base string) {
		p.fresh(base, base+"/sudoku?level=singles&seed=6")
		t0 := eval[string](p, `document.getElementById('timer').textContent`)
		p.waitFor("the clock", `document.getElementById('timer').textContent !== '`+t0+`'`, 5*time.Second)
		p.click("#pause")
		p.wait("paused", `!document.getElementById('cover').hidden`)
		// The board is hidden, the clock stands, keys do nothing.
		if r := p.rect(`document.getElementById('cover')`); r.W < 300 || r.H < 300 {
			p.t.Errorf("the cover is %.0f by %.0f", r.W, r.H)
		}
		board := eval[string](p, boardJS)
		t1 := eval[string](p, `document.getElementById('timer').textContent`)
		p.do(chromedp.KeyEvent("5"))
		time.Sleep(2100 * time.Millisecond)
		if t2 := eval[string](p, `document.getElementById('timer').textContent`); t2 != t1 || eval[string](p, boardJS) != board {
			p.t.Errorf("paused: the clock went from %s to %s, or the board changed", t1, t2)
		}
		p.click("#resume")
		p.waitFor("the clock again", `document.getElementById('timer').textContent !== '`+t1+`'`, 5*time.Second)
	}},

	{"focus ring", func(p *tab, base string) {
		p.fresh(base, base+"/sudoku?level=singles&seed=5")
		ring := p.cssColor(varColorJS("--focus"))
		for _, i := range []int{40, 30, 80} {
			p.click(cellSel(i))
			r := p.rect(cellJS(i))
			img, dpr := p.pixels()
			// The whole ring shows: on all four sides, inside the cell.
			for _, pt := range [][2]float64{{r.X + r.W/2, r.Y + 1.5}, {r.X + r.W/2, r.Y + r.H - 1.5}, {r.X + 1.5, r.Y + r.H/2}, {r.X + r.W - 1.5, r.Y + r.H/2}} {
				if c := colorAt(img, dpr, pt[0], pt[1]); colorDist(c, ring) > 40 {
					p.t.Errorf("%s selected: at (%.1f, %.1f) colour %v, want the ring's %v", sudoku.CellName(i), pt[0], pt[1], c, ring)
				}
			}
		}
	}},

	{"phone", func(p *tab, base string) {
		p.viewport(390, 844, true)
		p.fresh(base, base+"/sudoku?level=hard&seed="+loopSeed)
		p.wait("the phone layout", `document.documentElement.scrollWidth <= 390`)
		if w := p.rect(`document.getElementById('board')`).W; w > 390 || w < 340 {
			p.t.Errorf("board %.0f px wide on a 390 px screen", w)
		}
		// The pad, the tools and the explanation are on the first screen,
		// beside each other under the board.
		inView := func(what, sel string) {
			p.t.Helper()
			r := p.rect(`document.querySelector('` + sel + `')`)
			if r.Y < 0 || r.Y+r.H > 844 || r.W == 0 {
				p.t.Errorf("%s at y %.0f-%.0f, outside the 844 px screen", what, r.Y, r.Y+r.H)
			}
		}
		for _, c := range [][2]string{{"the pad", "#pad"}, {"Hint", "#hint"}, {"Check", "#check"}, {"Solve", "#solve"}, {"the explanation", "#status"}} {
			inView(c[0], c[1])
		}
		pad, tools := p.rect(`document.getElementById('pad')`), p.rect(`document.querySelector('.tools')`)
		if tools.X < pad.X+pad.W || math.Abs(tools.Y-pad.Y) > 10 {
			p.t.Errorf("the tools (%+v) are not beside the pad (%+v)", tools, pad)
		}
		p.click("#fill")
		p.wait("the candidates", `document.querySelectorAll('#board .cell[data-marks]').length > 0`)
		i := strings.IndexByte(eval[string](p, boardJS), '.')
		d := marksOf(p)[i][0] - '0'
		if fs := eval[float64](p, `parseFloat(getComputedStyle(`+markJS(i, int(d))+`).fontSize)`); fs < 11 {
			p.t.Errorf("candidates drawn at %.1f px", fs)
		}
		text := hintStages(p)
		inView("the explanation after a hint", "#status")
		if got := eval[float64](p, `window.scrollY`); got > 0 {
			p.t.Logf("scrolled to %.0f", got)
		}
		p.shot("sudoku-phone.png")
		p.contrast("the phone, a hint's move shown")
		p.click("#apply")
		p.wait("applied", `!document.getElementById('apply')`)
		p.t.Logf("hint on the phone: %s", text)
		inView("the explanation after Apply", "#status")
	}},

	{"dark theme", func(p *tab, base string) {
		p.dark(true)
		p.fresh(base, base+"/sudoku?level=hidden&seed=7")
		bg := p.cssColor(`getComputedStyle(document.body).backgroundColor`)
		if bg[0]+bg[1]+bg[2] > 3*60 {
			p.t.Errorf("dark system, page background %v", bg)
		}
		p.click("#fill")
		hintStages(p)
		p.contrast("the dark theme")
		p.shot("sudoku-dark.png")
		gm, _ := chainGame(p.t)
		pasteGame(p, gm)
		hintStages(p)
		p.contrast("a chain in the dark theme")
		p.dark(false)
		p.wait("the light theme", `getComputedStyle(document.body).backgroundColor === 'rgb(244, 246, 251)'`)
	}},
}
