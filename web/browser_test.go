package web_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"golang.org/x/term"

	"github.com/nqcount/nqcount/web"
	"github.com/nqcount/nqcount/web/queenspage"
)

// The end-to-end tests drive both pages in a real headless Chromium, as a
// player and a learner would. They need a Chromium: NQCOUNT_CHROME names
// one, else the usual names are looked up on PATH. Without one the tests
// are skipped, except in CI (CI set), where that is a failure.
//
// Each test is a step a player or a learner takes, checked on what the
// page draws (cells, candidates, SVG lines, colours measured as contrast
// ratios), not only on its state. NQCOUNT_SCREENSHOTS=DIR makes them save
// screenshots of both pages in DIR (docs/ for the README's and
// docs/web.md's).

// loadBudget is the most time a page may take to become interactive.
const loadBudget = time.Second

// browserCountIdle is how long the browser tests' server lets a live count
// run unasked (the page asks twice a second).
const browserCountIdle = 1500 * time.Millisecond

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
	srv, err := web.Listen("127.0.0.1:0", web.Options{Pages: pages(queenspage.Options{Workers: 2, CountIdle: browserCountIdle})})
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
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
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
	p.waitFor(what, js, 10*time.Second)
}

// waitFor is wait with a time limit: a hint on a hard board is a forcing
// chain, seconds under the race detector.
func (p *tab) waitFor(what, js string, limit time.Duration) {
	p.t.Helper()
	_, err := chromedp.Run(p.ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(limit)))
	for try := 0; try < 3 && err != nil && strings.Contains(err.Error(), "Cannot find context"); try++ {
		// A page just navigated to may replace its execution context
		// while the poll starts: poll again in the new one.
		time.Sleep(100 * time.Millisecond)
		_, err = chromedp.Run(p.ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(limit)))
	}
	if err != nil {
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

// shot saves a screenshot of the viewport as DIR/name when
// NQCOUNT_SCREENSHOTS=DIR.
func (p *tab) shot(name string) {
	p.t.Helper()
	dir := os.Getenv("NQCOUNT_SCREENSHOTS")
	if dir == "" {
		return
	}
	p.do(chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`), chromedp.Sleep(250*time.Millisecond))
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

// viewport sets the size of the page: desktop (1100 wide) or a phone
// (390 by 844, mobile).
func (p *tab) viewport(w, h int64, mobile bool) {
	p.t.Helper()
	if mobile {
		p.do(chromedp.EmulateViewport(w, h, chromedp.EmulateMobile, chromedp.EmulateScale(2)))
	} else {
		p.do(chromedp.EmulateViewport(w, h))
	}
}

// dark makes the page see a system in dark mode (or not).
func (p *tab) dark(on bool) {
	p.t.Helper()
	v := "light"
	if on {
		v = "dark"
	}
	if _, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v}}}); err != nil {
		p.t.Fatal(err)
	}

}

// fresh opens url with the browser's saved state of the site cleared.
func (p *tab) fresh(base, url string) {
	p.t.Helper()
	p.do(chromedp.Navigate(base+"/static/icon.svg"), chromedp.Evaluate[chromedp.Void](`localStorage.clear()`), chromedp.Navigate(url))
	p.wait("the first content", `document.body.dataset.content === '1'`)
}

// contrastJS lists every visible text whose contrast against what is
// behind it is under 4.5:1 (WCAG's bar for text): the text's colour,
// faded by the opacities above it, against the background colours of its
// element and the elements under it; SVG text against the circle it
// sits on. Controls that are disabled are exempt, as WCAG exempts
// inactive components.
const contrastJS = `(() => {
  const parse = (c) => { const m = /rgba?\(([^)]*)\)/.exec(c || ''); if (!m) return null; const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(parseFloat); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  const lum = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  const over = (t, b) => [0, 1, 2].map((i) => t[i] * t[3] + b[i] * (1 - t[3])).concat([1]);
  const bgOf = (e) => {
    const layers = [];
    for (; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor); if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; } }
    let col = [255, 255, 255, 1];
    for (let i = layers.length - 1; i >= 0; i--) col = over(layers[i], col);
    return col;
  };
  const opacity = (e) => { let o = 1; for (; e; e = e.parentElement) o *= parseFloat(getComputedStyle(e).opacity); return o; };
  const bad = [];
  let checked = 0;
  const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = w.nextNode()); ) {
    if (!n.data.trim()) continue;
    const e = n.parentElement;
    if (e.closest('[hidden], .sr-only, option, script, style, title')) continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const cs = getComputedStyle(e);
    if (cs.visibility !== 'visible' || e.closest('button:disabled')) continue;
    let fg, bg;
    if (e instanceof SVGElement) {
      fg = parse(cs.fill);
      const c = e.previousElementSibling;
      bg = c && c.tagName === 'circle' ? parse(getComputedStyle(c).fill) : bgOf(e.closest('svg'));
    } else { fg = parse(cs.color); bg = bgOf(e); }
    fg = over([fg[0], fg[1], fg[2], fg[3] * opacity(e)], bg);
    const a = lum(fg), b = lum(bg);
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    checked++;
    if (ratio < 4.5) bad.push(ratio.toFixed(2) + ':1 ' + JSON.stringify(n.data.trim().slice(0, 24)) + ' in ' + e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className && e.className.baseVal === undefined ? '.' + e.className : '') + ' colour ' + cs.color + ' on rgb(' + bg.slice(0, 3).map(Math.round) + ')');
  }
  return {checked, bad};
})()`

// contrast checks every visible text of the page at 4.5:1 or more.
func (p *tab) contrast(what string) {
	p.t.Helper()
	// The colours once their transitions (a theme just switched) are over.
	p.wait("the transitions", `document.getAnimations().every(a => a.playState !== 'running')`)
	r := eval[struct {
		Checked int
		Bad     []string
	}](p, contrastJS)
	if r.Checked < 20 {
		p.t.Errorf("%s: only %d texts checked for contrast", what, r.Checked)
	}
	for _, b := range r.Bad {
		p.t.Errorf("%s: contrast %s", what, b)
	}
	p.t.Logf("%s: %d texts at 4.5:1 contrast or more", what, r.Checked)
}

// pixels captures the viewport as an image, with the device pixel ratio.
func (p *tab) pixels() (image.Image, float64) {
	p.t.Helper()
	b, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		p.t.Fatal(err)
	}
	return img, eval[float64](p, `window.devicePixelRatio`)
}

// rect is an element's box in CSS pixels of the viewport.
type rect struct{ X, Y, W, H float64 }

func (p *tab) rect(js string) rect {
	p.t.Helper()
	return eval[rect](p, `(() => { const r = (`+js+`).getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; })()`)
}

// colorAt returns the colour of the viewport at CSS pixel (x, y).
func colorAt(img image.Image, dpr, x, y float64) [3]float64 {
	r, g, b, _ := img.At(int(math.Round(x*dpr)), int(math.Round(y*dpr))).RGBA()
	return [3]float64{float64(r >> 8), float64(g >> 8), float64(b >> 8)}
}

func colorDist(a, b [3]float64) float64 {
	return math.Abs(a[0]-b[0]) + math.Abs(a[1]-b[1]) + math.Abs(a[2]-b[2])
}

// cssColor reads a CSS colour as RGB.
func (p *tab) cssColor(js string) [3]float64 {
	p.t.Helper()
	c := eval[[]float64](p, `(() => { const m = /rgba?\(([^)]*)\)/.exec(`+js+`); return m[1].split(/[\s,\/]+/).filter(Boolean).slice(0, 3).map(parseFloat); })()`)
	return [3]float64{c[0], c[1], c[2]}
}

// varColorJS is JS for the colour a custom property gives in the page's
// theme now, as the browser resolves it (a probe element's colour: the
// property itself may hold light-dark(…)).
func varColorJS(name string) string {
	return `(() => { const e = document.createElement('i'); e.style.color = 'var(` + name + `)'; document.body.append(e); const c = getComputedStyle(e).color; e.remove(); return c; })()`
}

// statusText is the Sudoku page's status line.
func (p *tab) statusText() string {
	return eval[string](p, `document.getElementById('status').textContent`)
}

const boardJS = `Array.from(document.querySelectorAll('#board .cell')).map(c => c.dataset.value || '.').join('')`

func cellSel(i int) string {
	return fmt.Sprintf(`#board .cell[data-row="%d"][data-col="%d"]`, i/9, i%9)
}

func cellJS(i int) string { return fmt.Sprintf(`document.querySelector('%s')`, cellSel(i)) }

// markJS is the span of candidate d of cell i.
func markJS(i, d int) string {
	return fmt.Sprintf(`%s.querySelector('.cands').children[%d]`, cellJS(i), d-1)
}

func TestBrowser(t *testing.T) {
	base, bctx := startBrowser(t)
	t.Run("sudoku", func(t *testing.T) { testSudokuPage(t, base, bctx) })
	for _, c := range sudokuSteps {
		t.Run("sudoku/"+c.name, func(t *testing.T) { c.run(newTab(t, bctx), base) })
	}
	t.Run("queens", func(t *testing.T) { testQueensPage(t, base, bctx) })
	for _, c := range queensSteps {
		t.Run("queens/"+c.name, func(t *testing.T) { c.run(newTab(t, bctx), base) })
	}
}

// pageStep is one thing a player or a learner does, in a tab of its own.
type pageStep struct {
	name string
	run  func(p *tab, base string)
}
