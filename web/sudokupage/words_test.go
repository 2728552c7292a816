package sudokupage_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/count/sudoku/logic"
	"github.com/nqcount/nqcount/web/sudokupage"
)

// TestTechniqueName: the names a player reads carry no pattern code, and
// one thing has one name.
func TestTechniqueName(t *testing.T) {
	for _, c := range []struct {
		technique string
		score     float64
		want      string
	}{
		{"2-String Kite 012", 4.1, "2-String Kite"},
		{"Grouped Skyscraper 111", 4.3, "Grouped Skyscraper"},
		{"VWXYZ-Wing 1412", 6.3, "VWXYZ-Wing"},
		{"3 Strong links 0011", 5.4, "3 Strong Links"},
		{"Grouped 2 Strong links 101", 4.3, "Grouped 2 Strong Links"},
		{"(3 Strong Links) X-Loop 0111", 5.4, "X-Loop of 3 Strong Links"},
		{"(3 Strong Links) Grouped X-Loop 1012", 5.7, "Grouped X-Loop of 3 Strong Links"},
		{"Unique Rectangle type 4", 4.5, "Unique Rectangle type 4"},
		{"Unique Loop 6 type 2", 4.6, "Unique Loop 6 type 2"},
		{"BUG type 1", 5.6, "BUG type 1"},
		{"Hidden Single", 1.0, "Full House"},
		{"Hidden Single", 1.2, "Hidden Single"},
		{"full house", 1.0, "Full House"},
		{"x-wing", 3.2, "X-Wing"},
		{"simple coloring", 4.0, "Simple Coloring"},
		{"Cell Forcing Chains", 8.4, "Cell Forcing Chains"},
	} {
		if got := sudokupage.TechniqueName(c.technique, c.score); got != c.want {
			t.Errorf("TechniqueName(%q, %.1f) = %q, want %q", c.technique, c.score, got, c.want)
		}
	}
}

// TestGlossaryCoversTechniques: every technique of both scales has a
// glossary entry, and the codes' variants map to their family's.
func TestGlossaryCoversTechniques(t *testing.T) {
	keys := sudokupage.GlossaryKeys()
	names := []string{"2-String Kite 012", "Grouped Skyscraper 111", "VWXYZ-Wing 1412", "3 Strong links 0011", "(3 Strong Links) X-Loop 0111",
		"3 Skyscrapers 0111", "Unique Loop 6 type 2", "BUG type 3", "Bidirectional Y-Cycle", "Forcing X-Chain", "Forcing Chain",
		"Cell Forcing Chains", "Region Forcing Chains", "Dynamic Contradiction Forcing Chains", "Dynamic Double Forcing Chains",
		"Nishio Forcing Chains", "Direct Hidden Triplet", "Pointing", "Claiming"}
	for _, sc := range []logic.Scale{logic.ScaleSE, logic.ScaleClassic} {
		for _, tq := range logic.TechniquesOf(sc) {
			names = append(names, tq.Name)
		}
	}
	for _, n := range names {
		h := sudokupage.HintOf(logic.Step{Technique: n, Score: 5})
		if h.Glossary == "" || !slices.Contains(keys, h.Glossary) {
			t.Errorf("%q: glossary key %q, want one of %v", n, h.Glossary, keys)
		}
		if strings.ContainsAny(h.Name, "0123456789") && !strings.Contains(h.Name, "type") && !strings.Contains(h.Name, "Strong") &&
			!strings.Contains(h.Name, "Skyscrapers") && !strings.Contains(h.Name, "String") && !strings.Contains(h.Name, "Loop 6") {
			t.Errorf("%q: name %q has a code", n, h.Name)
		}
	}
}

// TestHintWords: chains and eliminations in words, and every branch of a
// forcing chain read (top1465 line 1100's 23rd hint, as the engine
// writes it).
func TestHintWords(t *testing.T) {
	const cell = `{"technique":"Cell Forcing Chains","score":8.4,"text":"cell forcing chains: r8c6 is 4, 6 or 9, and each case leads to r5c6<>8 (r8c6=4 -> r8c5<>4 -> r2c5=4 -> r2c5<>8 -> r5c5=8 -> r5c6<>8; r8c6=6 -> r7c5<>6 -> r7c5=5 -> r5c5<>5 -> r5c5=8 -> r5c6<>8; r8c6=9 -> r8c4<>9 -> r5c4=9 -> r5c4<>7 -> r5c6=7 -> r5c6<>8), so r5c6 cannot be 8","placements":[],"eliminations":[{"cell":41,"digit":8}],"cells":[13,39,40,41,58,66,67,68],"houses":[],"marks":[{"cell":68,"digit":4,"color":0},{"cell":67,"digit":4,"color":1},{"cell":13,"digit":4,"color":0},{"cell":13,"digit":8,"color":1},{"cell":40,"digit":8,"color":0},{"cell":41,"digit":8,"color":1}],"links":[{"from":{"cell":68,"digit":4},"to":{"cell":67,"digit":4},"strong":false},{"from":{"cell":67,"digit":4},"to":{"cell":13,"digit":4},"strong":true},{"from":{"cell":13,"digit":4},"to":{"cell":13,"digit":8},"strong":false},{"from":{"cell":13,"digit":8},"to":{"cell":40,"digit":8},"strong":true},{"from":{"cell":40,"digit":8},"to":{"cell":41,"digit":8},"strong":false}]}`
	var st logic.Step
	if err := json.Unmarshal([]byte(cell), &st); err != nil {
		t.Fatal(err)
	}
	h := sudokupage.HintOf(st)
	if len(h.Branches) != 3 {
		t.Fatalf("%d branches, want 3", len(h.Branches))
	}
	if !slices.Equal(h.Branches[0], st.Links) {
		t.Errorf("first branch %v, want the engine's links %v", h.Branches[0], st.Links)
	}
	if want := "if r8c6 is 9, then r8c4 cannot be 9, so r5c4 is 9, so r5c4 cannot be 7, so r5c6 is 7, so r5c6 cannot be 8"; len(h.BranchWords) != 3 || h.BranchWords[2] != want {
		t.Errorf("branches in words %q, want the third %q", h.BranchWords, want)
	}
	if n := len(h.Branches[2]); n != 5 {
		t.Errorf("third branch: %d links, want 5", n)
	}
	for _, m := range []logic.Mark{{Cell: 58, Digit: 6, Color: 1}, {Cell: 39, Digit: 9, Color: 0}} {
		if !slices.Contains(h.Marks, m) {
			t.Errorf("mark %v of a later branch missing from %v", m, h.Marks)
		}
	}
	want := "Cell Forcing Chains: r8c6 is 4, 6 or 9, and each case leads to “r5c6 cannot be 8” (if r8c6 is 4, then r8c5 cannot be 4, so r2c5 is 4, so r2c5 cannot be 8, so r5c5 is 8, so r5c6 cannot be 8; if r8c6 is 6"
	if !strings.HasPrefix(h.Words, want) || strings.Contains(h.Words, "<>") || strings.Contains(h.Words, "->") {
		t.Errorf("words:\n%s\nwant the start\n%s", h.Words, want)
	}
	if h.Text != st.Text || h.Technique != st.Technique {
		t.Errorf("the engine's text or technique changed: %q %q", h.Technique, h.Text)
	}

	kite := sudokupage.HintOf(logic.Step{Technique: "2-String Kite 012", Score: 4.1, Text: "2-string kite 012 on 1: r7c9 = r7c2 (row 7) - r9c1 = r3c1 (column 1); one of the chain's ends is 1, so r3c9 cannot be 1"})
	if want := "2-String Kite on 1: 1 is in r7c9 or r7c2 (the only places in row 7); r7c2 sees r9c1, and 1 is in r9c1 or r3c1 (the only places in column 1); one of the chain's ends is 1, so r3c9 cannot be 1"; kite.Words != want {
		t.Errorf("kite in words:\n%s\nwant\n%s", kite.Words, want)
	}
	if kite.Branches != nil {
		t.Errorf("a kite has branches %v", kite.Branches)
	}
}

// TestSavedGameAtZeroSeconds: a game saved at 0 s says so (the JSON once
// had no seconds field).
func TestSavedGameAtZeroSeconds(t *testing.T) {
	text, err := sudokupage.FormatGame(sudokupage.Game{Puzzle: strings.Repeat(".", 80) + "1"}, sudokupage.FormatJSON)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, `"seconds":0`) {
		t.Errorf("saved at 0 s: %s", text)
	}
}
