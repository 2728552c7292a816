package logic

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/explanations.txt")

// TestExplanationsGolden explains samples of the shared sets on both
// scales and compares each explanation (every step's technique, score,
// sentence and pattern, and the rating) with testdata/explanations.txt,
// which holds a hash of each: a change of the rater that changes any
// output fails here, puzzle by puzzle. After a deliberate change (and a
// new Version where ratings move): go test ./count/sudoku/logic -run
// ExplanationsGolden -update, then review git diff.
func TestExplanationsGolden(t *testing.T) {
	d := sharedDir(t, true)
	every := 1
	if testing.Short() || raceEnabled {
		every = 5
	}
	var got []string
	for _, c := range []struct {
		set string
		n   int
	}{{"17-clue.answers.txt", 100}, {"magictour-top1465.answers.txt", 20}} {
		for i, a := range sample(t, filepath.Join(d, c.set), c.n) {
			for _, sc := range Scales {
				x, err := ExplainWith(context.Background(), a.puzzle, Options{Scale: sc})
				if err != nil {
					t.Fatal(err)
				}
				js, err := json.Marshal(x)
				if err != nil {
					t.Fatal(err)
				}
				line := fmt.Sprintf("%s %s %x", a.puzzle, sc, sha256.Sum256(js))
				if i%every == 0 || *updateGolden {
					got = append(got, line)
				}
			}
		}
	}
	const file = "testdata/explanations.txt"
	if *updateGolden {
		if err := os.WriteFile(file, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(l)
		if len(f) != 3 {
			t.Fatalf("%s: bad line %q", file, l)
		}
		want[f[0]+" "+f[1]] = f[2]
	}
	for _, l := range got {
		f := strings.Fields(l)
		if w, ok := want[f[0]+" "+f[1]]; !ok {
			t.Errorf("%s on the %s scale: not in %s", f[0], f[1], file)
		} else if w != f[2] {
			t.Errorf("%s on the %s scale: the explanation changed (go test -run ExplanationsGolden -v with a print of it to see how)", f[0], f[1])
		}
	}
}
