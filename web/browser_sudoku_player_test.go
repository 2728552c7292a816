package web_test

import (
	"bufio"
	"bytes"
	"fmt"
	"github.com/nqcount/nqcount/web/internal/apitest"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/generate"
	"github.com/nqcount/nqcount/count/sudoku/logic"
	"github.com/nqcount/nqcount/internal/refdata"
	"github.com/nqcount/nqcount/web"
	"github.com/nqcount/nqcount/web/queenspage"
	"github.com/nqcount/nqcount/web/sudokupage"
)

// The Sudoku page as a player meets it, each a step a player takes:
// defects a player met, fixed, and
// what players of the best apps expect (the chosen digit's candidates
// lit, complete digits on the pad, candidates coloured, a theme switch).

// topLine returns line n (from 1) of magictour-top1465.
func topLine(t *testing.T, n int) string {
	t.Helper()
	f, err := os.Open(refdata.File(t, "sudoku", "magictour-top1465.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for i := 1; sc.Scan(); i++ {
		if i == n {
			return strings.ReplaceAll(strings.TrimSpace(sc.Text()), "0", ".")
		}
	}
	t.Fatalf("magictour-top1465 has no line %d", n)
	return ""
}

// gameAt plays a puzzle hint after hint from its digits alone, as a
// player pressing Hint and Apply does, and returns the game before the
// first hint for which stop holds (the hint's number counts from 1).
func gameAt(t *testing.T, puzzle string, stop func(n int, st logic.Step) bool) (sudokupage.Game, sudokupage.Hint) {
	t.Helper()
	pl := newPlayer(puzzle)
	h := handlerHinter(web.New(web.Options{Pages: pages(queenspage.Options{Workers: 1})}))
	for n := 1; n < 200; n++ {
		st, err := h(pl.request())
		if err != nil {
			t.Fatal(err)
		}
		if st.Technique == "solved" {
			break
		}
		if stop(n, st) {
			gm := sudokupage.Game{Puzzle: puzzle, Progress: string(pl.grid[:]), Marks: make([]string, 81)}
			for i, m := range pl.marks {
				for d := 1; d <= 9; d++ {
					if m&(1<<d) != 0 && pl.grid[i] == '.' {
						gm.Marks[i] += strconv.Itoa(d)
					}
				}
			}
			return gm, sudokupage.HintOf(st)
		}
		pl.apply(st)
	}
	t.Fatalf("%s: no such hint", puzzle)
	return sudokupage.Game{}, sudokupage.Hint{}
}

// pathsJS lists the links drawn: their branch, ends, and the closest any
// of them passes to a candidate shown other than its two ends, as a part
// of that candidate's radius.
const pathsJS = `(() => {
  const box = document.getElementById('boardbox').getBoundingClientRect();
  const cands = [];
  document.querySelectorAll('#board .cell').forEach((c, i) => {
    const cs = c.querySelector('.cands');
    if (cs.hidden) return;
    Array.from(cs.children).forEach((m, j) => {
      if (!m.textContent) return;
      const r = m.getBoundingClientRect();
      cands.push({k: i + ':' + (j + 1), x: r.left - box.left + r.width / 2, y: r.top - box.top + r.height / 2, r: Math.min(r.width, r.height) / 2});
    });
  });
  return Array.from(document.querySelectorAll('#overlay path')).map(p => {
    const len = p.getTotalLength();
    let closest = 99, what = '';
    for (let s = 0; s <= len; s += 0.5) {
      const pt = p.getPointAtLength(s);
      for (const c of cands) {
        if (c.k === p.dataset.from || c.k === p.dataset.to) continue;
        const d = Math.hypot(pt.x - c.x, pt.y - c.y) / c.r;
        if (d < closest) { closest = d; what = c.k; }
      }
    }
    return {branch: +p.dataset.branch, from: p.dataset.from, to: p.dataset.to, closest, what};
  });
})()`

type drawnLink struct {
	Branch   int
	From, To string
	Closest  float64
	What     string
}

// checkBranches checks that every branch of the hint h is drawn, each
// link once, and that no line runs across a candidate other than its
// ends: it passes no closer to one's centre than half its radius (the
// glyph's middle).
func checkBranches(p *tab, h sudokupage.Hint, what string) {
	p.t.Helper()
	want := 0
	for _, b := range h.Branches {
		want += len(b)
	}
	p.wait("the branches drawn", `document.querySelectorAll('#overlay path').length === `+strconv.Itoa(want))
	got := eval[[]drawnLink](p, pathsJS)
	k := 0
	for bi, b := range h.Branches {
		for _, l := range b {
			d := got[k]
			k++
			if d.Branch != bi || d.From != fmt.Sprintf("%d:%d", l.From.Cell, l.From.Digit) || d.To != fmt.Sprintf("%d:%d", l.To.Cell, l.To.Digit) {
				p.t.Errorf("%s: link %d drawn as branch %d %s-%s, want branch %d %v", what, k, d.Branch, d.From, d.To, bi, l)
			}
			if d.Closest < 0.5 {
				p.t.Errorf("%s: the line of branch %d from %s to %s runs across candidate %s (%.2f radii from its centre)", what, bi+1, d.From, d.To, d.What, d.Closest)
			}
		}
	}
}

// smallShot is shot, the PNG compressed as well as image/png can (the
// README's screenshots stay under 200 KB).
func (p *tab) smallShot(name string) {
	p.t.Helper()
	dir := os.Getenv("NQCOUNT_SCREENSHOTS")
	if dir == "" {
		return
	}
	p.do(chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`), chromedp.Sleep(250*time.Millisecond))
	img, _ := p.pixels()
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
		p.t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot %s (%d KB)", path, buf.Len()/1024)
}

var playerSteps = []pageStep{
	{"erase a wrong digit", func(p *tab, base string) {
		// A wrong digit erased gives back what it took: top1465 line 1400, candidates filled, 2 typed
		// in r1c2, Hint, Erase them, Hint.
		p.fresh(base, base+"/sudoku?level=singles&seed=3")
		puzzle := topLine(p.t, 1400)
		pasteGame(p, sudokupage.Game{Puzzle: puzzle})
		p.click("#fill")
		p.wait("the candidates", `document.querySelectorAll('#board .cell[data-marks]').length > 0`)
		before := marksOf(p)
		p.click(cellSel(1))
		p.do(chromedp.KeyEvent("2"))
		p.wait("the digit", cellJS(1)+`.dataset.value === '2'`)
		p.click("#hint")
		p.waitFor("the mistake", `document.getElementById('status').textContent.includes('wrong')`, hintWait)
		p.click("#apply")
		p.wait("erased", `!`+cellJS(1)+`.dataset.value`)
		after := marksOf(p)
		for i := range before {
			if after[i] != before[i] {
				p.t.Errorf("after Erase them %s has candidates %q, before the 2 %q", sudoku.CellName(i), after[i], before[i])
			}
		}
		if st := p.statusText(); strings.Contains(st, "wrong") || eval[int](p, `document.querySelectorAll('#board .cell.wrong, #board .cell.clash').length`) > 0 {
			p.t.Errorf("after Erase them: %q, cells still marked wrong", st)
		}
		p.click("#hint")
		p.waitFor("the next hint", `/^Hint 1 of 3|^Mistake|removed/.test(document.getElementById('status').textContent)`, hintWait)
		if st := p.statusText(); !strings.HasPrefix(st, "Hint 1 of 3") {
			p.t.Errorf("the hint after Erase them: %q", st)
		}
	}},

	{"forcing chain branches", func(p *tab, base string) {
		// The multi-branch chains of top1465 line 1100 (hint 23)
		// and line 700 (hint 15), every branch drawn, none across other
		// candidates, then one branch at a time.
		p.fresh(base, base+"/sudoku?level=singles&seed=3")
		for _, c := range []struct{ line, hint int }{{700, 15}, {1100, 23}} {
			what := fmt.Sprintf("line %d hint %d", c.line, c.hint)
			gm, h := gameAt(p.t, topLine(p.t, c.line), func(n int, _ logic.Step) bool { return n == c.hint })
			if len(h.Branches) < 3 {
				p.t.Fatalf("%s: %s with %d branches", what, h.Technique, len(h.Branches))
			}
			pasteGame(p, gm)
			if got := hintStages(p); got != h.Words {
				p.t.Errorf("%s: %q, want %q", what, got, h.Words)
			}
			checkBranches(p, h, what)
			p.contrast(what)
			if c.line == 1100 {
				// At 1280 and 390 px (the README's screenshots with
				// NQCOUNT_SCREENSHOTS set, at one pixel per CSS pixel).
				p.viewport(1280, 1100, false)
				checkBranches(p, h, what+" at 1280 px")
				p.smallShot("sudoku-forcing-chain.png")
				p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
				p.wait("the phone layout", `document.documentElement.scrollWidth <= 390`)
				checkBranches(p, h, what+" at 390 px")
				p.smallShot("sudoku-forcing-chain-phone.png")
				p.viewport(1100, 860, false)
			}
			// One branch at a time.
			for bi, b := range h.Branches {
				p.click("#branch-" + strconv.Itoa(bi))
				p.wait("branch "+strconv.Itoa(bi+1), fmt.Sprintf(`document.querySelectorAll('#overlay path').length === %d && Array.from(document.querySelectorAll('#overlay path')).every(p => p.dataset.branch === '%d')`, len(b), bi))
				if got, want := eval[string](p, `(t => t ? t.textContent : '')(document.querySelector('#status .branchtext'))`), fmt.Sprintf("Branch %d: %s.", bi+1, h.BranchWords[bi]); got != want {
					p.t.Errorf("%s, branch %d: %q, want %q", what, bi+1, got, want)
				}
			}
			p.click("#branch-all")
			checkBranches(p, h, what+", all again")
		}
	}},

	{"hints in words", func(p *tab, base string) {
		// Names without codes, no "<>" or "->", "Full House" at
		// every stage, a glossary entry reached from the hint.
		p.fresh(base, base+"/sudoku?level=singles&seed=3")
		for _, key := range sudokupage.GlossaryKeys() {
			if n := eval[int](p, `(d => d && d.nextElementSibling.textContent.length || 0)(document.getElementById('g-`+key+`'))`); n < 40 {
				p.t.Errorf("glossary entry %q: %d characters", key, n)
			}
		}
		code := regexp.MustCompile(` \d{3,}$`)
		puzzle := topLine(p.t, 700)
		for _, c := range []struct {
			what string
			stop func(int, logic.Step) bool
		}{
			{"a technique with a code", func(_ int, st logic.Step) bool { return code.MatchString(st.Technique) }},
			{"a forcing chain", func(_ int, st logic.Step) bool { return strings.Contains(st.Text, "->") }},
			{"a full house", func(_ int, st logic.Step) bool { return st.Technique == "Hidden Single" && st.Score == 1.0 }},
		} {
			gm, h := gameAt(p.t, puzzle, c.stop)
			pasteGame(p, gm)
			p.click("#hint")
			p.waitFor("the first stage", `document.getElementById('status').textContent.startsWith('Hint 1 of 3')`, hintWait)
			first := p.statusText()
			if !strings.Contains(first, h.Name) || (h.Name != h.Technique && strings.Contains(first, h.Technique)) {
				p.t.Errorf("%s (%s): %q", c.what, h.Technique, first)
			}
			if c.what == "a full house" && !strings.Contains(first, "Full House") {
				p.t.Errorf("a full house at stage 1: %q", first)
			}
			p.click("#status a.gloss")
			p.wait("the glossary entry", `document.getElementById('glossary').open && document.activeElement.id === 'g-`+h.Glossary+`' && document.activeElement.classList.contains('lit')`)
			p.click("#hint")
			p.click("#hint")
			p.wait("the third stage", `!!document.querySelector('#status .steptext')`)
			third := eval[string](p, `document.querySelector('#status .steptext').textContent`)
			if strings.Contains(third, "<>") || strings.Contains(third, "->") || (code.MatchString(h.Technique) && strings.Contains(third, code.FindString(h.Technique))) {
				p.t.Errorf("%s: %q", c.what, third)
			}
			if c.what == "a full house" && !strings.Contains(third, "full house") {
				p.t.Errorf("a full house at stage 3: %q", third)
			}
			p.t.Logf("%s: %s / %s", c.what, first, third)
		}
	}},

	{"contrast of every mark", func(p *tab, base string) {
		// Every kind of candidate (plain, the pattern's colours,
		// struck, placed, lit, the player's colours, and struck over a
		// colour) on every kind of cell, at 4.5:1 in both themes.
		p.fresh(base, base+"/sudoku?level=hidden&seed=7")
		p.click("#fill")
		p.wait("the candidates", `document.querySelectorAll('#board .cell[data-marks]').length > 0`)
		const paint = `(() => {
  const cellKinds = ['', 'peer', 'same', 'sel', 'hint-house', 'hint-cell', 'clash'];
  const markKinds = ['', 'c0', 'c1', 'c2', 'c3', 'elim', 'c0 elim', 'c1 elim', 'c2 elim', 'c3 elim', 'place', 'hl', 'u0', 'u1'];
  document.querySelectorAll('#board .cell').forEach((c, k) => {
    if (c.dataset.value) return;
    c.className = 'cell ' + cellKinds[k % cellKinds.length];
    const cs = c.querySelector('.cands');
    cs.hidden = false;
    Array.from(cs.children).forEach((m, j) => { m.textContent = String(j + 1); m.className = 'm ' + markKinds[(k + j) % markKinds.length]; });
  });
})()`
		for _, theme := range []string{"light", "dark"} {
			p.do(chromedp.Evaluate[chromedp.Void](`document.documentElement.dataset.theme = '` + theme + `'`))
			p.do(chromedp.Evaluate[chromedp.Void](paint))
			p.contrast("every candidate, " + theme + " theme")
		}
	}},

	{"320 px", func(p *tab, base string) {
		// No wider than the screen, "N-queens" on one line.
		p.viewport(320, 700, true)
		p.fresh(base, base+"/sudoku?level=singles&seed=3")
		if w := eval[float64](p, `document.documentElement.scrollWidth`); w > 320 {
			p.t.Errorf("the page is %.0f px wide on a 320 px screen", w)
		}
		nq, sd := p.rect(`document.querySelector('.top nav a[href="/queens"]')`), p.rect(`document.querySelector('.top nav a[href="/sudoku"]')`)
		if nq.H > sd.H+1 {
			p.t.Errorf(`"N-queens" is %.0f px high, "Sudoku" %.0f: it wraps`, nq.H, sd.H)
		}
		p.contrast("320 px")
	}},

	{"reload keeps the clock and undo", func(p *tab, base string) {
		// The clock to the second, and the undo history.
		p.fresh(base, base+"/sudoku?level=singles&seed=21")
		gen := apitest.Puzzle(p.t, generate.Options{Level: sudoku.Singles, Seed: 21}, 0)
		i := strings.IndexByte(gen.Puzzle.String(), '.')
		p.click(cellSel(i))
		p.do(chromedp.KeyEvent(fmt.Sprint(gen.Solution[i])))
		p.wait("the digit", fmt.Sprintf(`%s.dataset.value === '%d'`, cellJS(i), gen.Solution[i]))
		p.waitFor("four seconds", `document.getElementById('timer').textContent === '0:04'`, 10*time.Second)
		p.do(chromedp.Reload())
		p.wait("the page", `document.body.dataset.content === '1'`)
		if tm := eval[string](p, `document.getElementById('timer').textContent`); tm < "0:04" {
			p.t.Errorf("the timer after a reload at 0:04: %s", tm)
		}
		p.click(cellSel(0))
		p.do(chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
		p.wait("the digit undone after the reload", `!`+cellJS(i)+`.dataset.value`)
	}},

	{"questions get the focus", func(p *tab, base string) {
		p.fresh(base, base+"/sudoku?level=singles&seed=5")
		i := strings.IndexByte(eval[string](p, boardJS), '.')
		p.click(cellSel(i))
		p.do(chromedp.KeyEvent("7"))
		p.click("#new")
		p.wait("the question", `!!document.getElementById('keep')`)
		if id := eval[string](p, `document.activeElement.id`); id != "keep" && id != "discard" {
			p.t.Errorf("the question's buttons shown, the focus on %q", id)
		}
	}},

	{"typing a puzzle", func(p *tab, base string) {
		// The cursor moves on: 12345678 are eight clues, and one is "1 clue".
		p.fresh(base, base+"/sudoku?level=singles&seed=3")
		p.click("#enter")
		p.wait("typing", `document.body.classList.contains('entering')`)
		p.click(cellSel(0))
		p.do(chromedp.KeyEvent("1"))
		p.wait("one clue", `document.getElementById('status').textContent.startsWith('1 clue.')`)
		if st := p.statusText(); strings.Contains(st, "1 clues") {
			p.t.Errorf("%q", st)
		}
		for _, k := range "2345678" {
			p.do(chromedp.KeyEvent(string(k)))
		}
		p.wait("eight clues", `document.getElementById('status').textContent.startsWith('8 clues.')`)
		if got := eval[string](p, boardJS)[:9]; got != "12345678." {
			p.t.Errorf("first row %q", got)
		}
	}},

	{"paused hint and solve", func(p *tab, base string) {
		p.fresh(base, base+"/sudoku?level=singles&seed=6")
		board := eval[string](p, boardJS)
		p.click("#pause")
		p.wait("paused", `!document.getElementById('cover').hidden`)
		for _, b := range []string{"#hint", "#solve"} {
			p.do(chromedp.Evaluate[chromedp.Void](`document.getElementById('status').textContent = ''`))
			p.click(b)
			p.wait(b+" answered", `document.getElementById('status').textContent !== ''`)
			if st := p.statusText(); !strings.Contains(st, "Paused") {
				p.t.Errorf("%s while paused: %q", b, st)
			}
		}
		if eval[string](p, boardJS) != board {
			p.t.Error("the board changed while paused")
		}
	}},

	{"random symmetry named", func(p *tab, base string) {
		p.fresh(base, base+"/sudoku?level=singles&seed=3")
		p.do(chromedp.SetValue(chromedp.ID("symmetry"), "random"), chromedp.SetValue(chromedp.ID("seed"), "77"))
		p.click("#new")
		p.wait("the puzzle", `document.getElementById('status').textContent.startsWith('New ')`)
		st := p.statusText()
		if !regexp.MustCompile(`symmetry (half turn|quarter turn|mirror|diagonal) \(drawn at random\)`).MatchString(st) {
			p.t.Errorf("random symmetry: %q", st)
		}
		if src := eval[string](p, `document.getElementById('source').textContent`); !strings.Contains(src, "drawn at random") {
			p.t.Errorf("source line %q", src)
		}
	}},

	{"what players expect", func(p *tab, base string) {
		p.fresh(base, base+"/sudoku?level=hidden&seed=7")
		gen := apitest.Puzzle(p.t, generate.Options{Level: sudoku.Hidden, Seed: 7}, 0)
		p.click("#fill")
		p.wait("the candidates", `document.querySelectorAll('#board .cell[data-marks]').length > 0`)
		// A given chosen: every candidate of its digit lit.
		g := strings.IndexFunc(gen.Puzzle.String(), func(r rune) bool { return r != '.' })
		d := int(gen.Puzzle[g])
		p.click(cellSel(g))
		lit := eval[int](p, `document.querySelectorAll('#board .m.hl').length`)
		want := 0
		for _, m := range marksOf(p) {
			if strings.ContainsRune(m, rune('0'+d)) {
				want++
			}
		}
		if lit != want || want == 0 {
			p.t.Errorf("digit %d chosen: %d candidates lit, want %d", d, lit, want)
		}
		// Colours: a candidate coloured green, orange, then plain.
		e := strings.IndexByte(gen.Puzzle.String(), '.')
		c := int(marksOf(p)[e][0] - '0')
		p.click("#colour")
		p.click(cellSel(e))
		for _, cls := range []string{"u0", "u1", ""} {
			p.do(chromedp.KeyEvent(strconv.Itoa(c)))
			got := eval[string](p, markJS(e, c)+`.className`)
			if (cls == "" && strings.Contains(got, " u")) || (cls != "" && !strings.Contains(got, cls)) {
				p.t.Errorf("colouring %d in %s: class %q, want %q", c, sudoku.CellName(e), got, cls)
			}
		}
		if eval[string](p, cellJS(e)+`.dataset.value || ''`) != "" {
			p.t.Error("colouring entered a digit")
		}
		p.click("#colour")
		// The pad: a digit all nine of whose places are filled.
		progress := []byte(gen.Puzzle.String())
		for i := range progress {
			if gen.Solution[i] == 1 {
				progress[i] = '1'
			}
		}
		pasteGame(p, sudokupage.Game{Puzzle: gen.Puzzle.String(), Progress: string(progress)})
		if !eval[bool](p, `document.querySelector('#pad .btn:nth-child(1)').classList.contains('done') && !document.querySelector('#pad .btn:nth-child(2)').classList.contains('done')`) ||
			!strings.Contains(eval[string](p, `document.querySelector('#pad .btn:nth-child(1)').getAttribute('aria-label')`), "all nine") {
			p.t.Error("digit 1 complete, not shown on the pad")
		}
		p.contrast("the pad with a digit complete")
		// The theme switch: auto, light, dark, kept over a reload.
		p.click("#theme")
		p.wait("light", `document.documentElement.dataset.theme === 'light'`)
		p.click("#theme")
		p.wait("dark", `document.documentElement.dataset.theme === 'dark'`)
		p.do(chromedp.Reload())
		p.wait("the page", `document.body.dataset.content === '1'`)
		bg := p.cssColor(`getComputedStyle(document.body).backgroundColor`)
		if eval[string](p, `document.documentElement.dataset.theme || ''`) != "dark" || bg[0]+bg[1]+bg[2] > 3*60 {
			p.t.Errorf("dark chosen, after a reload: background %v", bg)
		}
		p.contrast("the dark theme chosen")
		// The n-queens page takes the theme chosen here, in a light
		// system too, and follows a change made in another tab.
		p.do(chromedp.Navigate(base + "/queens?n=6"))
		p.wait("the n-queens page", `document.body.dataset.content === '1'`)
		bg = p.cssColor(`getComputedStyle(document.body).backgroundColor`)
		if eval[string](p, `document.documentElement.dataset.theme || ''`) != "dark" || bg[0]+bg[1]+bg[2] > 3*60 {
			p.t.Errorf("dark chosen on the Sudoku page, the n-queens page: theme %q, background %v", eval[string](p, `document.documentElement.dataset.theme || ''`), bg)
		}
		p.contrast("the n-queens page in the dark theme chosen")
		other := newTab(p.t, p.ctx)
		other.do(chromedp.Navigate(base + "/sudoku"))
		other.wait("the Sudoku page", `document.body.dataset.content === '1'`)
		other.click("#theme") // dark -> auto
		other.wait("auto", `!document.documentElement.dataset.theme`)
		p.wait("the n-queens page following the other tab", `!document.documentElement.dataset.theme`)
		p.do(chromedp.Navigate(base + "/sudoku"))
		p.wait("the page", `document.body.dataset.content === '1'`)
	}},
}

func init() {
	playerSteps = append(playerSteps, pageStep{"in every language", func(p *tab, base string) {
		// The page's words in the player's language: the status lines, a
		// hint at each of its stages, the buttons it offers, the
		// glossary, the labels a screen reader speaks. No key shown.
		keys := catalogueKeys(p.t)
		for _, lang := range []string{"en", "ro", "ko", "zh-Hant", "id"} {
			text := func(key string, params ...string) string {
				s := catalogueText(p.t, lang, key)
				for i := 0; i+1 < len(params); i += 2 {
					s = strings.ReplaceAll(s, "{"+params[i]+"}", params[i+1])
				}
				return s
			}
			p.fresh(base, base+"/sudoku?level=singles&seed=3&lang="+lang)
			p.wait("the catalogue", `document.documentElement.dataset.i18n === '`+lang+`'`)
			p.click("#fill")
			noKeys(p, keys, lang+" Sudoku page, candidates filled")
			for k := 1; k <= 3; k++ {
				p.click("#hint")
				stage := strings.TrimSpace(text("s.hint.stage", "k", strconv.Itoa(k)))
				p.wait("hint stage "+strconv.Itoa(k), `document.getElementById('status').textContent.includes(`+strconv.Quote(stage)+`)`)
				noKeys(p, keys, lang+" Sudoku page, hint stage "+strconv.Itoa(k))
				if k == 3 {
					if got := eval[string](p, `document.getElementById('apply').textContent`); got != text("s.btn.apply") {
						p.t.Errorf("%s: the Apply button says %q", lang, got)
					}
					// The hint's sentence too, from the engine's message
					// (sudokupage.Hint.Message) in the catalogue.
					if step := eval[string](p, `document.querySelector('#status .steptext').textContent`); step == "" || (lang != "en" && englishHint.MatchString(step)) {
						p.t.Errorf("%s: the hint says %q", lang, step)
					}
					p.viewport(1100, 1250, false) // the hint in the picture
					p.shot("sudoku-hint-" + lang + ".png")
					p.viewport(1100, 860, false)
				}
			}
			if got := eval[[]string](p, `[document.getElementById('g-kite').textContent, document.getElementById('g-kite').nextElementSibling.textContent, document.querySelector('#pad .btn').getAttribute('aria-label'), document.getElementById('hint').textContent]`); !slices.Equal(got, []string{text("s.gl.kite"), text("s.gl.kite.text"), text("s.pad.digit", "d", "1"), text("s.hint.label3")}) {
				p.t.Errorf("%s: glossary, pad and hint button %q", lang, got)
			}
			// The keys line and the file note, their keys and commands
			// marked up; the puzzle's level and seed.
			keysLine := eval[[]string](p, `[document.getElementById('keys').textContent, String(document.querySelectorAll('#keys kbd').length), document.querySelector('[data-i18n-marked="s.file.note"]').textContent, String(document.querySelectorAll('[data-i18n-marked="s.file.note"] code').length), document.getElementById('source').textContent]`)
			if keysLine[0] != markedText(text("s.keys")) || keysLine[1] != "13" || keysLine[2] != markedText(text("s.file.note")) || keysLine[3] != "2" ||
				!strings.HasPrefix(keysLine[4], text("s.lv.singles")) || !strings.Contains(keysLine[4], text("s.src.seed", "seed", "3")) {
				p.t.Errorf("%s: keys, file note and source %q", lang, keysLine)
			}
			p.click("#pause")
			p.wait("paused", `document.getElementById('status').textContent.includes(`+strconv.Quote(text("s.btn.resume"))+`)`)
			p.click("#resume2")
			noKeys(p, keys, lang+" Sudoku page")
		}
		p.do(chromedp.Evaluate[chromedp.Void](`localStorage.removeItem('nqcount.lang')`))
	}})
}

// englishHint finds the English of a hint's sentence.
var englishHint = regexp.MustCompile(`can only|cannot be|the only place|last empty cell|last candidate`)

// markedText is a text with [key] and `code` marks as the page shows it.
func markedText(s string) string {
	return regexp.MustCompile("\\[([^\\]]+)\\]|`([^`]+)`").ReplaceAllString(s, "$1$2")
}

func TestBrowserSudokuPlayer(t *testing.T) {
	base, bctx := startBrowser(t)
	for _, c := range playerSteps {
		t.Run(c.name, func(t *testing.T) { c.run(newTab(t, bctx), base) })
	}
}

func init() {
	playerSteps = append(playerSteps, pageStep{"hints said in every language", func(p *tab, base string) {
		// The sentences of the harder steps (a locked candidates'
		// removals, strong links, a unique rectangle, a forcing chain of
		// several branches, and each branch) from the engine's messages
		// in the catalogue: no English phrasing, no key; in English the
		// words the API gives.
		keys := catalogueKeys(p.t)
		puzzle := topLine(p.t, 700)
		for _, c := range []struct {
			what string
			stop func(int, logic.Step) bool
		}{
			{"locked", func(_ int, st logic.Step) bool { return st.Technique == "Pointing" || st.Technique == "Claiming" }},
			{"links", func(_ int, st logic.Step) bool {
				return strings.Contains(st.Technique, "Skyscraper") || strings.Contains(st.Technique, "Kite")
			}},
			{"unique", func(_ int, st logic.Step) bool { return strings.HasPrefix(st.Technique, "Unique") }},
			{"chain", func(_ int, st logic.Step) bool { return strings.Contains(st.Text, "each case leads") }},
		} {
			gm, h := gameAt(p.t, puzzle, c.stop)
			p.fresh(base, base+"/sudoku")
			pasteGame(p, gm)
			for _, lang := range []string{"en", "ro", "ko", "zh-Hant", "id"} {
				p.do(chromedp.Navigate(base + "/sudoku?lang=" + lang))
				p.wait("the catalogue", `document.documentElement.dataset.i18n === '`+lang+`' && document.body.dataset.content === '1'`)
				p.wait("the game kept", boardJS+` === '`+gm.Progress+`'`)
				for k := 1; k <= 3; k++ {
					p.click("#hint")
					stage := strings.TrimSpace(strings.ReplaceAll(catalogueText(p.t, lang, "s.hint.stage"), "{k}", strconv.Itoa(k)))
					p.waitFor("hint stage "+strconv.Itoa(k), `document.getElementById('status').textContent.includes(`+strconv.Quote(stage)+`)`, hintWait)
				}
				step := eval[string](p, `document.querySelector('#status .steptext').textContent`)
				if lang == "en" {
					if step != h.Words && (c.what == "locked" || c.what == "links") {
						p.t.Errorf("en: %s: %q, want the words %q", c.what, step, h.Words)
					}
				} else if englishHint.MatchString(step) || strings.Contains(step, "->") || strings.Contains(step, "<>") {
					p.t.Errorf("%s: %s: %q", lang, c.what, step)
				}
				if len(h.Branches) > 1 {
					p.click("#branch-0")
					p.wait("the first branch", `!!document.querySelector('#status .branchtext')`)
					if b := eval[string](p, `document.querySelector('#status .branchtext').textContent`); lang != "en" && englishHint.MatchString(b) {
						p.t.Errorf("%s: branch 1: %q", lang, b)
					}
				}
				noKeys(p, keys, lang+" Sudoku page, a "+c.what+" hint")
				p.viewport(1100, 1250, false)
				p.shot("sudoku-hint-" + c.what + "-" + lang + ".png")
				p.viewport(1100, 860, false)
				p.t.Logf("%s %s: %s", lang, c.what, step)
			}
		}
	}})
}
