package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/solutions"
	"github.com/nqcount/nqcount/web"
)

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

func (p *tab) text(id string) string {
	return eval[string](p, `document.getElementById('`+id+`').textContent`)
}

func testQueensPage(t *testing.T, base string, bctx context.Context) {
	p := newTab(t, bctx)
	p.loadTimes("n-queens", base+"/queens?n=8")
	if got := eval[int](p, `new Set(Array.from(document.querySelectorAll('#qboard .sq')).map(s => s.dataset.row + ',' + s.dataset.col)).size`); got != 64 {
		t.Errorf("%d squares with distinct data-row/data-col, want 64", got)
	}

	// Step, one click a step, then on to the first solution of n = 8.
	want, nodes := firstSolution(t, 8, solutions.TopDown)
	for i := 1; i <= 20; i++ {
		p.do(chromedp.Click(chromedp.ID("step")))
	}
	p.wait("20 steps", `document.getElementById('stepno').textContent === '20'`)
	p.click("#nextsol")
	p.wait("the first solution", `document.getElementById('found').textContent === '1'`)
	if got := boardCols(t, p, 8); !slices.Equal(got, want) {
		t.Errorf("board at the first solution shows %v, want %v", got, want)
	}
	if got := p.text("nodes"); got != fmt.Sprint(nodes) {
		t.Errorf("node counter %s, want %d", got, nodes)
	}
	t.Logf("first solution of n = 8 after %s steps (%d queens placed)", p.text("stepno"), nodes)

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
	cmp := p.text("compare")
	for _, v := range sum {
		if s := fmt.Sprintf("%d,%03d", v/1000, v%1000); !strings.Contains(cmp, s) {
			t.Errorf("comparison %q lacks %s", cmp, s)
		}
	}

	// A live count, checked against OEIS, by the method of nqueens count.
	liveN := 12
	if os.Getenv("NQCOUNT_SCREENSHOTS") != "" {
		liveN = 17 // long enough to draw a chart
	}
	known, _ := queens.Known(liveN)
	p.do(chromedp.SetValue(chromedp.ID("cn"), fmt.Sprint(liveN)))
	p.click("#cstart")
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[chromedp.Void](`document.getElementById('ctotal').textContent.includes('matches')`, chromedp.WithPollingTimeout(90*time.Second))); err != nil {
		t.Fatalf("live count of n = %d: %v (state %q)", liveN, err, p.text("cstate"))
	}
	if total := p.text("ctotal"); !strings.HasPrefix(total, groupThousands(known)+" ✓") {
		t.Errorf("live count shows %q, want %s", total, groupThousands(known))
	}
	if m := p.text("cmethod"); m != string(queens.DefaultMethod(liveN)) {
		t.Errorf("live count by %q, want %q as nqueens count", m, queens.DefaultMethod(liveN))
	}

	if os.Getenv("NQCOUNT_SCREENSHOTS") != "" {
		// The picture for the README: the kernel's order in mid-search,
		// with its tree so far.
		p.click("#reset")
		p.wait("the restart", `document.getElementById('nodes').textContent === '0' && document.body.dataset.content === '1'`)
		for i := 0; i < 60; i++ {
			p.do(chromedp.Click(chromedp.ID("step")))
		}
		p.viewport(1100, 1500, false)
		p.shot("queens.png")
	}
}

// groupThousands writes v with commas, as the page does.
func groupThousands(v uint64) string {
	s := strconv.FormatUint(v, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// treeNode is a node of the page's search tree view.
type treeNode struct {
	Node, Depth, Row, Col int
	Class                 string
}

func treeNodes(p *tab, sel string) []treeNode {
	return eval[[]treeNode](p, `Array.from(document.querySelectorAll('#tree g.tn`+sel+`')).map(g => ({node: +g.dataset.node, depth: +g.dataset.depth, row: +g.dataset.row, col: +g.dataset.col, class: g.getAttribute('class')}))`)
}

var narrationRE = regexp.MustCompile(`^Row (\d+): queen on column (\d+) `)

var queensSteps = []pageStep{
	{"step back", func(p *tab, base string) {
		p.fresh(base, base+"/queens?n=6")
		type view struct {
			cols      []int
			narration string
			nodes     string
		}
		look := func() view { return view{boardCols(p.t, p, 6), p.text("narration"), p.text("nodes")} }
		var seen []view
		for i := 0; i < 24; i++ {
			seen = append(seen, look())
			p.click("#step")
			p.wait("the step", `document.getElementById('stepno').textContent === '`+strconv.Itoa(i+1)+`'`)
		}
		// Back, step by step, to each earlier board and its narration.
		for i := 23; i >= 20; i-- {
			p.click("#back")
			p.wait("the step back", `document.getElementById('stepno').textContent === '`+strconv.Itoa(i)+`'`)
			if v := look(); !slices.Equal(v.cols, seen[i].cols) || v.nodes != seen[i].nodes || v.narration != seen[i].narration {
				p.t.Fatalf("back to step %d: %+v, want %+v", i, v, seen[i])
			}
		}
		// Forward again: the same steps.
		p.click("#step")
		p.wait("the step", `document.getElementById('stepno').textContent === '21'`)
		if v := look(); !slices.Equal(v.cols, seen[21].cols) {
			p.t.Errorf("forward after back: %v, want %v", v.cols, seen[21].cols)
		}
		// And to any earlier step at once.
		p.do(chromedp.Evaluate[chromedp.Void](`(s => { s.value = '5'; s.dispatchEvent(new Event('input')); })(document.getElementById('scrub'))`))
		p.wait("step 5", `document.getElementById('stepno').textContent === '5'`)
		if v := look(); !slices.Equal(v.cols, seen[5].cols) || v.narration != seen[5].narration {
			p.t.Errorf("step 5 from the slider: %+v, want %+v", v, seen[5])
		}
		if s := p.text("scrubtxt"); s != "5 of 24 seen" {
			p.t.Errorf("slider says %q", s)
		}
		// The back key too.
		p.do(chromedp.KeyEvent(kb.ArrowLeft))
		p.wait("step 4", `document.getElementById('stepno').textContent === '4'`)
	}},

	{"labels as narrated", func(p *tab, base string) {
		p.fresh(base, base+"/queens?n=8")
		for i := 0; i < 12; i++ {
			p.click("#step")
			p.wait("the step", `document.getElementById('stepno').textContent === '`+strconv.Itoa(i+1)+`'`)
			nar := p.text("narration")
			m := narrationRE.FindStringSubmatch(nar)
			lit := eval[string](p, `document.querySelector('#code li.lit').dataset.line`)
			if m == nil {
				if !strings.Contains(nar, "no safe square") && !strings.Contains(nar, "been tried") {
					p.t.Fatalf("narration %q", nar)
				}
				if lit != "back" {
					p.t.Errorf("after %q the code lights %q, want the line that returns", nar, lit)
				}
				continue
			}
			// The row and column named are the labels beside the queen
			// just placed, lit.
			last := eval[[2]int](p, `(s => [+s.dataset.row, +s.dataset.col])(document.querySelector('#qboard .sq.last'))`)
			rowLabel := eval[string](p, `document.querySelectorAll('#qrows li')[`+strconv.Itoa(last[0])+`].textContent`)
			colLabel := eval[string](p, `document.querySelectorAll('#qcols li')[`+strconv.Itoa(last[1])+`].textContent`)
			hot := eval[[]string](p, `Array.from(document.querySelectorAll('#qrows li.hot, #qcols li.hot')).map(l => l.textContent)`)
			if rowLabel != m[1] || colLabel != m[2] || !slices.Equal(hot, []string{m[2], m[1]}) && !slices.Equal(hot, []string{m[1], m[2]}) {
				p.t.Errorf("%q: the queen is at the labels row %s, column %s (lit %v)", nar, rowLabel, colLabel, hot)
			}
			if lit != "place" {
				p.t.Errorf("after %q the code lights %q, want the line that places", nar, lit)
			}
		}
		if lbl := eval[string](p, `document.querySelector('#qboard .sq').getAttribute('aria-label')`); !strings.HasPrefix(lbl, "row 1, column 1") {
			p.t.Errorf("first square labelled %q", lbl)
		}
	}},

	{"search tree", func(p *tab, base string) {
		p.fresh(base, base+"/queens?n=8")
		want, nodes := firstSolution(p.t, 8, solutions.TopDown)
		p.click("#nextsol")
		p.wait("the first solution", `document.getElementById('found').textContent === '1'`)
		// A node per queen placed, the queens on the board lit as a path
		// from the root, the solution's branch green, dead ends red.
		all := treeNodes(p, "")
		if len(all) != nodes {
			p.t.Errorf("%d nodes drawn for %d queens placed", len(all), nodes)
		}
		path := treeNodes(p, ".path")
		if len(path) != 8 {
			p.t.Fatalf("%d nodes on the lit path, want 8", len(path))
		}
		for i, nd := range path {
			if nd.Depth != i+1 || nd.Row != i || nd.Col != want[i] || !strings.Contains(nd.Class, "sol") {
				p.t.Errorf("path node %d: %+v, want the queen of row %d on column %d, on a solution's branch", i, nd, i+1, want[i]+1)
			}
		}
		dead := treeNodes(p, ".dead")
		if len(dead) == 0 || len(dead)+8 > len(all) {
			p.t.Errorf("%d dead ends of %d nodes", len(dead), len(all))
		}
		for _, nd := range dead {
			if strings.Contains(nd.Class, "path") {
				p.t.Errorf("dead node on the path: %+v", nd)
			}
		}
		// Each node is drawn at its depth's height, joined to its parent.
		type geo struct{ Depth, Parent, Cx, Cy, Px, Py, Ex, Ey float64 }
		gs := eval[[]geo](p, `Array.from(document.querySelectorAll('#tree g.tn')).map(g => {
			const c = g.querySelector('circle'), d = g.querySelector('path').getAttribute('d').match(/-?[\d.]+/g).map(Number);
			return {depth: +g.dataset.depth, parent: +g.dataset.parent, cx: +c.getAttribute('cx'), cy: +c.getAttribute('cy'), px: d[0], py: d[1], ex: d[3], ey: d[4]};
		})`)
		at := map[float64]geo{}
		for i, g := range gs {
			at[float64(all[i].Node)] = g
		}
		for _, g := range gs {
			if g.Cy != g.Depth*gs[0].Cy/gs[0].Depth || g.Ex != g.Cx || g.Ey != g.Cy {
				p.t.Fatalf("a node of depth %v drawn at (%v, %v), its edge ending at (%v, %v)", g.Depth, g.Cx, g.Cy, g.Ex, g.Ey)
			}
			if par, ok := at[g.Parent]; g.Parent >= 0 && (!ok || par.Cx != g.Px || par.Cy != g.Py || par.Depth != g.Depth-1) {
				p.t.Fatalf("a node of depth %v: its edge starts at (%v, %v), its parent is %+v", g.Depth, g.Px, g.Py, par)
			}
		}
		// Clicking a node goes back to the step that placed it.
		target := dead[len(dead)/2]
		p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector('#tree g.tn[data-node="%d"]').dispatchEvent(new MouseEvent('click', {bubbles: true}))`, target.Node)))
		p.wait("the step of the node", fmt.Sprintf(`(s => !!s && +s.dataset.row === %d && +s.dataset.col === %d)(document.querySelector('#qboard .sq.last'))`, target.Row, target.Col))
		if got := len(eval[[][2]int](p, queensJS)); got != target.Depth {
			p.t.Errorf("%d queens on the board at the node of depth %d", got, target.Depth)
		}
		if n := len(treeNodes(p, ".path")); n != target.Depth {
			p.t.Errorf("%d nodes lit at the node of depth %d", n, target.Depth)
		}
		p.contrast("the n-queens page")
		p.dark(true)
		p.contrast("the n-queens page, dark")
		p.dark(false)
	}},

	{"panels apart", func(p *tab, base string) {
		p.fresh(base, base+"/queens?n=8")
		gaps := eval[[]float64](p, `(() => {
			const r = (e) => e.getBoundingClientRect();
			const out = [r(document.querySelector('.tree-panel')).top - r(document.getElementById('narration')).bottom,
				r(document.getElementById('live')).top - Math.max(r(document.querySelector('.layout > section')).bottom, r(document.querySelector('.layout > aside')).bottom)];
			const ps = document.querySelectorAll('aside .panel');
			for (let i = 1; i < ps.length; i++) out.push(r(ps[i]).top - r(ps[i - 1]).bottom);
			return out;
		})()`)
		for i, g := range gaps {
			if g < 8 {
				p.t.Errorf("gap %d between panels: %.1f px", i, g)
			}
		}
	}},

	{"one queen", func(p *tab, base string) {
		// Counts in words agree with their number ("1 queens" before).
		p.fresh(base, base+"/queens?n=1")
		if got := p.text("narration"); got != "1 queen, row by row. Press Play or Step." {
			p.t.Errorf("start: %q", got)
		}
		for i := 0; i < 5 && !strings.HasPrefix(p.text("narration"), "The search is over"); i++ {
			p.click("#step")
			time.Sleep(50 * time.Millisecond)
		}
		if got := p.text("narration"); got != "The search is over: 1 solution, 1 queen placed." {
			p.t.Errorf("end: %q", got)
		}
		// Large numbers with separators: 2,680 solutions of 11 queens.
		p.do(chromedp.Evaluate[chromedp.Void](`(s => { s.value = '11'; s.dispatchEvent(new Event('change')); })(document.getElementById('n'))`))
		p.waitFor("the comparison of n = 11", `document.getElementById('cmptext').textContent.includes('same 2,680 solutions')`, 30*time.Second)
	}},

	{"count ends with its page", func(p *tab, base string) {
		// Issue 25: a count of n = 27 would run for decades of one core. The page
		// keeps it alive while it is open; closed, the count stops.
		p.fresh(base, base+"/queens?n=8")
		p.do(chromedp.SetValue(chromedp.ID("cn"), "27"))
		p.click("#cstart")
		p.wait("the count", `/^(running|planning)/.test(document.getElementById('cstate').textContent)`)
		time.Sleep(2 * browserCountIdle)
		if st := p.text("cstate"); !strings.HasPrefix(st, "running") && !strings.HasPrefix(st, "planning") {
			p.t.Fatalf("with its page open: %q", st)
		}
		if err := chromedp.Cancel(p.ctx); err != nil {
			p.t.Fatal(err)
		}
		closed := time.Now()
		time.Sleep(browserCountIdle + time.Second)
		// Asked from here only once its idle time is over (asking keeps a
		// count alive), until it has stopped.
		var prog web.CountProgress
		for time.Since(closed) < time.Minute {
			resp, err := http.Get(base + "/api/queens/count")
			if err != nil {
				p.t.Fatal(err)
			}
			err = json.NewDecoder(resp.Body).Decode(&prog)
			resp.Body.Close()
			if err != nil {
				p.t.Fatal(err)
			}
			if prog.State != "running" && prog.State != "planning" {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if prog.N != 27 || prog.State != "stopped" || prog.StopReason != web.StopUnwatched {
			p.t.Errorf("after its page closed: %+v, want stopped, unwatched", prog)
		}
		p.t.Logf("stopped %v after its page was closed", time.Since(closed).Round(100*time.Millisecond))
	}},
}
