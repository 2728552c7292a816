package batch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/logic"
)

// sample is the sudoku package's test sample (puzzle:count[:solution]
// lines, some with several solutions or none), with a bad line after
// every tenth puzzle: the input and, for each record expected, its line,
// puzzle text and whether it is bad.
func sample(t *testing.T) (in string, want []string) {
	t.Helper()
	data, err := os.ReadFile("../testdata/sample.answers.txt")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	line := 0
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		line++
		b.WriteString(l + "\n")
		if l[0] == '#' {
			continue
		}
		want = append(want, fmt.Sprintf("%d %s", line, l[:81]))
		if len(want)%10 == 0 {
			line++
			b.WriteString("12x\n")
			want = append(want, fmt.Sprintf("%d bad", line))
		}
	}
	return b.String(), want
}

// solves reports whether sol is a complete, valid grid holding p's givens.
func solves(sol, p sudoku.Grid) bool {
	if sol.Clues() != 81 || sol.Check() != nil {
		return false
	}
	for i, v := range p {
		if v != 0 && sol[i] != v {
			return false
		}
	}
	return true
}

func describe[T any](r *Record[T]) string {
	if r.ReadErr != nil {
		return fmt.Sprintf("%d bad", r.Line)
	}
	return fmt.Sprintf("%d %s", r.Line, r.Grid)
}

// TestSolveOrder: every puzzle comes back in order, bad ones as records,
// with the counts and solutions a Solver gives, whatever the workers.
func TestSolveOrder(t *testing.T) {
	in, want := sample(t)
	for _, workers := range []int{1, 2, 5} {
		for _, limit := range []uint64{0, 1000} {
			var got []string
			var sv sudoku.Solver
			err := Solve(context.Background(), strings.NewReader(in), SolveOptions{Options: Options{Workers: workers}, Limit: limit},
				func(r *Record[sudoku.Result]) error {
					got = append(got, describe(r))
					if r.ReadErr != nil {
						return nil
					}
					n, sol := sv.Solve(&r.Grid, limit)
					// With several solutions, which comes first depends on
					// the order of the search (the lane kernel's is not a
					// single puzzle's): any one will do.
					if r.Err != nil || r.Value.Count != n || (n == 1 && r.Value.Solution != sol) || (n > 1 && !solves(r.Value.Solution, r.Grid)) {
						t.Fatalf("workers %d, line %d: %+v, %v; a Solver finds %d", workers, r.Line, r.Value, r.Err, n)
					}
					return nil
				})
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("workers %d: err %v, records\n%q\nwant\n%q", workers, err, got, want)
			}
		}
	}
}

// TestRateAndExplainCarry: the records hold what logic's functions
// return on the scale asked for, untouched, in order.
func TestRateAndExplainCarry(t *testing.T) {
	in, _ := sample(t)
	lines := strings.Split(in, "\n")
	in = strings.Join(lines[:25], "\n") + "\n" // a few puzzles: rating takes time
	ctx := context.Background()
	for _, sc := range logic.Scales {
		for _, workers := range []int{1, 3} {
			opt := RateOptions{Options: Options{Workers: workers}, Rating: logic.Options{Scale: sc}}
			n := 0
			err := Rate(ctx, strings.NewReader(in), opt, func(r *Record[Rated]) error {
				if r.ReadErr != nil {
					return nil
				}
				n++
				rt, err := logic.RateWith(ctx, r.Grid, opt.Rating)
				if !reflect.DeepEqual(rt, r.Value.Rating) || fmt.Sprint(err) != fmt.Sprint(r.Err) {
					t.Fatalf("%s, line %d: %+v, %v; logic.RateWith %+v, %v", sc, r.Line, r.Value.Rating, r.Err, rt, err)
				}
				if err == nil {
					if c, sol := sudoku.Solve(r.Grid, 2); c != 1 || sol != r.Value.Solution || r.Value.Rating.Scale != sc {
						t.Fatalf("%s, line %d: solution %s, want %s; scale %s", sc, r.Line, r.Value.Solution, sol, r.Value.Rating.Scale)
					}
				}
				return nil
			})
			if err != nil || n < 20 {
				t.Fatalf("Rate: %v after %d puzzles", err, n)
			}
			n = 0
			err = Explain(ctx, strings.NewReader(in), opt, func(r *Record[logic.Explanation]) error {
				if r.ReadErr != nil {
					return nil
				}
				n++
				ex, err := logic.ExplainWith(ctx, r.Grid, opt.Rating)
				if !reflect.DeepEqual(ex, r.Value) || fmt.Sprint(err) != fmt.Sprint(r.Err) || (err == nil && ex.Rating.Scale != sc) {
					t.Fatalf("%s, line %d: explanation differs from logic.ExplainWith's (%v, %v)", sc, r.Line, r.Err, err)
				}
				return nil
			})
			if err != nil || n < 20 {
				t.Fatalf("Explain: %v after %d puzzles", err, n)
			}
		}
	}
	// An unknown scale is refused before anything is read.
	bad := RateOptions{Rating: logic.Options{Scale: "nope"}}
	emitted := false
	if err := Rate(ctx, strings.NewReader(in), bad, func(*Record[Rated]) error { emitted = true; return nil }); err == nil || emitted {
		t.Errorf("Rate on an unknown scale: %v, emitted %v", err, emitted)
	}
	if err := Explain(ctx, strings.NewReader(in), bad, func(*Record[logic.Explanation]) error { emitted = true; return nil }); err == nil || emitted {
		t.Errorf("Explain on an unknown scale: %v, emitted %v", err, emitted)
	}
}

func TestCount(t *testing.T) {
	in, want := sample(t)
	var got []string
	progress := 0
	err := Count(context.Background(), strings.NewReader(in), CountOptions{CountOptions: sudoku.CountOptions{Workers: 2}, Progress: func(int, sudoku.CountProgress) { progress++ }},
		func(r *Record[sudoku.CountResult]) error {
			got = append(got, describe(r))
			if r.ReadErr != nil {
				return nil
			}
			res, err := sudoku.Count(context.Background(), r.Grid, sudoku.CountOptions{Workers: 1})
			if r.Err != nil || err != nil || r.Value.Count != res.Count {
				t.Fatalf("line %d: %v, %v; sudoku.Count %v", r.Line, r.Value.Count, r.Err, res.Count)
			}
			return nil
		})
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("err %v, records %q", err, got)
	}
	if err := Count(context.Background(), strings.NewReader(in), CountOptions{CountOptions: sudoku.CountOptions{Solver: "nosuch"}}, nil); err == nil {
		t.Error("Count with an unknown solver: no error")
	}
}

// TestErrors: a read error or binary data ends the run after the records
// before it; emit's error stops it.
func TestErrors(t *testing.T) {
	in, want := sample(t)
	boom := errors.New("disk on fire")
	for _, c := range []struct {
		name string
		in   io.Reader
		err  error
	}{
		{"read error", io.MultiReader(strings.NewReader(in), &failing{boom}), boom},
		{"binary", io.MultiReader(strings.NewReader(in), strings.NewReader("\x00")), sudoku.ErrBinary},
	} {
		n := 0
		err := Solve(context.Background(), c.in, SolveOptions{Options: Options{Workers: 2}}, func(*Record[sudoku.Result]) error { n++; return nil })
		if !errors.Is(err, c.err) || n != len(want) {
			t.Errorf("%s: %v after %d records, want %v after %d", c.name, err, n, c.err, len(want))
		}
	}
	stop := errors.New("stop")
	n := 0
	err := Solve(context.Background(), strings.NewReader(in), SolveOptions{}, func(*Record[sudoku.Result]) error {
		if n++; n == 3 {
			return stop
		}
		return nil
	})
	if err != stop || n != 3 {
		t.Errorf("emit's error: %v after %d records", err, n)
	}
	if err := Solve(context.Background(), strings.NewReader(in), SolveOptions{Solver: "nosuch"}, nil); err == nil {
		t.Error("Solve with an unknown solver: no error")
	}
}

type failing struct{ err error }

func (f *failing) Read([]byte) (int, error) { return 0, f.err }

// endless repeats its bytes for ever.
type endless string

func (e endless) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		n += copy(p[n:], e)
	}
	return n, nil
}

// blocked never returns from Read until released: a terminal, a pipe.
type blocked chan struct{}

func (b blocked) Read([]byte) (int, error) {
	<-b
	return 0, io.EOF
}

// TestCancelWhileReading: the end of the context stops every entry point
// soon, while it reads an input that never ends or never comes, after
// emitting what was done.
func TestCancelWhileReading(t *testing.T) {
	sv := "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........\n"
	inputs := map[string]func() io.Reader{
		"endless comments": func() io.Reader { return io.MultiReader(strings.NewReader(sv), endless("# nothing\n")) },
		"endless line":     func() io.Reader { return io.MultiReader(strings.NewReader(sv), endless("12345")) },
		"blocked":          func() io.Reader { return io.MultiReader(strings.NewReader(sv), make(blocked)) },
	}
	type entry func(ctx context.Context, in io.Reader, emit func(line int)) error
	entries := map[string]entry{
		"Solve": func(ctx context.Context, in io.Reader, emit func(int)) error {
			return Solve(ctx, in, SolveOptions{}, func(r *Record[sudoku.Result]) error { emit(r.Line); return nil })
		},
		"Rate": func(ctx context.Context, in io.Reader, emit func(int)) error {
			return Rate(ctx, in, RateOptions{Options: Options{Workers: 2}}, func(r *Record[Rated]) error { emit(r.Line); return nil })
		},
		"Explain": func(ctx context.Context, in io.Reader, emit func(int)) error {
			return Explain(ctx, in, RateOptions{Options: Options{Workers: 1}}, func(r *Record[logic.Explanation]) error { emit(r.Line); return nil })
		},
		"Count": func(ctx context.Context, in io.Reader, emit func(int)) error {
			return Count(ctx, in, CountOptions{}, func(r *Record[sudoku.CountResult]) error { emit(r.Line); return nil })
		},
	}
	for iname, in := range inputs {
		for ename, run := range entries {
			ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
			lines := 0
			done := make(chan error, 1)
			start := time.Now()
			go func() { done <- run(ctx, in(), func(int) { lines++ }) }()
			select {
			case err := <-done:
				if !errors.Is(err, context.DeadlineExceeded) || lines == 0 {
					t.Errorf("%s < %s: %v after %d records, want the deadline's error after the first puzzle", ename, iname, err, lines)
				}
				if took := time.Since(start); took > 1300*time.Millisecond {
					t.Errorf("%s < %s: took %v with a 300 ms deadline", ename, iname, took)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%s < %s: not stopped 10 s after a 300 ms deadline", ename, iname)
			}
			cancel()
		}
	}
}

// TestRegularFileChunks: from a regular file, chunks are not cut at every
// read of the input (the puzzles of a file that spans several reads come
// in whole chunks), and yet a puzzle followed by megabytes of comments
// comes back before the reader is at the end of them.
func TestRegularFileChunks(t *testing.T) {
	in, _ := sample(t)
	var puzzles []string
	for _, l := range strings.Split(in, "\n") {
		if len(l) >= 81 {
			if g, err := sudoku.Parse(l[:81]); err == nil && g.Check() == nil {
				puzzles = append(puzzles, l[:81])
			}
		}
	}
	dir := t.TempDir()
	open := func(name, text string) *os.File {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	const readSize = 64 << 10 // the Reader's buffer
	var b strings.Builder
	for b.Len() < 3*readSize {
		for _, p := range puzzles {
			b.WriteString(p + " # padded, so that the file spans a few reads\n")
		}
	}
	n := strings.Count(b.String(), "\n")
	for _, c := range []struct {
		name  string
		in    io.Reader
		whole bool
	}{
		{"regular file", open("many.txt", b.String()), true},
		{"other reader", strings.NewReader(b.String()), false},
	} {
		var sizes []int
		err := run(context.Background(), c.in, 1, 256, func() chunkWork[int] {
			return func(ctx context.Context, rs []Record[int]) { sizes = append(sizes, len(rs)) }
		}, func(*Record[int]) error { return nil })
		total, cut := 0, false
		for i, s := range sizes {
			total += s
			cut = cut || s < 256 && i < len(sizes)-1
		}
		if err != nil || total != n || cut == c.whole {
			t.Errorf("%s: err %v, %d records of %d in chunks %v", c.name, err, total, n, sizes)
		}
	}

	// One puzzle, then comments for many reads, then another.
	text := puzzles[0] + "\n" + strings.Repeat("# a comment line of some length, again and again\n", 64*readSize/50) + puzzles[1] + "\n"
	f := open("comments.txt", text)
	var offsets []int64
	err := Solve(context.Background(), f, SolveOptions{Options: Options{Workers: 1}}, func(r *Record[sudoku.Result]) error {
		off, err := f.Seek(0, io.SeekCurrent)
		if err != nil {
			return err
		}
		offsets = append(offsets, off)
		return nil
	})
	if err != nil || len(offsets) != 2 {
		t.Fatalf("err %v, %d records", err, len(offsets))
	}
	if offsets[0] >= int64(len(text)) {
		t.Errorf("the first puzzle came back only once the reader was at the end (offset %d of %d)", offsets[0], len(text))
	}
}
