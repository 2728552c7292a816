package sudokupage_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/generate"
	"github.com/nqcount/nqcount/count/sudoku/logic"
	"github.com/nqcount/nqcount/web"
	"github.com/nqcount/nqcount/web/internal/apitest"
	"github.com/nqcount/nqcount/web/sudokupage"
)

const (
	top1    = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
	top1Sol = "468931527751624839392578461134756298289413675675289314846192753513867942927345186"
	// Two rows of a solution blanked: four ways to refill them.
	fourSols = "..................392578461134756298289413675675289314846192753513867942927345186"
	// Easter Monster: one of the hardest, no single at the start.
	monster = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
)

// newServer serves the Sudoku page alone, counting on two workers.
func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(web.New(web.Options{Pages: []*web.Page{sudokupage.New(sudokupage.Options{Workers: 2})}}))
	t.Cleanup(srv.Close)
	return srv
}

func TestGenerate(t *testing.T) {
	srv := newServer(t)
	var g sudokupage.Generated
	apitest.MustPost(t, srv, "/api/sudoku/generate", map[string]any{"difficulty": "hidden", "seed": "42", "index": 3, "symmetry": "rot180"}, &g)
	want := apitest.Puzzle(t, generate.Options{Level: sudoku.Hidden, Seed: 42, Symmetry: generate.Rot180}, 3)
	if g.Puzzle != want.Puzzle.String() || g.Level != "hidden" || g.Score != want.Score || g.Symmetry != "rot180" || g.Seed != "42" || g.Index != 3 || g.Clues != want.Puzzle.Clues() {
		t.Errorf("generate: %+v, want puzzle %s", g, want.Puzzle)
	}
	if g.Command != "sudoku generate --difficulty hidden --seed 42 --first 3 --symmetry rot180" {
		t.Errorf("command %q", g.Command)
	}
	apitest.MustPost(t, srv, "/api/sudoku/generate", map[string]any{"score": "2.6-3.4", "seed": "5"}, &g)
	want = apitest.Puzzle(t, generate.Options{MinScore: 2.6, MaxScore: 3.4, Seed: 5}, 0)
	if g.Puzzle != want.Puzzle.String() || g.Score < 2.6 || g.Score > 3.4 || g.Command != "sudoku generate --score 2.6-3.4 --seed 5" {
		t.Errorf("generate by score: %+v", g)
	}
	// A seed past 2^53 stays exact (a string, not a float).
	apitest.MustPost(t, srv, "/api/sudoku/generate", map[string]any{"difficulty": "singles", "seed": "18446744073709551615"}, &g)
	if g.Seed != "18446744073709551615" || g.Puzzle != apitest.Puzzle(t, generate.Options{Level: sudoku.Singles, Seed: 1<<64 - 1}, 0).Puzzle.String() {
		t.Errorf("large seed: %+v", g)
	}
	// No seed: the server picks one below 2^53 and says which.
	apitest.MustPost(t, srv, "/api/sudoku/generate", map[string]any{}, &g)
	var seed uint64
	if _, err := fmt.Sscan(g.Seed, &seed); err != nil || seed == 0 || seed >= 1<<53 || g.Level != "hard" || g.Command != "sudoku generate --difficulty hard --seed "+g.Seed {
		t.Errorf("random seed: %+v", g)
	}
	if g.Puzzle != apitest.Puzzle(t, generate.Options{Level: sudoku.Hard, Seed: seed}, 0).Puzzle.String() {
		t.Error("the seed reported does not give the puzzle")
	}
}

func TestValidateSolveCountRate(t *testing.T) {
	srv := newServer(t)
	var v sudokupage.Validation
	apitest.MustPost(t, srv, "/api/sudoku/validate", map[string]string{"grid": top1}, &v)
	if v.Verdict != sudokupage.VerdictUnique || v.Solutions != 1 || v.Clues != apitest.Grid(t, top1).Clues() || len(v.Clashes) != 0 {
		t.Errorf("top1: %+v", v)
	}
	apitest.MustPost(t, srv, "/api/sudoku/validate", map[string]string{"grid": fourSols}, &v)
	if v.Verdict != sudokupage.VerdictSeveral || v.Solutions != 2 {
		t.Errorf("four solutions: %+v", v)
	}
	// Media types are case-insensitive: Application/JSON is JSON, not 415.
	for _, ct := range []string{"Application/JSON", "APPLICATION/json; charset=UTF-8", " application/json ;charset=utf-8"} {
		v = sudokupage.Validation{}
		if st := apitest.Call(t, srv, "POST", "/api/sudoku/validate", ct, `{"grid":"`+top1+`"}`, &v); st != 200 || v.Verdict != sudokupage.VerdictUnique {
			t.Errorf("Content-Type %q: %d %+v", ct, st, v)
		}
	}
	clash := "11" + top1[2:]
	apitest.MustPost(t, srv, "/api/sudoku/validate", map[string]string{"grid": clash}, &v)
	if v.Verdict != sudokupage.VerdictNone || !slices.Equal(v.Clashes, []int{0, 1}) || !strings.Contains(v.Message, "r1c1 and r1c2 are both 1 in row 1") {
		t.Errorf("clash: %+v", v)
	}
	// No clash, but no solution: r1c9 can only be 9, which column 9 holds.
	noSol := "12345678." + "........9" + strings.Repeat(".", 63)
	apitest.MustPost(t, srv, "/api/sudoku/validate", map[string]string{"grid": noSol}, &v)
	if v.Verdict != sudokupage.VerdictNone || len(v.Clashes) != 0 || v.Solutions != 0 {
		t.Errorf("no solution: %+v", v)
	}

	var s sudokupage.Solution
	apitest.MustPost(t, srv, "/api/sudoku/solve", map[string]string{"grid": top1}, &s)
	if s.Solution != top1Sol || s.Verdict != sudokupage.VerdictUnique {
		t.Errorf("solve: %+v", s)
	}
	s = sudokupage.Solution{}
	apitest.MustPost(t, srv, "/api/sudoku/solve", map[string]string{"grid": clash}, &s)
	if s.Solution != "" || s.Verdict != sudokupage.VerdictNone {
		t.Errorf("solve of a clash: %+v", s)
	}

	var c sudokupage.CountAnswer
	apitest.MustPost(t, srv, "/api/sudoku/count", map[string]string{"grid": fourSols}, &c)
	if c.Count != 4 || c.LimitReached || c.Limit != sudokupage.DefaultCountLimit {
		t.Errorf("count: %+v", c)
	}
	apitest.MustPost(t, srv, "/api/sudoku/count", map[string]any{"grid": strings.Repeat(".", 81), "limit": 500}, &c)
	if c.Count != 500 || !c.LimitReached {
		t.Errorf("count of the empty grid up to 500: %+v", c)
	}
	apitest.MustPost(t, srv, "/api/sudoku/count", map[string]any{"grid": clash}, &c)
	if c.Count != 0 || len(c.Clashes) != 2 {
		t.Errorf("count of a clash: %+v", c)
	}

	var r sudokupage.Rating
	for _, lv := range sudoku.Levels {
		p := apitest.Puzzle(t, generate.Options{Level: lv, Seed: 9}, 0).Puzzle.String()
		apitest.MustPost(t, srv, "/api/sudoku/rate", map[string]string{"grid": p}, &r)
		lo, hi := lv.Scores()
		if r.Level != lv || r.Score < lo || r.Score > hi || len(r.Techniques) == 0 || !strings.HasPrefix(r.Text, lv.String()+", score") {
			t.Errorf("rate %s: %+v, want %s", p, r, lv)
		}
	}
	var msg string
	if code := apitest.Post(t, srv, "/api/sudoku/rate", map[string]string{"grid": fourSols}, &msg); code != 400 || !strings.Contains(msg, "more than one solution") {
		t.Errorf("rate of a puzzle with 4 solutions: %d %q", code, msg)
	}
}

func TestHint(t *testing.T) {
	srv := newServer(t)
	var st logic.Step
	apitest.MustPost(t, srv, "/api/sudoku/hint", map[string]string{"puzzle": top1, "grid": top1}, &st)
	want, err := logic.Hint(apitest.Grid(t, top1))
	if err != nil {
		t.Fatal(err)
	}
	if st.Text != want.Text || st.Technique != want.Technique || !slices.Equal(st.Placements, want.Placements) || !slices.Equal(st.Cells, want.Cells) {
		t.Errorf("hint %+v, want %+v", st, want)
	}
	apitest.CheckStep(t, st, apitest.Grid(t, top1Sol))
	// Steps of every kind of puzzle, the hardest included, are sound.
	for _, p := range []string{monster, apitest.Puzzle(t, generate.Options{Level: sudoku.Intermediate, Seed: 4}, 0).Puzzle.String()} {
		_, sol := sudoku.Solve(apitest.Grid(t, p), 2)
		apitest.MustPost(t, srv, "/api/sudoku/hint", map[string]string{"puzzle": p, "grid": p}, &st)
		apitest.CheckStep(t, st, sol)
	}
	// A wrong entry is pointed out before any step.
	g := []byte(top1)
	for i, c := range g {
		if c == '.' {
			g[i] = top1Sol[i]%9 + '1' // never the right digit
			if v, _ := sudoku.Parse(string(g)); v.Check() == nil {
				break
			}
			g[i] = '.'
		}
	}
	apitest.MustPost(t, srv, "/api/sudoku/hint", map[string]string{"puzzle": top1, "grid": string(g)}, &st)
	if st.Technique != "mistake" || len(st.Cells) != 1 || !strings.Contains(st.Text, "is wrong") {
		t.Errorf("hint on a wrong entry: %+v", st)
	}
	// Without the puzzle there is no solution to compare: the step is
	// from the digits alone.
	apitest.MustPost(t, srv, "/api/sudoku/hint", map[string]string{"grid": top1}, &st)
	if st.Text != want.Text {
		t.Errorf("hint without the puzzle: %+v", st)
	}
	noSol := "12345678." + "........9" + strings.Repeat(".", 63)
	for _, c := range []struct {
		body      map[string]string
		technique string
		cells     []int
	}{
		{map[string]string{"grid": "11" + top1[2:]}, "clash", []int{0, 1}},
		{map[string]string{"puzzle": top1, "grid": top1Sol}, "solved", []int{}},
		{map[string]string{"grid": noSol}, "mistake", []int{}},
		{map[string]string{"grid": fourSols}, "none", []int{}},
		{map[string]string{"puzzle": fourSols, "grid": fourSols}, "none", []int{}},
	} {
		st = logic.Step{}
		apitest.MustPost(t, srv, "/api/sudoku/hint", c.body, &st)
		if st.Technique != c.technique || !slices.Equal(st.Cells, c.cells) || st.Text == "" || st.Placements == nil {
			t.Errorf("hint on %v: %+v, want %s", c.body, st, c.technique)
		}
	}
	var msg string
	if code := apitest.Post(t, srv, "/api/sudoku/hint", map[string]string{"puzzle": top1, "grid": "5" + top1[1:]}, &msg); code != 400 || !strings.Contains(msg, "r1c1 is 4 in the puzzle") {
		t.Errorf("a changed given: %d %q", code, msg)
	}
}

func TestParseAndSave(t *testing.T) {
	srv := newServer(t)
	marks := make([]string, 81)
	marks[1], marks[2] = "26", "139"
	prog := []byte(top1)
	prog[1] = '6'
	game := sudokupage.Game{Puzzle: top1, Progress: string(prog), Marks: marks, Seconds: 125, Seed: "42", Level: "hard", Symmetry: "mirror", Index: 2}
	names := map[string]string{}
	for _, f := range []string{"line", "grid", "json"} {
		var file sudokupage.SavedFile
		body := map[string]any{"format": f, "puzzle": game.Puzzle, "progress": game.Progress, "marks": game.Marks,
			"seconds": game.Seconds, "seed": game.Seed, "level": game.Level, "symmetry": game.Symmetry, "index": game.Index}
		apitest.MustPost(t, srv, "/api/sudoku/save", body, &file)
		if file.Filename == "" || !strings.HasPrefix(file.Filename, "sudoku-hard-42-2") {
			t.Errorf("%s: filename %q", f, file.Filename)
		}
		// The line and the grid must not get the same name.
		if g, dup := names[file.Filename]; dup {
			t.Errorf("%s and %s saves are both named %s", g, f, file.Filename)
		}
		names[file.Filename] = f
		// The sudoku command reads the puzzle of every format.
		rd := sudoku.NewReader(strings.NewReader(file.Text))
		if it, ok := rd.Next(); !ok || it.Err != nil || it.Grid.String() != top1 {
			t.Errorf("%s: the command reads %+v from\n%s", f, it, file.Text)
		}
		if _, ok := rd.Next(); ok {
			t.Errorf("%s: the command reads a second puzzle in\n%s", f, file.Text)
		}
		var back sudokupage.Loaded
		apitest.MustPost(t, srv, "/api/sudoku/parse", map[string]string{"text": file.Text}, &back)
		if !gameEqual(back.Game, game) || back.Verdict != sudokupage.VerdictUnique || back.Puzzles != 1 {
			t.Errorf("%s: loaded %+v, want %+v", f, back, game)
		}
	}
	var ld sudokupage.Loaded
	// A grid pasted with box borders; a line with clashes is kept as is.
	pasted := "4 . . | . 3 . | . . .\n. . . | 6 . . | 8 . .\n. . . | . . . | . . 1\n------+-------+------\n. . . | . 5 . | . 9 .\n. 8 . | . . . | 6 . .\n. 7 . | 2 . . | . . .\n------+-------+------\n. . . | 1 . 2 | 7 . .\n5 . 3 | . . . | . 4 .\n9 . . | . . . | . . .\n"
	apitest.MustPost(t, srv, "/api/sudoku/parse", map[string]string{"text": pasted}, &ld)
	if ld.Puzzle != top1 || ld.Verdict != sudokupage.VerdictUnique {
		t.Errorf("pasted grid: %+v", ld)
	}
	apitest.MustPost(t, srv, "/api/sudoku/parse", map[string]string{"text": "  11" + top1[2:] + "\n"}, &ld)
	if ld.Puzzle != "11"+top1[2:] || ld.Verdict != sudokupage.VerdictNone || len(ld.Clashes) != 2 {
		t.Errorf("pasted clash: %+v", ld)
	}
	// The answers files, the command's outputs.
	for _, text := range []string{
		"# a comment\n" + top1 + ":1:" + top1Sol + "\n" + fourSols + ":4\n",
		top1 + " unique\n",
		`{"puzzle":"` + top1 + `","solution":"` + top1Sol + `","solutions":1,"level":"hard","clues":17,"seed":1700000000000000001,"index":0,"symmetric":false}` + "\n",
	} {
		apitest.MustPost(t, srv, "/api/sudoku/parse", map[string]string{"text": text}, &ld)
		if ld.Puzzle != top1 {
			t.Errorf("%q: %+v", text, ld)
		}
	}
	if ld.Seed != "1700000000000000001" {
		t.Errorf("seed of generate's JSON: %q", ld.Seed)
	}
	apitest.MustPost(t, srv, "/api/sudoku/parse", map[string]string{"text": top1 + "\n" + fourSols + "\n"}, &ld)
	if ld.Puzzles != 2 || ld.Puzzle != top1 {
		t.Errorf("two puzzles: %+v", ld)
	}
	for text, want := range map[string]string{
		"":                                  "no puzzle",
		"hello":                             "not a digit",
		top1[:80]:                           "80 cells",
		`{"puzzle": 5}`:                     "bad JSON",
		`{"x": 1}`:                          `without a "puzzle"`,
		top1 + "\n# progress: 5" + top1[1:]: "progress: r1c1 is 4",
		top1 + "\n# marks: 1,2":             "marks: 2 entries",
		top1 + "\n# seconds: soon":          "not a whole number",
		top1 + "\n# level: fiendish":        "unknown difficulty",
		top1 + "\n# progress: " + top1[:80]: "progress: 80 characters",
		top1 + "\n# marks: " + strings.Repeat("x,", 80) + "x": "want digits 1-9",
	} {
		var msg string
		if code := apitest.Post(t, srv, "/api/sudoku/parse", map[string]string{"text": text}, &msg); code != 400 || !strings.Contains(msg, want) {
			t.Errorf("parse %q: %d %q, want 400 and %q", text, code, msg, want)
		}
	}
}

func gameEqual(a, b sudokupage.Game) bool {
	return a.Puzzle == b.Puzzle && a.Progress == b.Progress && slices.Equal(a.Marks, b.Marks) &&
		a.Seconds == b.Seconds && a.Seed == b.Seed && a.Level == b.Level && a.Symmetry == b.Symmetry && a.Index == b.Index
}

// TestSudokuWorkEndsWithRequester: the Sudoku endpoints work within the
// request, so a client that goes away stops the work at once (here the
// rating of Easter Monster, most of a second of forcing chains, ten
// under the race detector).
func TestSudokuWorkEndsWithRequester(t *testing.T) {
	logged := make(chan string, 4)
	h := web.New(web.Options{Pages: []*web.Page{sudokupage.New(sudokupage.Options{Workers: 2})}, Logf: func(format string, args ...any) {
		logged <- fmt.Sprintf(format, args...)
	}})
	started, ended := make(chan struct{}), make(chan time.Time, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		h.ServeHTTP(w, r)
		ended <- time.Now()
	}))
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/api/sudoku/rate", strings.NewReader(`{"grid":"`+monster+`"}`))
	req.Header.Set("Content-Type", "application/json")
	answered := make(chan int, 1)
	go func() {
		resp, err := srv.Client().Do(req)
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	<-started
	time.Sleep(30 * time.Millisecond)
	cancel()
	left := time.Now()
	select {
	case end := <-ended:
		if code := <-answered; code != 0 {
			t.Fatalf("the rating answered %d before its client left: too fast to see it stopped", code)
		}
		select {
		case msg := <-logged:
			if !strings.Contains(msg, "context canceled") {
				t.Errorf("the rating ended with %q, want a cancelled context", msg)
			}
		default:
			t.Error("the rating ended without a word: it finished instead of stopping")
		}
		if d := end.Sub(left); d > 2*time.Second {
			t.Errorf("the rating went on %v after its client left", d)
		}
		t.Logf("the rating stopped %v after its client left", end.Sub(left).Round(time.Millisecond))
	case <-time.After(time.Minute):
		t.Fatal("the rating went on a minute after its client left")
	}
}
