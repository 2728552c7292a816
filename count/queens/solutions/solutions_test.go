package solutions

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/nqcount/nqcount/count/queens"
)

func all(t testing.TB, n int, unique bool) [][]int {
	t.Helper()
	newE := NewEnumerator
	if unique {
		newE = NewUniqueEnumerator
	}
	e, err := newE(n)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]int
	for e.Next() {
		out = append(out, slices.Clone(e.Cols()))
	}
	if e.Err() != nil {
		t.Fatal(e.Err())
	}
	return out
}

func TestEnumeratorMatchesOEIS(t *testing.T) {
	for n := 1; n <= 11; n++ {
		sols := all(t, n, false)
		want, _ := queens.Known(n)
		if uint64(len(sols)) != want {
			t.Errorf("n = %d: %d solutions, A000170 says %d", n, len(sols), want)
		}
		for i, s := range sols {
			if err := Verify(s); err != nil {
				t.Fatalf("n = %d: solution %v: %v", n, s, err)
			}
			// Strictly increasing order: lexicographic, hence distinct.
			if i > 0 && !less(sols[i-1], s) {
				t.Fatalf("n = %d: %v then %v: not in lexicographic order", n, sols[i-1], s)
			}
		}
	}
}

func TestUniqueMatchesOEIS(t *testing.T) {
	for n := 1; n <= 11; n++ {
		uniq := all(t, n, true)
		want, _ := queens.KnownUnique(n)
		if uint64(len(uniq)) != want {
			t.Errorf("n = %d: %d unique solutions, A002562 says %d", n, len(uniq), want)
		}
		// The listed boards are exactly the canonical forms of all
		// solutions, each once.
		classes := map[string]bool{}
		for _, s := range all(t, n, false) {
			classes[fmt.Sprint(Canonical(s))] = true
		}
		if len(classes) != len(uniq) {
			t.Errorf("n = %d: %d classes, %d listed", n, len(classes), len(uniq))
		}
		for _, s := range uniq {
			if err := Verify(s); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(Canonical(s), s) || !IsCanonical(s, nil) {
				t.Errorf("n = %d: %v is not canonical (canonical form %v)", n, s, Canonical(s))
			}
			if !classes[fmt.Sprint(s)] {
				t.Errorf("n = %d: %v listed twice or not a class", n, s)
			}
			delete(classes, fmt.Sprint(s))
		}
	}
}

func TestLargerCounts(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for n := 12; n <= 12; n++ {
		for _, u := range []bool{false, true} {
			e, _ := NewEnumerator(n)
			want, _ := queens.Known(n)
			if u {
				e, _ = NewUniqueEnumerator(n)
				want, _ = queens.KnownUnique(n)
			}
			k := uint64(0)
			for e.Next() {
				k++
			}
			if k != want {
				t.Errorf("n = %d unique=%v: %d, want %d", n, u, k, want)
			}
		}
	}
}

func TestImagesAreSolutions(t *testing.T) {
	img := make([]int, 8)
	for _, s := range all(t, 8, false) {
		for g := 0; g < Symmetries; g++ {
			if err := Verify(Image(img, s, g)); err != nil {
				t.Fatalf("image %d of %v: %v", g, s, err)
			}
		}
	}
}

func TestConstruct(t *testing.T) {
	for _, n := range []int{2, 3} {
		if _, err := Construct(n); !errors.Is(err, ErrNoSolution) {
			t.Errorf("n = %d: err = %v, want ErrNoSolution", n, err)
		}
	}
	if _, err := Construct(0); err == nil {
		t.Error("n = 0: no error")
	}
	ns := []int{1, 1_000_000}
	for n := 4; n <= 5000; n++ {
		ns = append(ns, n)
	}
	for _, n := range ns {
		cols, err := Construct(n)
		if err != nil {
			t.Fatalf("n = %d: %v", n, err)
		}
		if len(cols) != n {
			t.Fatalf("n = %d: %d queens", n, len(cols))
		}
		if err := Verify(cols); err != nil {
			t.Fatalf("n = %d: %v", n, err)
		}
	}
}

func TestVerifyRejects(t *testing.T) {
	for _, bad := range [][]int{
		{}, {0, 1}, {0, 0, 0, 0}, {1, 3, 0, 4}, {-1, 3, 0, 2}, {0, 2, 4, 1, 3, 5}, {1, 3, 2, 0},
	} {
		if Verify(bad) == nil {
			t.Errorf("Verify(%v) = nil", bad)
		}
	}
}

func TestSolve(t *testing.T) {
	ctx := context.Background()
	cols, m, err := Solve(ctx, 8, Auto, 0)
	if err != nil || m != BySearch || fmt.Sprint(cols) != "[0 4 7 5 2 6 1 3]" {
		t.Errorf("Solve(8) = %v, %v, %v", cols, m, err)
	}
	for _, m := range []Method{Auto, BySearch, ByConstruction} {
		for _, n := range []int{2, 3} {
			if _, _, err := Solve(ctx, n, m, 0); !errors.Is(err, ErrNoSolution) {
				t.Errorf("Solve(%d, %s): %v", n, m, err)
			}
		}
		if cols, _, err := Solve(ctx, 1, m, 0); err != nil || len(cols) != 1 {
			t.Errorf("Solve(1, %s) = %v, %v", m, cols, err)
		}
	}
	// Auto on n = 30 exceeds the default node limit and constructs.
	if _, m, err := Solve(ctx, 30, Auto, 0); err != nil || m != ByConstruction {
		t.Errorf("Solve(30) by %s: %v", m, err)
	}
	if _, m, err := Solve(ctx, 1000, Auto, 0); err != nil || m != ByConstruction {
		t.Errorf("Solve(1000) by %s: %v", m, err)
	}
	if _, _, err := Solve(ctx, 100, BySearch, 0); err == nil {
		t.Error("search on n = 100 accepted")
	}
	if _, _, err := Search(ctx, 30, 1000); !errors.Is(err, ErrNodeLimit) {
		t.Errorf("Search(ctx, 30, 1000): %v", err)
	}
	for _, s := range []string{"auto", "SEARCH", " construct"} {
		if _, err := ParseMethod(s); err != nil {
			t.Error(err)
		}
	}
	if _, err := ParseMethod("magic"); err == nil {
		t.Error("ParseMethod(magic) accepted")
	}
}

func TestSearchCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Search(ctx, 40, 0); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled search: %v", err)
	}
}

func TestStop(t *testing.T) {
	e, _ := NewEnumerator(20)
	k := 0
	for e.Next() {
		if k++; k == 10 {
			e.Stop()
		}
	}
	if !errors.Is(e.Err(), ErrStopped) {
		t.Errorf("Err = %v", e.Err())
	}
}

var parsers = map[Format]func(string) ([]int, error){
	Cols: ParseCols, Coords: ParseCoords, JSON: ParseJSON,
}

func TestRoundTrip(t *testing.T) {
	sols := all(t, 8, false)
	sols = append(sols, []int{0})
	big, _ := Construct(100_000)
	for _, f := range Formats {
		var buf bytes.Buffer
		p := NewPrinter(&buf, f, f == Board)
		for _, s := range sols {
			if err := p.Print(s); err != nil {
				t.Fatal(err)
			}
		}
		if f != Board {
			p.Print(big)
		}
		if err := p.Flush(); err != nil {
			t.Fatal(err)
		}
		var got [][]int
		if f == Board {
			for _, block := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n\n") {
				s, err := ParseBoard(strings.Split(block, "\n"))
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				got = append(got, s)
			}
		} else {
			for _, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
				s, err := parsers[f](line)
				if err != nil {
					t.Fatalf("%s: %q: %v", f, line, err)
				}
				got = append(got, s)
			}
			sols = append(sols, big)
		}
		if len(got) != len(sols) {
			t.Fatalf("%s: %d solutions back, want %d", f, len(got), len(sols))
		}
		for i := range sols {
			if !slices.Equal(got[i], sols[i]) {
				t.Fatalf("%s: solution %d came back as %v", f, i, got[i])
			}
		}
		if f != Board {
			sols = sols[:len(sols)-1]
		}
	}
}

func TestUnicodeBoard(t *testing.T) {
	var buf bytes.Buffer
	p := NewPrinter(&buf, Board, false)
	p.Print([]int{1, 3, 0, 2})
	p.Flush()
	want := "· ♛ · ·\n· · · ♛\n♛ · · ·\n· · ♛ ·\n"
	if buf.String() != want {
		t.Errorf("got\n%s", buf.String())
	}
	if s, err := ParseBoard(strings.Split(strings.TrimSpace(want), "\n")); err != nil || fmt.Sprint(s) != "[1 3 0 2]" {
		t.Errorf("ParseBoard: %v %v", s, err)
	}
	if err := NewPrinter(io.Discard, Board, true).Print(make([]int, MaxBoardN+1)); err == nil {
		t.Error("huge board accepted")
	}
}

func TestParseRejects(t *testing.T) {
	for f, lines := range map[Format][]string{
		Cols:   {"", "1 x 2", "0 4", "1 -1"},
		Coords: {"", "(0,1) (2,3)", "(0,1", "0,1", "(a,b)", "(0,5)"},
		JSON:   {"", "{", `{"n":3,"cols":[0,1]}`, `{"n":2,"cols":[0,2]}`},
	} {
		for _, l := range lines {
			if _, err := parsers[f](l); err == nil {
				t.Errorf("%s: %q accepted", f, l)
			}
		}
	}
	for _, b := range [][]string{{}, {"Q.", ".."}, {"QQ", ".."}, {"Q", "."}, {"Qx", ".Q"}} {
		if _, err := ParseBoard(b); err == nil {
			t.Errorf("board %q accepted", b)
		}
	}
	if _, err := ParseFormat("xml"); err == nil {
		t.Error("format xml accepted")
	}
}

// epipeWriter accepts limit bytes, then fails like a closed pipe.
type epipeWriter struct{ limit int }

func (w *epipeWriter) Write(b []byte) (int, error) {
	if len(b) > w.limit {
		n := w.limit
		w.limit = 0
		return n, syscall.EPIPE
	}
	w.limit -= len(b)
	return len(b), nil
}

func TestPrinterBrokenPipe(t *testing.T) {
	p := NewPrinter(&epipeWriter{limit: 5000}, Cols, false)
	e, _ := NewEnumerator(10)
	var err error
	for e.Next() && err == nil {
		err = p.Print(e.Cols())
	}
	if err == nil {
		err = p.Flush()
	}
	if !errors.Is(err, syscall.EPIPE) {
		t.Fatalf("err = %v, want EPIPE", err)
	}
	if p.Print([]int{0}) == nil || p.Flush() == nil {
		t.Error("error not sticky")
	}
}

func TestTrace(t *testing.T) {
	var lines []string
	var found [][]int
	err := Trace(6, 0, func(ev Event) bool {
		lines = append(lines, ev.String())
		if ev.Kind == Found {
			found = append(found, slices.Clone(ev.Cols))
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := all(t, 6, false); !slices.EqualFunc(found, want, slices.Equal) {
		t.Errorf("trace found %v, enumerator %v", found, want)
	}
	if lines[0] != "place row 0 col 0 → [0]" || lines[1] != "  place row 1 col 2 → [0 2]" {
		t.Errorf("trace starts %q", lines[:2])
	}
	if !slices.Contains(lines, "    backtrack from row 2 (no safe column left)") {
		t.Error("no backtrack line")
	}
	if !slices.Contains(lines, "solution 1: 1 3 5 0 2 4") {
		t.Errorf("no solution line")
	}
	// Stops after maxSolutions.
	k := 0
	Trace(8, 1, func(ev Event) bool {
		if ev.Kind == Found {
			k++
		}
		return true
	})
	if k != 1 {
		t.Errorf("%d solutions traced, want 1", k)
	}
	if Trace(0, 1, nil) == nil || Trace(65, 1, nil) == nil {
		t.Error("bad n accepted")
	}
}

func TestSVG(t *testing.T) {
	for _, n := range []int{1, 8, 200} {
		cols, _ := Construct(n)
		if n == 8 {
			cols = []int{0, 4, 7, 5, 2, 6, 1, 3}
		}
		var buf bytes.Buffer
		if err := WriteSVG(&buf, cols); err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(&buf)
		uses := 0
		for {
			tok, err := d.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("n = %d: bad XML: %v", n, err)
			}
			if s, ok := tok.(xml.StartElement); ok && s.Name.Local == "use" {
				uses++
			}
		}
		if uses != n {
			t.Errorf("n = %d: %d queens drawn", n, uses)
		}
	}
	if WriteSVG(io.Discard, make([]int, MaxBoardN+1)) == nil || WriteSVG(io.Discard, nil) == nil {
		t.Error("bad size accepted")
	}
}

func BenchmarkEnumerate12(b *testing.B) {
	for b.Loop() {
		e, _ := NewEnumerator(12)
		for e.Next() {
		}
	}
}

func BenchmarkPrintCols14(b *testing.B) {
	for b.Loop() {
		e, _ := NewEnumerator(14)
		p := NewPrinter(io.Discard, Cols, false)
		for e.Next() {
			p.Print(e.Cols())
		}
		p.Flush()
	}
}

func TestNoAllocationPerSolution(t *testing.T) {
	e, _ := NewEnumerator(12)
	p := NewPrinter(io.Discard, Cols, false)
	u, _ := NewUniqueEnumerator(12)
	allocs := testing.AllocsPerRun(1000, func() {
		if !e.Next() || !u.Next() {
			t.Fatal("ran out of solutions")
		}
		p.Print(e.Cols())
		p.Print(u.Cols())
	})
	if allocs != 0 {
		t.Errorf("%v allocations per solution", allocs)
	}
}
