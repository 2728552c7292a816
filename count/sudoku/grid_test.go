package sudoku

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

const top1 = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		name, in, want string
	}{
		{"short", top1[:80], "80 cells, want 81"},
		{"long", top1 + ".", "82 cells, want 81"},
		{"empty", "", "0 cells, want 81"},
		{"letter", "x" + top1[1:], `character 1 is "x", not a digit or '.'`},
		{"star", top1[:40] + "*" + top1[41:], `character 41 is "*"`},
		{"utf8", "é" + top1[1:], `character 1 is "é"`},
		{"row clash", "1...1" + strings.Repeat(".", 76), "givens clash: r1c1 and r1c5 are both 1 in row 1"},
		{"column clash", "2" + strings.Repeat(".", 35) + "2" + strings.Repeat(".", 44), "givens clash: r1c1 and r5c1 are both 2 in column 1"},
		{"box clash", "3........." + "3" + strings.Repeat(".", 70), "givens clash: r1c1 and r2c2 are both 3 in box 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse(c.in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Parse: error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestParseLayouts(t *testing.T) {
	want, err := Parse(top1)
	if err != nil {
		t.Fatal(err)
	}
	zeros := strings.ReplaceAll(top1, ".", "0")
	boxed := ""
	for r := 0; r < 9; r++ {
		if r%3 == 0 && r > 0 {
			boxed += "------+-------+------\n"
		}
		for c := 0; c < 9; c++ {
			if c%3 == 0 && c > 0 {
				boxed += "| "
			}
			boxed += string(top1[r*9+c]) + " "
		}
		boxed += "\n"
	}
	for _, in := range []string{zeros, want.GridString(), boxed} {
		g, err := Parse(in)
		if err != nil || g != want {
			t.Errorf("Parse(%q) = %s, %v", in, g, err)
		}
	}
	if want.String() != top1 || want.Clues() != 18 {
		t.Errorf("String/Clues: %s %d", want, want.Clues())
	}
	if got := CellName(80); got != "r9c9" {
		t.Errorf("CellName(80) = %s", got)
	}
}

func TestReader(t *testing.T) {
	g, _ := Parse(top1)
	input := "# a comment\n" +
		top1 + "\n" + // line 2
		top1 + ":1:solution\n" + // line 3: answers layout
		"\n" +
		g.GridString() + // lines 5-13
		"\n" +
		`{"puzzle":"` + top1 + `","solutions":1}` + "\n" + // line 15
		top1[:80] + "\n" + // line 16: short
		"1...1" + top1[5:] + "\n" + // line 17: clash
		"123\n" + // line 18
		top1 + " unique\n" + // line 19: this tool's line output
		`{"solutions":1}` + "\n" + // line 20
		"..3.\n.....\n" + // lines 21-22: bad rows
		"..3......\n" + top1 + "\n" // lines 23-24: an unfinished grid, then a puzzle
	rd := NewReader(strings.NewReader(input))
	type res struct {
		line int
		ok   bool
		msg  string
	}
	want := []res{{2, true, ""}, {3, true, ""}, {5, true, ""}, {15, true, ""},
		{16, false, "line 16: 80 cells, want 81"},
		{17, false, "line 17: givens clash: r1c1 and r1c5"},
		{18, false, "line 18: 3 cells: neither"},
		{19, true, ""},
		{20, false, `line 20: JSON object without a "puzzle" field`},
		{21, false, "line 21: 4 cells"},
		{22, false, "line 22: 5 cells"},
		{23, false, "line 23: grid of 1 row, want 9"},
		{24, true, ""},
	}
	var got []Item
	for {
		it, ok := rd.Next()
		if !ok {
			break
		}
		got = append(got, it)
	}
	if rd.Err() != nil {
		t.Fatal(rd.Err())
	}
	if len(got) != len(want) {
		t.Fatalf("%d items, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		it := got[i]
		if it.Line != w.line || (it.Err == nil) != w.ok {
			t.Errorf("item %d: line %d err %v; want line %d ok %v", i, it.Line, it.Err, w.line, w.ok)
			continue
		}
		if w.ok && it.Grid != g {
			t.Errorf("item %d: grid %s", i, it.Grid)
		}
		if !w.ok && !strings.Contains(it.Err.Error(), w.msg) {
			t.Errorf("item %d: error %q, want %q", i, it.Err, w.msg)
		}
	}
}

func TestReaderGridNotNine(t *testing.T) {
	g, _ := Parse(top1)
	rows := strings.Split(g.GridString(), "\n")
	rd := NewReader(strings.NewReader(strings.Join(rows[:5], "\n") + "\n\n"))
	it, ok := rd.Next()
	if !ok || it.Err == nil || !strings.Contains(it.Err.Error(), "line 1: grid of 5 rows, want 9") {
		t.Fatalf("got %+v %v", it, ok)
	}
}

func FuzzParse(f *testing.F) {
	f.Add(top1)
	f.Add(strings.ReplaceAll(top1, ".", "0"))
	f.Add("1...1" + top1[5:])
	f.Add("")
	f.Add("5 3 . | . 7 .\n------+------")
	f.Fuzz(func(t *testing.T, s string) {
		g, err := Parse(s)
		if err != nil {
			if _, ok := err.(*ParseError); !ok {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		if g.Check() != nil {
			t.Fatal("accepted grid fails Check")
		}
		// What String writes, Parse reads back unchanged.
		if g2, err := Parse(g.String()); err != nil || g2 != g {
			t.Fatalf("round trip: %s -> %s, %v", g, g2, err)
		}
		// Any accepted puzzle can be searched without panicking.
		var sv Solver
		if n, sol := sv.Solve(&g, 2); n > 0 && !isSolutionOf(sol, g) {
			t.Fatalf("%s: bad solution %s", g, sol)
		}
		rd := NewReader(strings.NewReader(s))
		for {
			if _, ok := rd.Next(); !ok {
				break
			}
		}
	})
}

func TestGridJSON(t *testing.T) {
	g, _ := Parse(top1)
	type rec struct {
		Puzzle   Grid  `json:"puzzle"`
		Solution Grid  `json:"solution"`
		Level    Level `json:"level"`
	}
	gen := rec{Puzzle: g, Solution: g, Level: Intermediate}
	b, err := json.Marshal(gen)
	if err != nil {
		t.Fatal(err)
	}
	var back rec
	if err := json.Unmarshal(b, &back); err != nil || back != gen {
		t.Fatalf("%s -> %+v, %v", b, back, err)
	}
	if !strings.Contains(string(b), `"puzzle":"`+top1+`"`) || !strings.Contains(string(b), `"level":"intermediate"`) {
		t.Errorf("JSON %s", b)
	}
}

// TestGridFastPaths checks Clues, Check and AppendText, which work on
// several cells at once or without branches, against plain loops on
// random grids, clashing or not, with values out of range too.
func TestGridFastPaths(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 7))
	for i := 0; i < 20000; i++ {
		var g Grid
		for k := rng.IntN(40); k > 0; k-- {
			v := uint8(1 + rng.IntN(9))
			if rng.IntN(500) == 0 {
				v = uint8(rng.IntN(256))
			}
			g[rng.IntN(81)] = v
		}
		clues, clash := 0, false
		for a, v := range g {
			if v != 0 {
				clues++
			}
			if v > 9 {
				clash = true
			}
			for b := a + 1; b < 81; b++ {
				same := a/9 == b/9 || a%9 == b%9 || (a/27 == b/27 && a%9/3 == b%9/3)
				if v != 0 && g[b] == v && same {
					clash = true
				}
			}
		}
		if got := g.Clues(); got != clues {
			t.Fatalf("%v: Clues %d, want %d", g, got, clues)
		}
		if err := g.Check(); (err != nil) != clash {
			t.Fatalf("%v: Check %v, clash %v", g, err, clash)
		}
		if !clash {
			if got := string(g.AppendText([]byte("x"))); got != "x"+g.String() {
				t.Fatalf("AppendText %q, String %q", got, g.String())
			}
		}
	}
}

// BenchmarkAppendText writes a grid a line, as the batch commands do.
func BenchmarkAppendText(b *testing.B) {
	g, err := Parse("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........")
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 128)
	for i := 0; i < b.N; i++ {
		buf = g.AppendText(buf[:0])
	}
}
