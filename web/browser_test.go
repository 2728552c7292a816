package web_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"golang.org/x/term"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/solutions"
	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/generate"
	"github.com/nqcount/nqcount/count/sudoku/logic"
	"github.com/nqcount/nqcount/web"
)

// The end-to-end tests drive both pages in a real headless Chromium, as a
// player and a learner would. They need a Chromium: NQCOUNT_CHROME names
// one, else the usual names are looked up on PATH. Without one the tests
// are skipped, except in CI (CI set), where that is a failure.
//
// NQCOUNT_SCREENSHOTS=DIR makes them save screenshots of both pages in DIR
// (docs/ for the README's).

// loadBudget is the most time a page may take to become interactive.
const loadBudget = time.Second

func findChrome(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("NQCOUNT_CHROME"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("CI is set but no Chromium was found: install it (apt-get install -y chromium) or set NQCOUNT_CHROME")
	}
	msg := "no Chromium found (apt-get install -y chromium, or set NQCOUNT_CHROME); the browser tests are skipped (they fail instead when CI is set)"
	notice(msg)
	t.Skip(msg)
	return ""
}

// notice says on the terminal that the browser tests are skipped: 'go
// test ./...' hides the output of a passing package, skips included (the
// same convention as internal/refdata's).
func notice(msg string) {
	var w io.Writer
	if term.IsTerminal(int(os.Stderr.Fd())) {
		w = os.Stderr
	} else if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		w = tty
	} else {
		return
	}
	fmt.Fprintf(w, "NOTE web: browser tests SKIPPED, %s\n", msg)
}

// startBrowser starts the server on loopback and a headless browser, and
// returns the server's base URL and the browser's context.
func startBrowser(t *testing.T) (base string, bctx context.Context) {
	chrome := findChrome(t)
	srv, err := web.Listen("127.0.0.1:0", web.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chrome),
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 860),
	}
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses to run as root otherwise
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelB(); cancelA() })
	if err := chromedp.Do(bctx); err != nil { // starts the browser
		t.Fatalf("starting %s: %v", chrome, err)
	}
	u := srv.URL("")
	return strings.TrimSuffix(u, "/"), bctx
}

// tab is one browser tab and the test using it.
type tab struct {
	t   *testing.T
	ctx context.Context
}

func newTab(t *testing.T, bctx context.Context) *tab {
	ctx, cancel := chromedp.NewContext(bctx)
	t.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(cancelT)
	return &tab{t, ctx}
}

func (p *tab) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
}

func eval[T any](p *tab, js string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js))
	if err != nil {
		p.t.Fatalf("%s: %v", js, err)
	}
	return v
}

// wait polls a JavaScript condition until it holds (10 s at most).
func (p *tab) wait(what, js string) {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		status := eval[string](p, `(document.querySelector('.status')||{}).textContent||''`)
		p.t.Fatalf("waiting for %s (%s): %v; status line: %q", what, js, err, status)
	}
}

func (p *tab) click(sel string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(sel)))
}

// loadTimes loads url six times and checks the times from navigation to
// the page's marks: handlers attached (interactive) and first content
// shown (a generated puzzle, the first page of a trace). The first load
// warms the browser up (its network service and script caches start
// cold); the median of the other five must be within loadBudget (the
// median, because a shared machine only ever adds time). The
// browser's saved state is cleared before each load, so the Sudoku page
// generates its puzzle every time.
func (p *tab) loadTimes(page, url string) {
	p.t.Helper()
	var ready, content []float64
	const loads = 6
	for i := 0; i < loads; i++ {
		p.do(chromedp.Navigate(url))
		p.wait("the first content", `document.body.dataset.content === '1'`)
		r := eval[float64](p, `performance.getEntriesByName('nqcount-ready')[0].startTime`)
		c := eval[float64](p, `performance.getEntriesByName('nqcount-content')[0].startTime`)
		if i == 0 {
			p.t.Logf("%s page, cold browser: interactive %.0f ms, first content %.0f ms", page, r, c)
		} else {
			ready, content = append(ready, r), append(content, c)
		}
		if i < loads-1 {
			p.do(chromedp.Evaluate[chromedp.Void](`localStorage.clear()`))
		}
	}
	slices.Sort(ready)
	slices.Sort(content)
	m := len(ready) / 2
	p.t.Logf("%s page: interactive %.0f ms, first content %.0f ms after navigation (median of %d; all: %.0f, %.0f)", page, ready[m], content[m], len(ready), ready, content)
	if budget := float64(loadBudget.Milliseconds()); ready[m] > budget || content[m] > budget {
		p.t.Errorf("%s page: interactive after %.0f ms, content after %.0f ms; the budget is %v", page, ready[m], content[m], loadBudget)
	}
}

func (p *tab) screenshot(name string, height int64) {
	p.t.Helper()
	dir := os.Getenv("NQCOUNT_SCREENSHOTS")
	if dir == "" {
		return
	}
	p.do(chromedp.EmulateViewport(1100, height), chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	b, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot %s", path)
}

const boardJS = `Array.from(document.querySelectorAll('#board .cell')).map(c => c.textContent || '.').join('')`

func cellSel(i int) string {
	return fmt.Sprintf(`#board .cell[data-row="%d"][data-col="%d"]`, i/9, i%9)
}

func TestBrowser(t *testing.T) {
	base, bctx := startBrowser(t)
	t.Run("sudoku", func(t *testing.T) { testSudokuPage(t, base, bctx) })
	t.Run("queens", func(t *testing.T) { testQueensPage(t, base, bctx) })
}

func testSudokuPage(t *testing.T, base string, bctx context.Context) {
	p := newTab(t, bctx)
	p.loadTimes("sudoku", base+"/sudoku?level=hidden&seed=7")
	want := one(t, generate.Options{Level: sudoku.Hidden, Seed: 7}, 0).Puzzle.String()
	p.wait("the shared puzzle", boardJS+` === '`+want+`'`)

	// Every cell is addressable and labelled.
	if got := eval[int](p, `new Set(Array.from(document.querySelectorAll('#board .cell')).filter(c => c.getAttribute('aria-label')).map(c => c.dataset.row + ',' + c.dataset.col)).size`); got != 81 {
		t.Errorf("%d labelled cells with distinct data-row/data-col, want 81", got)
	}

	// A new puzzle, by difficulty and seed.
	p.do(chromedp.SetValue(chromedp.ID("level"), "singles"), chromedp.SetValue(chromedp.ID("seed"), "12345"))
	p.click("#new")
	gen := one(t, generate.Options{Level: sudoku.Singles, Seed: 12345}, 0)
	puzzle := gen.Puzzle.String()
	p.wait("the generated puzzle", boardJS+` === '`+puzzle+`'`)
	if src := eval[string](p, `document.getElementById('source').textContent`); !strings.Contains(src, "seed 12345") {
		t.Errorf("seed not shown: %q", src)
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
	p.wait("the clash highlight", fmt.Sprintf(`document.querySelector('%s').classList.contains('clash') && document.querySelector('%s').textContent === '%d'`, cellSel(empty), cellSel(empty), clashDigit))
	// Undo takes it back.
	p.do(chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	p.wait("undo", fmt.Sprintf(`document.querySelector('%s').textContent === '' && document.querySelectorAll('.cell.clash').length === 0`, cellSel(empty)))

	// A pencil mark shows as marks, not as the cell's digit.
	p.click("#pencil")
	p.click(cellSel(empty))
	p.do(chromedp.KeyEvent(fmt.Sprint(gen.Solution[empty])))
	p.wait("the pencil mark", fmt.Sprintf(`(document.querySelector('%s').dataset.marks||'').includes('%d') && document.querySelector('%s').textContent === ''`, cellSel(empty), gen.Solution[empty], cellSel(empty)))
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

	// A hint: the next step in words, shown on the board.
	g, err := sudoku.Parse(eval[string](p, boardJS))
	if err != nil {
		t.Fatal(err)
	}
	step, err := logic.Hint(g)
	if err != nil {
		t.Fatal(err)
	}
	p.click("#hint")
	p.wait("the hint", `document.getElementById('status').textContent.includes('can only be')`)
	if got := eval[string](p, `document.getElementById('status').firstChild.textContent`); got != step.Text {
		t.Errorf("hint %q, want %q", got, step.Text)
	}
	mv := step.Placements[0]
	p.wait("the hinted cell", fmt.Sprintf(`document.querySelector('%s').classList.contains('hint-cell')`, cellSel(mv.Cell)))
	p.screenshot("sudoku.png", 900)
	p.click("#status .btn") // Apply
	p.wait("the hint applied", fmt.Sprintf(`document.querySelector('%s').textContent === '%d'`, cellSel(mv.Cell), mv.Digit))
	progress := eval[string](p, boardJS)

	// Save (a download in the CLI's JSON format) ...
	dl := t.TempDir()
	if _, err := chromedp.CallBrowser(p.ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dl}); err != nil {
		t.Fatal(err)
	}
	p.do(chromedp.SetValue(chromedp.ID("format"), "json"))
	p.click("#save")
	saved := waitFile(t, filepath.Join(dl, "sudoku-singles-12345.json"))
	gm, _, apiErr := web.ParseGame(saved)
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

	// ... and load the saved game back.
	p.do(chromedp.SetUploadFiles(chromedp.CSS("#load"), []string{filepath.Join(dl, "sudoku-singles-12345.json")}))
	p.wait("the loaded game", boardJS+` === '`+progress+`'`)
	if marks := eval[string](p, fmt.Sprintf(`document.querySelector('%s').dataset.marks||''`, cellSel(empty))); mv.Cell != empty && !strings.Contains(marks, fmt.Sprint(gen.Solution[empty])) {
		t.Errorf("pencil marks not restored: %q", marks)
	}

	// A puzzle of one's own: typed, with the verdict as it is typed ...
	p.click("#enter")
	p.wait("an empty board", boardJS+` === '`+strings.Repeat(".", 81)+`'`)
	p.click(cellSel(0))
	p.do(chromedp.KeyEvent("5"))
	p.click(cellSel(1))
	p.do(chromedp.KeyEvent("5"))
	p.wait("the verdict on a clash", `document.querySelectorAll('.cell.clash').length === 2 && document.getElementById('status').textContent.includes('No solution: r1c1 and r1c2 are both 5')`)
	p.do(chromedp.KeyEvent("\b"))
	p.wait("the verdict on one digit", `document.getElementById('status').textContent.includes('Several solutions')`)
	// ... or pasted.
	p.do(chromedp.SetValue(chromedp.ID("paste"), strings.Join([]string{top1[:27], top1[27:54], top1[54:]}, "\n")))
	p.click("#usepaste")
	p.wait("the pasted puzzle", boardJS+` === '`+top1+`' && document.getElementById('status').textContent.includes('Exactly one solution')`)

	// A hint that removes candidates: shown on the board, and Apply takes
	// them out of the pencil marks.
	board, elim := eliminationStep(t)
	p.do(chromedp.SetValue(chromedp.ID("paste"), board))
	p.click("#usepaste")
	p.wait("the pasted board", boardJS+` === '`+board+`'`)
	m := elim.Eliminations[0]
	p.click("#pencil")
	p.click(cellSel(m.Cell))
	p.do(chromedp.KeyEvent(fmt.Sprint(m.Digit)))
	p.click("#pencil")
	p.wait("the pencil mark", fmt.Sprintf(`(document.querySelector('%s').dataset.marks||'').includes('%d')`, cellSel(m.Cell), m.Digit))
	p.click("#hint")
	p.wait("the elimination hint", fmt.Sprintf(`document.getElementById('status').firstChild.textContent === %q && document.querySelector('%s').classList.contains('hint-elim')`, elim.Text, cellSel(m.Cell)))
	p.click("#status .btn") // Apply
	p.wait("the mark removed", fmt.Sprintf(`!(document.querySelector('%s').dataset.marks||'').includes('%d') && document.getElementById('status').textContent.startsWith('Removed 1 pencil mark')`, cellSel(m.Cell), m.Digit))

	// Usable at phone width: nothing wider than the screen.
	p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	p.wait("the phone layout", `document.documentElement.scrollWidth <= 390`)
	if w := eval[float64](p, `document.getElementById('board').getBoundingClientRect().width`); w > 390 || w < 300 {
		t.Errorf("board %.0f px wide on a 390 px screen", w)
	}
}

// eliminationStep returns a board (a puzzle with some digits filled in by
// hints) whose next hint removes candidates and places nothing.
func eliminationStep(t *testing.T) (string, logic.Step) {
	t.Helper()
	for seed := uint64(1); seed < 50; seed++ {
		g := one(t, generate.Options{Level: sudoku.Intermediate, Seed: seed}, 0).Puzzle
		for g.Clues() < 81 {
			st, err := logic.Hint(g)
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Placements) == 0 {
				return g.String(), st
			}
			for _, m := range st.Placements {
				g[m.Cell] = uint8(m.Digit)
			}
		}
	}
	t.Fatal("no intermediate puzzle of seeds 1-49 has an elimination step")
	return "", logic.Step{}
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
	ents, _ := os.ReadDir(filepath.Dir(path))
	t.Fatalf("no download %s (the folder has %v)", path, ents)
	return ""
}

const queensJS = `Array.from(document.querySelectorAll('#qboard .sq.queen')).map(s => [Number(s.dataset.row), Number(s.dataset.col)])`

// firstSolution returns the first solution a traced search finds and the
// queens it placed up to it.
func firstSolution(t *testing.T, n int, o solutions.Order) ([]int, int) {
	var sol []int
	nodes := 0
	if err := solutions.TraceOrder(n, o, 1, func(ev solutions.Event) bool {
		if ev.Kind == solutions.Place {
			nodes++
		}
		if ev.Kind == solutions.Found {
			sol = slices.Clone(ev.Cols)
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return sol, nodes
}

func boardCols(t *testing.T, p *tab, n int) []int {
	t.Helper()
	qs := eval[[][2]int](p, queensJS)
	cols := make([]int, n)
	for i := range cols {
		cols[i] = -1
	}
	for _, q := range qs {
		cols[q[0]] = q[1]
	}
	return cols
}

func testQueensPage(t *testing.T, base string, bctx context.Context) {
	p := newTab(t, bctx)
	p.loadTimes("n-queens", base+"/queens?n=8")
	if got := eval[int](p, `new Set(Array.from(document.querySelectorAll('#qboard .sq')).map(s => s.dataset.row + ',' + s.dataset.col)).size`); got != 64 {
		t.Errorf("%d squares with distinct data-row/data-col, want 64", got)
	}

	// Step, one click a step, to the first solution of n = 8.
	want, nodes := firstSolution(t, 8, solutions.TopDown)
	clicks := 0
	for eval[string](p, `document.getElementById('found').textContent`) != "1" {
		if clicks++; clicks > 2000 {
			t.Fatalf("no solution after %d steps", clicks)
		}
		p.do(chromedp.Click(chromedp.ID("step")))
	}
	if got := boardCols(t, p, 8); !slices.Equal(got, want) {
		t.Errorf("board after %d steps shows %v, want the first solution %v", clicks, got, want)
	}
	if got := eval[string](p, `document.getElementById('nodes').textContent`); got != fmt.Sprint(nodes) {
		t.Errorf("node counter %s, want %d", got, nodes)
	}
	t.Logf("first solution of n = 8 after %d steps (%d queens placed)", clicks, nodes)

	// The kernel's order finds its own first solution, a valid one.
	wantMC, _ := firstSolution(t, 8, solutions.MostConstrained)
	p.click(`input[value="constrained"]`)
	p.wait("the restart", `document.getElementById('found').textContent === '0' && document.body.dataset.content === '1'`)
	p.click("#nextsol")
	p.wait("the next solution", `document.getElementById('found').textContent === '1'`)
	got := boardCols(t, p, 8)
	if !slices.Equal(got, wantMC) || solutions.Verify(got) != nil {
		t.Errorf("most-constrained order shows %v, want %v", got, wantMC)
	}

	// The comparison of both orders over the whole search.
	var sum [2]int
	for i, o := range []solutions.Order{solutions.TopDown, solutions.MostConstrained} {
		solutions.TraceOrder(8, o, 0, func(ev solutions.Event) bool {
			if ev.Kind == solutions.Place {
				sum[i]++
			}
			return true
		})
	}
	p.wait("the comparison", `document.querySelectorAll('#compare tbody tr').length === 2`)
	cmp := eval[string](p, `document.getElementById('compare').textContent`)
	for _, v := range sum {
		if s := fmt.Sprintf("%d,%03d", v/1000, v%1000); !strings.Contains(cmp, s) {
			t.Errorf("comparison %q lacks %s", cmp, s)
		}
	}

	// A live count, checked against OEIS.
	liveN := 10
	if os.Getenv("NQCOUNT_SCREENSHOTS") != "" {
		liveN = 17 // long enough to draw a chart
	}
	known, _ := queens.Known(liveN)
	p.do(chromedp.SetValue(chromedp.ID("cn"), fmt.Sprint(liveN)))
	p.click("#cstart")
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[chromedp.Void](`document.getElementById('ctotal').textContent.includes('matches')`, chromedp.WithPollingTimeout(90*time.Second))); err != nil {
		t.Fatalf("live count of n = %d: %v (state %q)", liveN, err, eval[string](p, `document.getElementById('cstate').textContent`))
	}
	if total := eval[string](p, `document.getElementById('ctotal').textContent`); !strings.Contains(strings.ReplaceAll(total, ",", ""), fmt.Sprint(known)) {
		t.Errorf("live count shows %q, want %d", total, known)
	}

	if os.Getenv("NQCOUNT_SCREENSHOTS") != "" {
		// The picture for the README: the kernel's order in mid-search.
		p.click("#reset")
		p.wait("the restart", `document.getElementById('nodes').textContent === '0' && document.body.dataset.content === '1'`)
		for i := 0; i < 23; i++ {
			p.do(chromedp.Click(chromedp.ID("step")))
		}
		p.screenshot("queens.png", 1300)
	}
}
