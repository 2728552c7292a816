package sudoku

import "testing"

func TestLevelScores(t *testing.T) {
	prevHi := 0.0
	for i, l := range Levels {
		lo, hi := l.Scores()
		if lo > hi || (i > 0 && int(lo*10+0.5) != int(prevHi*10+0.5)+1) {
			t.Errorf("%v: range %.1f-%.1f after %.1f: ranges must be contiguous", l, lo, hi, prevHi)
		}
		for _, s := range []float64{lo, hi, (lo + hi) / 2} {
			if got := LevelOf(s); got != l {
				t.Errorf("LevelOf(%.2f) = %v, want %v", s, got, l)
			}
		}
		back, err := ParseLevel(l.String())
		if err != nil || back != l {
			t.Errorf("ParseLevel(%q) = %v, %v", l.String(), back, err)
		}
		prevHi = hi
	}
	if lo, _ := Singles.Scores(); lo != MinScore {
		t.Errorf("Singles starts at %.1f, want %.1f", lo, MinScore)
	}
	if _, hi := Hard.Scores(); hi != MaxScore {
		t.Errorf("Hard ends at %.1f, want %.1f", hi, MaxScore)
	}
	if lo, hi := Level(0).Scores(); lo != 0 || hi != 0 || Level(0).Valid() || Level(9).Valid() {
		t.Error("invalid levels have a range")
	}
	if _, err := ParseLevel("fiendish"); err == nil {
		t.Error("ParseLevel(fiendish): no error")
	}
	// Names as the four-level rater wrote them still read.
	for _, s := range []string{"SINGLES", "Hidden", "intermediate", "hard"} {
		if _, err := ParseLevel(s); err != nil {
			t.Error(err)
		}
	}
}
