package clitest

import "testing"

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"time 0.454 s, 2 workers, kernel bmi2, 172.6 M nodes/s":          "time <T> s, 2 workers, kernel bmi2, <R> nodes/s",
		"n =  9  total 352  unique 46     0.012 s  ok":                   "n =  9  total 352  unique 46 <T> s  ok",
		"0 nodes/s, 203.8 k nodes/s, 1.25 G nodes/s":                     "<R> nodes/s, <R> nodes/s, <R> nodes/s",
		`{"tasks":356,"seconds":0.770002761,"nodes_per_second":1.5e+08}`: `{"tasks":356,"seconds":<N>,"nodes_per_second":<N>}`,
		"ETA 3m12s":     "ETA <T>",
		"8 clues, 17 s": "8 clues, 17 s",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDiff(t *testing.T) {
	want := "a\nb\nc\nd\ne\nf\ng\nh\n"
	got := "a\nb\nc\nd\nE\nf\ng\nh\n"
	if d := Diff(want, got); d != "  …\n  c\n  d\n- e\n+ E\n  f\n  g\n  …\n" {
		t.Errorf("Diff:\n%s", d)
	}
	if d := Diff("x\n", "x\ny\n"); d != "  x\n+ y\n" {
		t.Errorf("Diff of an added line:\n%q", d)
	}
}
