package logic

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/sudoku"
)

// seTrace is serate's rating of one puzzle with its steps, as serate prints
// it with --start='#P %n %g' --after='S %r %s' --format='R %r/%p/%d ...'.
type seTrace struct {
	puzzle     string
	er, ep, ed float64
	steps      []seTraceStep
}

type seTraceStep struct {
	score float64
	text  string
}

func readSETraces(t testing.TB, path string) []seTrace {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []seTrace
	var cur *seTrace
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "#P "):
			f := strings.Fields(l)
			out = append(out, seTrace{puzzle: f[len(f)-1]})
			cur = &out[len(out)-1]
		case strings.HasPrefix(l, "S ") && cur != nil:
			sp := strings.SplitN(l[2:], " ", 2)
			v, _ := strconv.ParseFloat(sp[0], 64)
			cur.steps = append(cur.steps, seTraceStep{v, sp[1]})
		case strings.HasPrefix(l, "R ") && cur != nil:
			r := strings.SplitN(strings.Fields(l)[1], "/", 3)
			cur.er, _ = strconv.ParseFloat(r[0], 64)
			cur.ep, _ = strconv.ParseFloat(r[1], 64)
			cur.ed, _ = strconv.ParseFloat(r[2], 64)
			cur = nil
		}
	}
	// Drop a puzzle still being rated.
	if cur != nil {
		out = out[:len(out)-1]
	}
	return out
}

// TestSETraces compares ratings and steps with serate's traces named by
// NQCOUNT_SE_TRACES (comma-separated files): a development aid, not run
// otherwise.
func TestSETraces(t *testing.T) {
	env := os.Getenv("NQCOUNT_SE_TRACES")
	if env == "" {
		t.Skip("NQCOUNT_SE_TRACES names no trace file")
	}
	verbose := os.Getenv("NQCOUNT_SE_VERBOSE") != ""
	limit := 1 << 30
	if v := os.Getenv("NQCOUNT_SE_MAX"); v != "" {
		limit, _ = strconv.Atoi(v)
	}
	for _, path := range strings.Split(env, ",") {
		trs := readSETraces(t, path)
		same, n, firstDiff := 0, 0, map[string]int{}
		var cpu time.Duration
		for _, tr := range trs {
			if n >= limit {
				break
			}
			n++
			g, err := sudoku.Parse(tr.puzzle)
			if err != nil {
				t.Fatal(err)
			}
			var steps []Step
			c0 := processCPU()
			r, err := solve(context.Background(), g, Options{}, func(st Step) { steps = append(steps, st) })
			d := processCPU() - c0
			cpu += d
			if verbose && d > 5*time.Second {
				t.Logf("%s: %v CPU", tr.puzzle, d)
			}
			if err != nil {
				t.Errorf("%s: %v", tr.puzzle, err)
				continue
			}
			if r.ER == tr.er && r.EP == tr.ep && r.ED == tr.ed {
				same++
				continue
			}
			// The first step that differs.
			i := 0
			for i < len(steps) && i < len(tr.steps) && steps[i].Score == tr.steps[i].score && sameName(steps[i], tr.steps[i].text) {
				i++
			}
			key := "end"
			detail := ""
			if i < len(tr.steps) {
				key = fmt.Sprintf("SE %.1f %s", tr.steps[i].score, seName(tr.steps[i].text))
				detail = tr.steps[i].text
			}
			ours := "end"
			if i < len(steps) {
				ours = fmt.Sprintf("%.1f %s: %s", steps[i].Score, steps[i].Technique, steps[i].Text)
			}
			firstDiff[key]++
			if verbose {
				t.Logf("%s: ours %.1f/%.1f/%.1f, SE %.1f/%.1f/%.1f; step %d: SE %s | ours %s", tr.puzzle, r.ER, r.EP, r.ED, tr.er, tr.ep, tr.ed, i+1, detail, ours)
			}
		}
		t.Logf("%s: %d of %d equal (ER/EP/ED), CPU %v", path, same, n, cpu)
		for k, v := range firstDiff {
			t.Logf("  first difference %s: %d", k, v)
		}
	}
}

// seName is the technique part of serate's step description.
func seName(text string) string {
	if i := strings.Index(text, ":"); i >= 0 {
		return text[:i]
	}
	return text
}

func sameName(st Step, text string) bool {
	n := seName(text)
	return strings.HasPrefix(st.Technique, n) || strings.HasPrefix(n, st.Technique) || st.Technique == n
}
