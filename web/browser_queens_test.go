package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
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
	"github.com/nqcount/nqcount/web/queenspage"
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
		// Each step lights its own lines of the algorithm (not only
		// place, back and found), and a queen placed is at
		// the row and column labels its narration names, lit.
		p.fresh(base, base+"/queens?n=8")
		seen := map[string]bool{}
		for i := 0; i < 60; i++ {
			p.click("#step")
			p.wait("the step", `document.getElementById('stepno').textContent === '`+strconv.Itoa(i+1)+`'`)
			nar := p.text("narration")
			lit := strings.Join(eval[[]string](p, `Array.from(document.querySelectorAll('#code li.lit')).map(l => l.dataset.line)`), " ")
			seen[lit] = true
			m := narrationRE.FindStringSubmatch(nar)
			if m == nil {
				if lit == "place mark" {
					p.t.Errorf("the code lights %q after %q", lit, nar)
				}
				continue
			}
			if lit != "place mark" {
				p.t.Errorf("after %q the code lights %q, want the lines that place and mark", nar, lit)
			}
			last := eval[[2]int](p, `(s => [+s.dataset.row, +s.dataset.col])(document.querySelector('#qboard .sq.last'))`)
			rowLabel := eval[string](p, `document.querySelectorAll('#qrows li')[`+strconv.Itoa(last[0])+`].textContent`)
			colLabel := eval[string](p, `document.querySelectorAll('#qcols li')[`+strconv.Itoa(last[1])+`].textContent`)
			hot := eval[[]string](p, `Array.from(document.querySelectorAll('#qrows li.hot, #qcols li.hot')).map(l => l.textContent)`)
			if rowLabel != m[1] || colLabel != m[2] || !slices.Equal(hot, []string{m[2], m[1]}) && !slices.Equal(hot, []string{m[1], m[2]}) {
				p.t.Errorf("%q: the queen is at the labels row %s, column %s (lit %v)", nar, rowLabel, colLabel, hot)
			}
		}
		for _, want := range []string{"call", "choose", "check", "place mark", "recurse", "unchoose clear", "return"} {
			if !seen[want] {
				p.t.Errorf("in 60 steps of 8 × 8 the code never lit %q (lit: %v)", want, seen)
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
		for i := 0; i < 12 && !strings.HasPrefix(p.text("narration"), "The search is over"); i++ {
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
		// A count of n = 27 would run for decades of one core. The page
		// keeps it alive while it is open; closed, the count stops.
		p.fresh(base, base+"/queens?n=8")
		p.do(chromedp.SetValue(chromedp.ID("cn"), "27"))
		p.click("#cstart")
		// A count of decades: the page warns first.
		p.wait("the warning", `!document.getElementById('cwarn').hidden`)
		p.click("#cgo")
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
		var prog queenspage.CountProgress
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
		if prog.N != 27 || prog.State != "stopped" || prog.StopReason != queenspage.StopUnwatched {
			p.t.Errorf("after its page closed: %+v, want stopped, unwatched", prog)
		}
		p.t.Logf("stopped %v after its page was closed", time.Since(closed).Round(100*time.Millisecond))
	}},
}

// ---- The lesson ----

// The kinds of step of the lesson's search (lesson.js), one per line of
// the algorithm.
const (
	evCall = iota
	evFound
	evChoose
	evCheck
	evPlace
	evRecurse
	evUnchoose
	evReturn
)

// lessonEvent is one step of the lesson's search: its kind, row and
// column (from 0), frame (the queens on the board when its call was
// made) and, for a check, the look-ups that found a mark (1 col, 2 d1, 4
// d2), plus 8 when a mark found is stale: no queen on the board stands on
// that line (the mistake).
type lessonEvent struct{ Kind, Row, Col, Frame, Flags int }

// plainLesson is the textbook's recursive search, rows top down, written
// plainly: the reference the page's step machine is checked against. With
// mistake it forgets to clear the marks when a queen is taken back.
func plainLesson(n int, mistake bool) []lessonEvent {
	col, d1, d2 := make([]bool, n+1), make([]bool, 2*n+1), make([]bool, 2*n+1)
	board := make([]int, n)
	for i := range board {
		board[i] = -1
	}
	var out []lessonEvent
	emit := func(k, r, c, d, f int) { out = append(out, lessonEvent{k, r, c, d, f}) }
	attacked := func(r, c int) bool {
		for qr, qc := range board {
			if qc >= 0 && (qc == c || qr+qc == r+c || qr-qc == r-c) {
				return true
			}
		}
		return false
	}
	set := func(r, c int, v bool) { col[c+1], d1[r+c+2], d2[r-c+n] = v, v, v }
	var search func(k int)
	search = func(k int) {
		if k == n {
			emit(evFound, k-1, board[k-1], k, 0)
			return
		}
		r := k
		emit(evChoose, r, 0, k, 0)
		for c := 0; c < n; c++ {
			f := 0
			if col[c+1] {
				f |= 1
			}
			if d1[r+c+2] {
				f |= 2
			}
			if d2[r-c+n] {
				f |= 4
			}
			if f != 0 && mistake && !attacked(r, c) {
				f |= 8
			}
			emit(evCheck, r, c, k, f)
			if f != 0 {
				continue
			}
			board[r] = c
			set(r, c, true)
			emit(evPlace, r, c, k, 0)
			emit(evRecurse, r, c, k, 0)
			search(k + 1)
			board[r] = -1
			if !mistake {
				set(r, c, false)
			}
			emit(evUnchoose, r, c, k, 0)
		}
		emit(evReturn, r, 0, k, 0)
	}
	emit(evCall, 0, 0, 0, 0)
	search(0)
	return out
}

// lessonCounts returns the solutions and queens placed of a search, and
// the step (from 1) of its first stale mark (0: none).
func lessonCounts(evs []lessonEvent) (sols, nodes, astray int) {
	for i, e := range evs {
		switch {
		case e.Kind == evFound:
			sols++
		case e.Kind == evPlace:
			nodes++
		case e.Kind == evCheck && e.Flags&8 != 0 && astray == 0:
			astray = i + 1
		}
	}
	return
}

// machineJS runs the page's step machine (lesson.js) to its end.
func machineJS(n int, order string, mistake bool) string {
	return fmt.Sprintf(`(() => { const s = new Search(%d, %q, %v); const out = []; for (let v; (v = s.next()) >= 0; ) out.push(unpackStep(v)); return out; })()`, n, order, mistake)
}

func machineEvents(p *tab, n int, order string, mistake bool) []lessonEvent {
	raw := eval[[][5]int](p, machineJS(n, order, mistake))
	out := make([]lessonEvent, len(raw))
	for i, e := range raw {
		out[i] = lessonEvent{e[0], e[1], e[2], e[3], e[4]}
	}
	return out
}

// coarse projects the lesson's steps on the library's trace events:
// places, solutions, and the rows a frame returns from.
func coarse(evs []lessonEvent) []string {
	var out []string
	for _, e := range evs {
		switch e.Kind {
		case evPlace:
			out = append(out, fmt.Sprintf("place %d %d", e.Row, e.Col))
		case evFound:
			out = append(out, "found")
		case evReturn:
			out = append(out, fmt.Sprintf("back %d", e.Row))
		}
	}
	return out
}

func traceCoarse(t *testing.T, n int, o solutions.Order) []string {
	var out []string
	if err := solutions.TraceOrder(n, o, 0, func(ev solutions.Event) bool {
		switch ev.Kind {
		case solutions.Place:
			out = append(out, fmt.Sprintf("place %d %d", ev.Row, ev.Col))
		case solutions.Found:
			out = append(out, "found")
		case solutions.Backtrack:
			out = append(out, fmt.Sprintf("back %d", ev.Row))
		}
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// litFor is the lines of the algorithm a step lights.
var litFor = map[int]string{evCall: "call", evFound: "found", evChoose: "choose", evCheck: "check", evPlace: "place mark", evRecurse: "recurse", evUnchoose: "unchoose clear", evReturn: "return"}

func (p *tab) litLines() string {
	return strings.Join(eval[[]string](p, `Array.from(document.querySelectorAll('#code li.lit')).map(l => l.dataset.line)`), " ")
}

func (p *tab) stepTo(i int) {
	p.t.Helper()
	p.click("#step")
	p.wait("step "+strconv.Itoa(i), `document.getElementById('stepno').textContent === '`+strconv.Itoa(i)+`'`)
}

// marksJS lists the marked indices of each array, as drawn.
const marksJS = `['col', 'd1', 'd2'].map(a => Array.from(document.querySelectorAll('#arrays [data-arr="' + a + '"] .ac.on')).map(c => +c.dataset.i))`

func classIdx(p *tab, cls string) [][]int {
	return eval[[][]int](p, `['col', 'd1', 'd2'].map(a => Array.from(document.querySelectorAll('#arrays [data-arr="' + a + '"] .ac.`+cls+`')).map(c => +c.dataset.i))`)
}

func init() { queensSteps = append(queensSteps, lessonSteps...) }

var lessonSteps = []pageStep{
	{"lesson steps against a plain search", func(p *tab, base string) {
		p.fresh(base, base+"/queens?n=4")
		for n := 4; n <= 8; n++ {
			for _, mistake := range []bool{false, true} {
				want := plainLesson(n, mistake)
				got := machineEvents(p, n, "topdown", mistake)
				if !slices.Equal(got, want) {
					i := 0
					for i < min(len(got), len(want)) && got[i] == want[i] {
						i++
					}
					p.t.Errorf("n = %d, mistake %v: %d steps, want %d; first difference at step %d: %+v, want %+v", n, mistake, len(got), len(want), i+1, at(got, i), at(want, i))
				}
				sols, nodes, astray := lessonCounts(want)
				if k, _ := queens.Known(n); !mistake && uint64(sols) != k {
					p.t.Errorf("the plain search finds %d solutions of n = %d, OEIS %d", sols, n, k)
				}
				if mistake {
					p.t.Logf("n = %d with the marks never cleared: %d solutions, %d queens placed, astray at step %d", n, sols, nodes, astray)
				}
			}
			// Both orders place, find and return as the library's traced
			// search does.
			for _, o := range []solutions.Order{solutions.TopDown, solutions.MostConstrained} {
				name := map[solutions.Order]string{solutions.TopDown: "topdown", solutions.MostConstrained: "constrained"}[o]
				if got, want := coarse(machineEvents(p, n, name, false)), traceCoarse(p.t, n, o); !slices.Equal(got, want) {
					p.t.Errorf("n = %d, %s: the steps project to %d trace events, want %d", n, name, len(got), len(want))
				}
			}
		}
	}},

	{"lesson 4x4 step by step", func(p *tab, base string) {
		p.fresh(base, base+"/queens?n=4")
		evs := plainLesson(4, false)
		frames := 0
		col, d1, d2 := []int{}, []int{}, []int{}
		del := func(xs []int, x int) []int { return slices.DeleteFunc(xs, func(y int) bool { return y == x }) }
		for i, e := range evs {
			p.stepTo(i + 1)
			what := fmt.Sprintf("step %d %+v", i+1, e)
			switch e.Kind {
			case evCall, evRecurse:
				frames++
			case evUnchoose:
				frames = e.Frame + 1
			}
			a, b, d := e.Col+1, e.Row+e.Col+2, e.Row-e.Col+4
			switch e.Kind {
			case evPlace:
				col, d1, d2 = append(col, a), append(d1, b), append(d2, d)
			case evUnchoose:
				col, d1, d2 = del(col, a), del(d1, b), del(d2, d)
			}
			if lit := p.litLines(); lit != litFor[e.Kind] {
				p.t.Errorf("%s lights %q, want %q", what, lit, litFor[e.Kind])
			}
			if got := eval[int](p, `document.querySelectorAll('#callstack li:not(.empty)').length`); got != frames {
				p.t.Errorf("%s: %d frames on the call stack, want %d", what, got, frames)
			}
			want := [][]int{slices.Sorted(slices.Values(col)), slices.Sorted(slices.Values(d1)), slices.Sorted(slices.Values(d2))}
			got := eval[[][]int](p, marksJS)
			for k := range got {
				if len(got[k]) == 0 {
					got[k] = []int{}
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				p.t.Errorf("%s: marks drawn %v, want %v", what, got, want)
			}
			switch e.Kind {
			case evCheck:
				sq := eval[[2]int](p, `(s => s ? [+s.dataset.row, +s.dataset.col] : [-1, -1])(document.querySelector('#qboard .sq.check'))`)
				if sq != [2]int{e.Row, e.Col} {
					p.t.Errorf("%s: the square checked is drawn at %v", what, sq)
				}
				looks := eval[[]string](p, `Array.from(document.querySelectorAll('#lookups .lk')).map(s => s.className + ' ' + s.textContent)`)
				idx := []int{a, b, d}
				for k, name := range []string{"col", "d1", "d2"} {
					state := "free"
					if e.Flags&(1<<k) != 0 {
						state = "hit"
					}
					if k >= len(looks) || !strings.HasPrefix(looks[k], "lk "+state+" "+name+"["+strconv.Itoa(idx[k])+"] = ") {
						p.t.Errorf("%s: look-ups shown %q, want %s[%d] %s", what, looks, name, idx[k], state)
					}
				}
				if got := classIdx(p, "look"); fmt.Sprint(got) != fmt.Sprint([][]int{{a}, {b}, {d}}) {
					p.t.Errorf("%s: the arrays light %v, want col[%d], d1[%d], d2[%d]", what, got, a, b, d)
				}
			case evPlace:
				if got := classIdx(p, "set"); fmt.Sprint(got) != fmt.Sprint([][]int{{a}, {b}, {d}}) {
					p.t.Errorf("%s: the arrays show set %v", what, got)
				}
				if n := eval[int](p, `document.querySelectorAll('#qboard .sq.ray').length`); n == 0 {
					p.t.Errorf("%s: no square of the lines marked is shown on the board", what)
				}
			case evUnchoose:
				if got := classIdx(p, "clr"); fmt.Sprint(got) != fmt.Sprint([][]int{{a}, {b}, {d}}) {
					p.t.Errorf("%s: the arrays show cleared %v", what, got)
				}
			}
		}
		if got := p.text("narration"); got != "The search is over: 2 solutions, 16 queens placed." {
			p.t.Errorf("at the end: %q", got)
		}
	}},

	{"walk-through", func(p *tab, base string) {
		p.fresh(base, base+"/queens?n=8")
		p.click("#walk1")
		p.wait("the first solution of 4 × 4", `document.getElementById('found').textContent === '1' && document.querySelectorAll('#qboard .sq').length === 16`)
		if got := boardCols(p.t, p, 4); !slices.Equal(got, []int{1, 3, 0, 2}) {
			p.t.Errorf("walk-through 1 shows %v", got)
		}
		if nar := p.text("narration"); !strings.HasPrefix(nar, "Solution 1: 2 4 1 3") {
			p.t.Errorf("walk-through 1 says %q", nar)
		}
		p.click("#walk2")
		p.wait("the second solution", `document.getElementById('found').textContent === '2'`)
		if got := boardCols(p.t, p, 4); !slices.Equal(got, []int{2, 0, 3, 1}) {
			p.t.Errorf("walk-through 2 shows %v", got)
		}
		if nar := p.text("narration"); !strings.Contains(nar, "mirror image of solution 1") {
			p.t.Errorf("walk-through 2 says %q", nar)
		}
		p.click("#walk3")
		p.waitFor("all 92 of 8 × 8", `document.getElementById('found').textContent === '92' && document.getElementById('narration').textContent.startsWith('The search is over')`, time.Minute)
	}},

	{"the mistake on purpose", func(p *tab, base string) {
		p.fresh(base, base+"/queens?n=4")
		// The table: the right search against the mistaken one.
		for _, n := range []int{4, 8} {
			rs, rn, _ := lessonCounts(plainLesson(n, false))
			ws, wn, _ := lessonCounts(plainLesson(n, true))
			got := eval[[]string](p, fmt.Sprintf(`Array.from(document.querySelectorAll('#mistakes tr[data-n="%d"] td')).map(td => td.textContent)`, n))
			want := []string{fmt.Sprintf("%d × %d", n, n), strconv.Itoa(rs), strconv.Itoa(ws), fmt.Sprintf("%s / %d", groupThousands(uint64(rn)), wn)}
			if !slices.Equal(got, want) {
				p.t.Errorf("mistake table for n = %d: %q, want %q", n, got, want)
			}
		}
		for _, n := range []int{4, 8} {
			evs := plainLesson(n, true)
			sols, nodes, astray := lessonCounts(evs)
			if n == 8 {
				p.do(chromedp.Evaluate[chromedp.Void](`(s => { s.value = '8'; s.dispatchEvent(new Event('change')); })(document.getElementById('n'))`))
				p.wait("8 × 8", `document.querySelectorAll('#qboard .sq').length === 64 && document.getElementById('stepno').textContent === '0'`)
			} else {
				p.click("#mistake")
				p.wait("the restart", `document.getElementById('mistake').checked && document.getElementById('stepno').textContent === '0'`)
			}
			if cls := eval[string](p, `document.querySelector('#code li[data-line="clear"]').className`); cls != "missing" {
				p.t.Errorf("n = %d with the mistake: the clearing line is %q, want struck out", n, cls)
			}
			p.click("#nextsol")
			p.waitFor("the end of the mistaken search", `document.getElementById('narration').textContent.startsWith('The search is over')`, 30*time.Second)
			if got, want := p.text("found")+" "+p.text("nodes"), fmt.Sprintf("%d %d", sols, nodes); got != want {
				p.t.Errorf("n = %d with the mistake: found, placed %s, want %s", n, got, want)
			}
			if cls := eval[string](p, `document.querySelector('#code li[data-line="clear"]').className`); cls != "missing fix" {
				p.t.Errorf("n = %d with the mistake, at the end: the clearing line is %q, want lit as the fix", n, cls)
			}
			// Where it goes astray: the step, the square, the stale mark.
			rs, _, _ := lessonCounts(plainLesson(n, false))
			if got, want := p.text("astray"), fmt.Sprintf("goes astray at step %d: ", astray); !strings.Contains(got, want) || !strings.Contains(got, fmt.Sprintf("It finds %d of the %d solutions.", sols, rs)) {
				p.t.Errorf("n = %d: %q", n, got)
			}
			p.click("#showastray")
			p.wait("the step that goes astray", `document.getElementById('stepno').textContent === '`+strconv.Itoa(astray)+`'`)
			e := evs[astray-1]
			nar := p.text("narration")
			if !strings.Contains(nar, fmt.Sprintf("Square (%d, %d) is turned down", e.Row+1, e.Col+1)) || !strings.Contains(nar, "goes astray") {
				p.t.Errorf("n = %d, step %d (%+v): %q", n, astray, e, nar)
			}
			if n := eval[int](p, `document.querySelectorAll('#lookups .lk.stale').length`); n == 0 {
				p.t.Errorf("the stale look-up is not shown")
			}
			p.t.Logf("%d × %d with the marks never cleared: %d of the solutions, %d queens placed; astray at step %d: %s", n, n, sols, nodes, astray, nar)
			if n == 4 {
				// The stale marks, the look-ups and the missing line are
				// readable in both themes.
				p.contrast("the mistaken search")
				p.dark(true)
				p.contrast("the mistaken search, dark")
				p.dark(false)
			}
		}
	}},

	{"depth-first against breadth-first", func(p *tab, base string) {
		p.fresh(base, base+"/queens?n=8")
		// The tree of 4 × 4 from the plain search: node i+1 is the i-th
		// queen placed, its parent the queen below it on the board.
		parent := []int{-1}
		depth := []int{0}
		path := []int{0}
		for _, e := range plainLesson(4, false) {
			if e.Kind == evPlace {
				id := len(parent)
				parent = append(parent, path[e.Frame])
				depth = append(depth, e.Frame+1)
				path = append(path[:e.Frame+1], id)
			}
		}
		var bfs []int
		maxQueue := 0
		for q := []int{0}; len(q) > 0; {
			id := q[0]
			q = q[1:]
			bfs = append(bfs, id)
			for k := range parent {
				if parent[k] == id {
					q = append(q, k)
				}
			}
			maxQueue = max(maxQueue, len(q))
		}
		numbers := func() []string {
			return eval[[]string](p, `Array.from(document.querySelectorAll('#wtree g')).sort((a, b) => a.dataset.id - b.dataset.id).map(g => g.querySelector('text').textContent)`)
		}
		for i := 1; i <= len(parent); i++ {
			p.click("#visitnext")
		}
		for id, s := range numbers() {
			if s != strconv.Itoa(id+1) {
				p.t.Errorf("depth first: node %d numbered %q, want %d", id, s, id+1)
			}
		}
		p.click("#walkbfs")
		for i := 1; i <= len(parent); i++ {
			p.click("#visitnext")
			held := eval[int](p, `document.querySelectorAll('#wtree g.held').length`)
			if i == 3 && held < 3 {
				p.t.Errorf("breadth first, visit 3: %d nodes held", held)
			}
		}
		rank := map[int]int{}
		for i, id := range bfs {
			rank[id] = i + 1
		}
		for id, s := range numbers() {
			if s != strconv.Itoa(rank[id]) {
				p.t.Errorf("breadth first: node %d numbered %q, want %d", id, s, rank[id])
			}
		}
		// The memory each holds, 4 × 4 and 8 × 8, and the pruning.
		levels := map[int]int{}
		for _, e := range plainLesson(8, false) {
			if e.Kind == evPlace {
				levels[e.Frame+1]++
			}
		}
		widest := slices.Max(slices.Collect(maps.Values(levels)))
		facts := p.text("dfsfacts")
		for _, want := range []string{fmt.Sprintf("at most %d frames", 5), fmt.Sprintf("up to %d nodes", maxQueue), fmt.Sprintf("9 frames against %d nodes", widest), "same 16 queens on 4 × 4 (8 × 8: 2,056)", "not the 340 (8 × 8: 19,173,960)"} {
			if !strings.Contains(facts, want) {
				p.t.Errorf("the facts %q lack %q", facts, want)
			}
		}
	}},

	{"live count checks n", func(p *tab, base string) {
		p.fresh(base, base+"/queens?n=8")
		// A count that finishes, then bad n: each a clear message and no
		// result of the count before beside it.
		p.do(chromedp.SetValue(chromedp.ID("cn"), "6"))
		p.click("#cstart")
		p.waitFor("the count of 6", `document.getElementById('ctotal').textContent.startsWith('4 ✓') && document.getElementById('cstate').textContent.includes('n = 6')`, 30*time.Second)
		lastID := countID(p.t, base)
		for _, c := range []struct{ in, want string }{
			{"abc", "“abc” is not a board size: type a whole number from 1 to 32."},
			{"", "Type a board size: a whole number from 1 to 32."},
			{"0", "“0” is not a board size: type a whole number from 1 to 32."},
			{"-1", "“-1” is not a board size: type a whole number from 1 to 32."},
			{"2.5", "“2.5” is not a board size: type a whole number from 1 to 32."},
			{"33", "n = 33 is too large: the counter handles 1 to 32."},
			{"1000", "n = 1000 is too large: the counter handles 1 to 32."},
		} {
			p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById('cn').value = %q`, c.in)))
			p.click("#cstart")
			p.wait("the message", `!document.getElementById('cerr').hidden`)
			if got := p.text("cerr"); got != c.want {
				p.t.Errorf("n %q: %q, want %q", c.in, got, c.want)
			}
			for _, id := range []string{"ctotal", "cmethod", "ctasks", "celapsed"} {
				if got := p.text(id); got != "–" {
					p.t.Errorf("n %q: #%s still shows %q", c.in, id, got)
				}
			}
			if got := p.text("cstate"); got != "idle" {
				p.t.Errorf("n %q: state %q", c.in, got)
			}
		}
		if id := countID(p.t, base); id != lastID {
			p.t.Errorf("a count was started (%d) for a bad n", id)
		}
		// Before n >= 23, a plain warning with the estimate.
		p.do(chromedp.SetValue(chromedp.ID("cn"), "23"))
		p.click("#cstart")
		p.wait("the warning", `!document.getElementById('cwarn').hidden`)
		if w := p.text("cwarntxt"); !strings.Contains(w, "14.9 core-hours") || !strings.Contains(w, "2 workers") || !strings.Contains(w, "about 7.5 hours") {
			p.t.Errorf("warning for 23: %q", w)
		}
		p.click("#ccancel")
		p.wait("the warning gone", `document.getElementById('cwarn').hidden`)
		p.do(chromedp.SetValue(chromedp.ID("cn"), "30"))
		p.click("#cstart")
		p.wait("the warning", `!document.getElementById('cwarn').hidden`)
		if w := p.text("cwarntxt"); !strings.Contains(w, "beyond anything measured") {
			p.t.Errorf("warning for 30: %q", w)
		}
		if id := countID(p.t, base); id != lastID {
			p.t.Errorf("a count was started (%d) before the warning was answered", id)
		}
		// ?n= as the field: said, not silently 8 × 8 or "n = 0".
		for _, c := range []struct{ q, want string }{
			{"abc", "“abc” is not a board size"}, {"", "Type a board size"}, {"0", "“0” is not a board size"},
			{"-1", "“-1” is not a board size"}, {"33", "n = 33 is too large"}, {"1000", "n = 1000 is too large"},
		} {
			p.do(chromedp.Navigate(base + "/queens?n=" + c.q))
			p.wait("the page", `document.body.dataset.content === '1' && !document.getElementById('cerr').hidden`)
			nar := p.text("narration")
			if !strings.Contains(nar, c.want) || !strings.Contains(nar, "Showing 8 × 8") || strings.Contains(nar, "n = 0") {
				p.t.Errorf("?n=%s: %q", c.q, nar)
			}
			if got := p.text("cerr"); !strings.Contains(got, c.want) {
				p.t.Errorf("?n=%s: the live count says %q", c.q, got)
			}
		}
		if id := countID(p.t, base); id != lastID {
			p.t.Errorf("a count was started (%d) for a bad ?n=", id)
		}
		// The API: the same checks, in words.
		for _, c := range []struct{ body, want string }{
			{`{"n": "abc"}`, `n = "abc" is not a board size: want a whole number from 1 to 32`},
			{`{}`, "n is missing: want a whole number from 1 to 32"},
			{`{"n": 0}`, "n = 0 is not a board size: want a whole number from 1 to 32"},
			{`{"n": -1}`, "n = -1 is not a board size: want a whole number from 1 to 32"},
			{`{"n": 2.5}`, "n = 2.5 is not a board size: want a whole number from 1 to 32"},
			{`{"n": 33}`, "n = 33 is too large: the counter handles 1 to 32"},
			{`{"n": 1000}`, "n = 1000 is too large: the counter handles 1 to 32"},
		} {
			for _, path := range []string{"/api/queens/count", "/api/queens/estimate"} {
				resp, err := http.Post(base+path, "application/json", strings.NewReader(c.body))
				if err != nil {
					p.t.Fatal(err)
				}
				var e struct{ Error string }
				json.NewDecoder(resp.Body).Decode(&e)
				resp.Body.Close()
				if resp.StatusCode != http.StatusBadRequest || e.Error != c.want {
					p.t.Errorf("POST %s %s: %d %q, want 400 %q", path, c.body, resp.StatusCode, e.Error, c.want)
				}
			}
		}
	}},

	{"arrow keys step", func(p *tab, base string) {
		p.fresh(base, base+"/queens?n=6")
		// Choosing a row order leaves the focus on its radio button: the
		// arrows then step the search, not flip the order.
		p.click(`input[value="constrained"]`)
		p.wait("the restart", `document.getElementById('stepno').textContent === '0' && document.activeElement.value === 'constrained'`)
		for i := 1; i <= 3; i++ {
			p.do(chromedp.KeyEvent(kb.ArrowRight))
			p.wait("step "+strconv.Itoa(i), `document.getElementById('stepno').textContent === '`+strconv.Itoa(i)+`'`)
		}
		p.do(chromedp.KeyEvent(kb.ArrowLeft))
		p.wait("step 2", `document.getElementById('stepno').textContent === '2'`)
		if v := eval[string](p, `document.querySelector('input[name="order"]:checked').value`); v != "constrained" {
			p.t.Errorf("the arrows changed the order to %q", v)
		}
		// The tree's nodes: reached by Tab, opened with Enter.
		for i := 3; i <= 40; i++ {
			p.stepTo(i)
		}
		if n := eval[int](p, `Array.from(document.querySelectorAll('#tree g.tn')).filter(g => g.tabIndex === 0).length`); n == 0 || n != eval[int](p, `document.querySelectorAll('#tree g.tn').length`) {
			p.t.Errorf("%d tree nodes reachable by keyboard", n)
		}
		// Tab from the step slider, the last control above the tree, goes
		// to its first node.
		p.do(chromedp.Focus(chromedp.ID("scrub")), chromedp.KeyEvent(kb.Tab))
		if eval[bool](p, `!document.activeElement.matches('#tree g.tn')`) {
			p.t.Fatalf("Tab from the slider focuses %s", eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
		}
		node := eval[treeNode](p, `(g => ({node: +g.dataset.node, depth: +g.dataset.depth, row: +g.dataset.row, col: +g.dataset.col}))(document.activeElement)`)
		p.do(chromedp.KeyEvent(kb.Enter))
		p.wait("the node's step", fmt.Sprintf(`(s => !!s && +s.dataset.row === %d && +s.dataset.col === %d)(document.querySelector('#qboard .sq.last'))`, node.Row, node.Col))
	}},

	{"narrow screens", func(p *tab, base string) {
		for _, lang := range []string{"en", "ro", "ko"} {
			for _, w := range []int64{320, 390} {
				p.do(chromedp.EmulateViewport(w, 800, chromedp.EmulateMobile))
				p.fresh(base, base+"/queens?n=8&lang="+lang)
				for i := 1; i <= 30; i++ {
					p.stepTo(i)
				}
				p.click("#visitnext")
				got := eval[[]float64](p, `[document.documentElement.scrollWidth, window.innerWidth, Math.max(...Array.from(document.querySelectorAll('body *')).filter(e => !e.closest('.treebox')).map(e => e.getBoundingClientRect().right))]`)
				if got[0] != float64(w) || got[1] != float64(w) || got[2] > float64(w)+0.5 {
					wide := eval[[]string](p, fmt.Sprintf(`Array.from(document.querySelectorAll('body *')).filter(e => !e.closest('.treebox') && e.getBoundingClientRect().right > %d.5).slice(0, 5).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))`, w))
					p.t.Errorf("%s at %d px: page %v px wide, viewport %v, widest element ends at %.0f: %v", lang, w, got[0], got[1], got[2], wide)
				}
			}
		}
	}},

	{"languages", func(p *tab, base string) {
		keys := catalogueKeys(p.t)
		for _, lang := range []string{"en", "ro", "ko", "zh-Hant", "id"} {
			title := catalogueText(p.t, lang, "q.title")
			p.fresh(base, base+"/queens?n=4&lang="+lang)
			if got := eval[string](p, `document.documentElement.lang + ' ' + document.querySelector('h1 span').textContent`); got != lang+" "+title {
				p.t.Errorf("%s: page in %q", lang, got)
			}
			// Every kind of step, the mistake, the walks and a live-count
			// message: then no text on the page may be a key.
			for i := 1; i <= 40; i++ {
				p.stepTo(i)
				if i%8 == 0 {
					noKeys(p, keys, lang+" n-queens page, step "+strconv.Itoa(i))
				}
			}
			p.click("#visitnext")
			p.click("#showastray")
			p.wait("the mistaken search", `document.getElementById('mistake').checked`)
			p.do(chromedp.SetValue(chromedp.ID("cn"), "abc"))
			p.click("#cstart")
			p.wait("the message", `!document.getElementById('cerr').hidden`)
			noKeys(p, keys, lang+" n-queens page")
			p.fresh(base, base+"/sudoku?lang="+lang)
			p.wait("the catalogue", `document.documentElement.dataset.i18n === '`+lang+`'`)
			noKeys(p, keys, lang+" Sudoku page")
			if got := eval[string](p, `document.getElementById('h-new').textContent`); got != catalogueText(p.t, lang, "s.new.h") {
				p.t.Errorf("%s Sudoku page: heading %q", lang, got)
			}
		}
		// The switch: choosing a language reloads the page in it, and the
		// choice is kept.
		p.fresh(base, base+"/queens?n=4")
		p.wait("the switch", `!!document.getElementById('lang')`)
		p.do(chromedp.Evaluate[chromedp.Void](`(s => { s.value = 'ko'; s.dispatchEvent(new Event('change')); })(document.getElementById('lang'))`))
		// The page reloads: ask until the new one answers in Korean.
		lang := ""
		for end := time.Now().Add(15 * time.Second); lang != "ko" && time.Now().Before(end); {
			time.Sleep(100 * time.Millisecond)
			lang, _ = chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.documentElement.dataset.i18n || ''`))
		}
		if lang != "ko" {
			p.t.Fatalf("after choosing Korean the page is in %q", lang)
		}
		p.do(chromedp.Navigate(base + "/sudoku"))
		p.wait("Korean kept", `document.documentElement.dataset.i18n === 'ko'`)
		p.do(chromedp.Evaluate[chromedp.Void](`localStorage.removeItem('nqcount.lang')`))
	}},
}

func at(evs []lessonEvent, i int) any {
	if i < len(evs) {
		return evs[i]
	}
	return "none"
}

func countID(t *testing.T, base string) int {
	resp, err := http.Get(base + "/api/queens/count")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var prog queenspage.CountProgress
	if err := json.NewDecoder(resp.Body).Decode(&prog); err != nil {
		t.Fatal(err)
	}
	return prog.ID
}

func catalogueKeys(t *testing.T) []string {
	return slices.Sorted(maps.Keys(loadCatalogue(t, "en")))
}

func catalogueText(t *testing.T, lang, key string) string {
	s, _ := loadCatalogue(t, lang)[key].(string)
	return s
}

// noKeys checks that no text of the page, shown or in an attribute a
// reader hears, is a catalogue key: a text the catalogue did not give.
func noKeys(p *tab, keys []string, what string) {
	p.t.Helper()
	text := eval[string](p, `[document.body.innerText].concat(Array.from(document.querySelectorAll('[title], [aria-label], [placeholder], option, svg title')).map(e => [e.getAttribute('title'), e.getAttribute('aria-label'), e.getAttribute('placeholder'), e.tagName === 'OPTION' || e.tagName === 'title' ? e.textContent : ''].join(' '))).join('\n')`)
	for _, k := range keys {
		re := regexp.MustCompile(`(^|[^\w.])` + regexp.QuoteMeta(k) + `($|[^\w.])`)
		if loc := re.FindStringIndex(text); loc != nil {
			p.t.Errorf("%s shows the key %q untranslated: …%s…", what, k, text[max(0, loc[0]-40):min(len(text), loc[1]+40)])
		}
	}
	if strings.Contains(text, "{") {
		i := strings.Index(text, "{")
		p.t.Errorf("%s shows a value not put in: …%s…", what, text[max(0, i-40):min(len(text), i+40)])
	}
}

func init() {
	queensSteps = append(queensSteps, pageStep{"lesson pictures", func(p *tab, base string) {
		// The lesson at 4 × 4 as a learner sees it: a square checked with
		// two queens on the board (the arrays marked, the look-ups, the
		// call stack), and the mistaken search where it goes astray. With
		// NQCOUNT_SCREENSHOTS=DIR, saved in DIR (docs/ for the README).
		evs := plainLesson(4, false)
		check := 0
		for i, e := range evs {
			if e.Kind == evCheck && e.Frame == 2 && e.Flags != 0 {
				check = i + 1
				break
			}
		}
		_, _, astray := lessonCounts(plainLesson(4, true))
		for _, c := range []struct {
			name    string
			w, h    int64
			lang    string
			mistake bool
		}{
			{"lesson-4x4.png", 1280, 1320, "en", false},
			{"lesson-4x4-phone.png", 390, 1500, "en", false},
			{"lesson-mistake.png", 1280, 1320, "en", true},
			{"lesson-mistake-phone.png", 390, 1500, "en", true},
			{"lesson-4x4-ko.png", 1280, 1320, "ko", false},
			{"lesson-4x4-ro.png", 1280, 1320, "ro", false},
		} {
			if c.w < 500 {
				p.do(chromedp.EmulateViewport(c.w, c.h, chromedp.EmulateMobile))
			} else {
				p.do(chromedp.EmulateViewport(c.w, c.h))
			}
			url := base + "/queens?n=4&lang=" + c.lang
			step := check
			if c.mistake {
				url += "&mistake=1"
				step = astray
			}
			p.fresh(base, url)
			p.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`goTo(%d)`, step)))
			p.wait("the step", `document.getElementById('stepno').textContent === '`+strconv.Itoa(step)+`'`)
			if n := eval[int](p, `document.querySelectorAll('#arrays .ac.on').length`); n < 6 {
				p.t.Errorf("%s: %d marks drawn, want two queens' 6", c.name, n)
			}
			if n := eval[int](p, `document.querySelectorAll('#callstack li').length`); n != 3 {
				p.t.Errorf("%s: %d frames drawn, want 3", c.name, n)
			}
			if c.mistake {
				if cls := eval[string](p, `document.querySelector('#code li[data-line="clear"]').className`); cls != "missing fix" {
					p.t.Errorf("%s: the clearing line is %q", c.name, cls)
				}
			}
			p.shot(c.name)
		}
	}})
}
