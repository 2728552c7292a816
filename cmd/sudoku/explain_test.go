package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/generate"
	"github.com/nqcount/nqcount/count/sudoku/logic"
	"github.com/nqcount/nqcount/internal/cli"
)

const easy1 = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."

func TestRateOutput(t *testing.T) {
	se := " [se " + logic.Version + "]"
	code, out, errOut := call(t, easy1+"\n"+top1+"\n", "rate")
	if code != cli.ExitOK || out != easy1+" singles 1.2/1.2/1.2"+se+"\n"+top1+" hard 9.0/1.2/1.2"+se+"\n" {
		t.Errorf("rate: %d %q %q", code, out, errOut)
	}
	// Each scale by name, in JSON: the whole rating with its scale and
	// rater.
	for _, c := range []struct {
		scale      string
		er         float64
		hardest    string
		lastTechDo string
	}{{"se", 9.0, "Dynamic Contradiction Forcing Chains", "Dynamic Cell Forcing Chains"}, {"classic", 8.3, "forcing chain", "forcing chain"}} {
		code, out, _ = call(t, top1, "rate", "--format", "json", "--scale", c.scale)
		var v struct {
			Scale      string               `json:"scale"`
			Rater      string               `json:"rater"`
			Score      float64              `json:"score"`
			ER         float64              `json:"er"`
			EP         float64              `json:"ep"`
			ED         float64              `json:"ed"`
			Hardest    string               `json:"hardest"`
			Level      string               `json:"level"`
			Techniques []logic.TechniqueUse `json:"techniques"`
			Solution   string               `json:"solution"`
		}
		if code != cli.ExitOK || json.Unmarshal([]byte(out), &v) != nil || v.Scale != c.scale || v.Rater != logic.Version || v.Score != c.er || v.ER != c.er ||
			v.EP != 1.2 || v.ED != 1.2 || v.Hardest != c.hardest || v.Level != "hard" || v.Solution != top1Sol ||
			len(v.Techniques) == 0 || v.Techniques[len(v.Techniques)-1].Name != c.lastTechDo {
			t.Errorf("rate --scale %s json: %d %s", c.scale, code, out)
		}
	}
	if _, out, _ = call(t, top1, "rate", "--scale", "classic"); out != top1+" hard 8.3/1.2/1.2 [classic "+logic.Version+"]\n" {
		t.Errorf("rate --scale classic: %q", out)
	}
	// An unknown scale: a usage error, nothing rated.
	code, out, errOut = call(t, top1, "rate", "--scale", "serate")
	if code != cli.ExitUsage || out != "" || !strings.Contains(errOut, `unknown rating scale "serate"`) {
		t.Errorf("rate --scale serate: %d %q %q", code, out, errOut)
	}
	// Not unique: an error line, exit 1, the others still rated.
	code, out, errOut = call(t, strings.Repeat(".", 80)+"1\n"+easy1+"\n", "rate", "--workers", "1")
	if code != cli.ExitFail || out != easy1+" singles 1.2/1.2/1.2"+se+"\n" || !strings.Contains(errOut, "stdin:1: cannot rate: puzzle has more than one solution") {
		t.Errorf("rate of a bad puzzle: %d %q %q", code, out, errOut)
	}
}

func TestExplain(t *testing.T) {
	code, out, errOut := call(t, "", "explain", easy1)
	if code != cli.ExitOK {
		t.Fatalf("explain: %d %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != "# line 1: "+easy1 || lines[1] != "  1. [1.2] r2c2 can only be 6: hidden single in box 1, the only place for 6 there" ||
		lines[len(lines)-1] != "rating ER 1.2 EP 1.2 ED 1.2 (Hidden Single) [se scale, rater "+logic.Version+"], singles, 49 steps: Hidden Single x49" {
		t.Errorf("explain:\n%s", out)
	}
	_, out, _ = call(t, "", "explain", "--scale", "classic", easy1)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); lines[len(lines)-1] != "rating ER 1.2 EP 1.2 ED 1.2 (hidden single) [classic scale, rater "+logic.Version+"], singles, 49 steps: full house x20, hidden single x29" {
		t.Errorf("explain --scale classic:\n%s", out)
	}
	if code, _, errOut := call(t, "", "explain", "--scale", "x", easy1); code != cli.ExitUsage || !strings.Contains(errOut, "unknown rating scale") {
		t.Errorf("explain --scale x: %d %q", code, errOut)
	}
	// JSON: the steps replay to the solution.
	code, out, _ = call(t, top1, "explain", "--format", "json")
	var v struct {
		Puzzle, Solution string
		Rating           logic.Rating
		Steps            []logic.Step
	}
	if code != cli.ExitOK || json.Unmarshal([]byte(out), &v) != nil || v.Solution != top1Sol || v.Rating.ER != 9.0 || v.Rating.Scale != logic.ScaleSE ||
		v.Rating.Rater != logic.Version || v.Rating.Level != sudoku.Hard {
		t.Fatalf("explain json: %d %.300s", code, out)
	}
	g, _ := sudoku.Parse(top1)
	for _, st := range v.Steps {
		for _, m := range st.Placements {
			g[m.Cell] = uint8(m.Digit)
		}
	}
	if g.String() != top1Sol {
		t.Errorf("placements of the JSON steps give %s", g)
	}
	// Several puzzles on two workers: in input order.
	code, out, _ = call(t, easy1+"\n"+top1+"\n", "explain", "--workers", "2")
	if i, j := strings.Index(out, "# line 1: "+easy1), strings.Index(out, "# line 2: "+top1); code != cli.ExitOK || i < 0 || j < i {
		t.Errorf("explain of two puzzles: %d\n%.200s", code, out)
	}
	code, _, errOut = call(t, strings.Repeat(".", 81), "explain")
	if code != cli.ExitFail || !strings.Contains(errOut, "cannot explain: puzzle has more than one solution") {
		t.Errorf("explain of an empty grid: %d %q", code, errOut)
	}
}

func TestGenerateFlags(t *testing.T) {
	code, out, errOut := call(t, "", "generate", "--seed", "7", "--count", "3", "--score", "4.0-6.0", "--symmetry", "random", "--format", "json", "--stats", "--workers", "1024")
	if code != cli.ExitOK {
		t.Fatalf("generate: %d %s", code, errOut)
	}
	var seen []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var v struct {
			Puzzle   string  `json:"puzzle"`
			Score    float64 `json:"score"`
			Symmetry string  `json:"symmetry"`
			Index    int     `json:"index"`
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		g, _ := sudoku.Parse(v.Puzzle)
		sym, err := generate.ParseSymmetry(v.Symmetry)
		if err != nil || sym == generate.None || sym == generate.Random || !generate.Symmetric(g, sym) || v.Score < 4 || v.Score > 6 || v.Index != len(seen) {
			t.Errorf("generate wrote %s", l)
		}
		seen = append(seen, v.Puzzle)
	}
	if len(seen) != 3 || !strings.Contains(errOut, "stats: 3 puzzles in") || !strings.Contains(errOut, "stats: scores ") {
		t.Errorf("%d puzzles; stderr %q", len(seen), errOut)
	}
	// --symmetric is --symmetry rot180.
	_, a, _ := call(t, "", "generate", "--seed", "7", "--symmetric", "--difficulty", "intermediate")
	_, b, _ := call(t, "", "generate", "--seed", "7", "--symmetry", "rot180", "--difficulty", "intermediate")
	g, _ := sudoku.Parse(strings.TrimSpace(a))
	if a != b || !generate.Symmetric(g, generate.Rot180) {
		t.Errorf("--symmetric %q, --symmetry rot180 %q", a, b)
	}
}

// A range too rare to meet ends with one line saying so, after a bounded
// number of tries by default (it used to try for ever).
func TestGenerateTooRare(t *testing.T) {
	code, out, errOut := call(t, "", "generate", "--score", "11.9", "--seed", "1", "--max-tries", "3", "--count", "2")
	want := "sudoku: puzzle 0: no puzzle scoring 11.9 in 3 solution grids (--max-tries): too rare a range to meet at random; widen it, or raise --max-tries (0: never give up)\n"
	if code != cli.ExitFail || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want %d and %q", code, out, errOut, cli.ExitFail, want)
	}
	_, help, _ := call(t, "", "generate", "-h")
	if !strings.Contains(help, fmt.Sprintf("(default %d)", generate.DefaultMaxTries)) || generate.DefaultMaxTries <= 0 {
		t.Errorf("--max-tries has no bounded default:\n%s", help)
	}
}

func TestGenerateInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	var o, e bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- app.Run(ctx, &cli.Env{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e}, []string{"generate", "--score", "11.5-11.9", "--seed", "1", "--count", "3"})
	}()
	select {
	case code := <-done:
		if code != cli.ExitInterrupted {
			t.Errorf("exit %d, want %d: %s", code, cli.ExitInterrupted, e.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("generate ignores the interrupt")
	}
}
