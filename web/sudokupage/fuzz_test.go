package sudokupage

import (
	"net/http"
	"slices"
	"testing"
)

const fuzzTop1 = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"

// FuzzParseGame feeds ParseGame any text: it must answer a game or a
// message, never panic, and a game it reads must survive being written in
// every format and read back.
func FuzzParseGame(f *testing.F) {
	f.Add(fuzzTop1)
	f.Add("4 . . | . 3 . | . . .\n. . . | 6 . . | 8 . .\n")
	f.Add("# progress: " + fuzzTop1 + "\n# marks: 1,2\n" + fuzzTop1 + "\n")
	f.Add(`{"puzzle":"` + fuzzTop1 + `","seed":12,"marks":["1"]}`)
	f.Add(fuzzTop1 + ":1:468931527751624839392578461134756298289413675675289314846192753513867942927345186\n")
	for _, format := range []string{FormatLine, FormatGrid, FormatJSON} {
		marks := make([]string, 81)
		marks[3] = "129"
		text, err := FormatGame(Game{Puzzle: fuzzTop1, Progress: "46" + fuzzTop1[2:], Marks: marks, Seconds: 9, Seed: "5", Level: "hard", Index: 1}, format)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		gm, n, e := ParseGame(text)
		if e != nil {
			if e.Status != http.StatusBadRequest || e.Msg == "" {
				t.Fatalf("error %d %q", e.Status, e.Msg)
			}
			return
		}
		if n < 1 || len(gm.Puzzle) != 81 {
			t.Fatalf("game %+v from %d puzzles", gm, n)
		}
		for _, format := range []string{FormatLine, FormatGrid, FormatJSON} {
			out, err := FormatGame(gm, format)
			if err != nil {
				t.Fatalf("%s: %v for %+v", format, err, gm)
			}
			back, _, e := ParseGame(out)
			if e != nil {
				t.Fatalf("%s: %v reading back\n%s", format, e, out)
			}
			if back.Puzzle != gm.Puzzle || back.Progress != gm.Progress || !slices.Equal(back.Marks, gm.Marks) ||
				back.Seconds != gm.Seconds || back.Seed != gm.Seed || back.Level != gm.Level || back.Index != gm.Index {
				t.Fatalf("%s: %+v came back as %+v via\n%s", format, gm, back, out)
			}
		}
	})
}
