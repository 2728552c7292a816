package sudoku

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// readAll returns every item of the input; a read error fails the test.
func readAll(t testing.TB, r io.Reader) []Item {
	t.Helper()
	items, err := readItems(r)
	if err != nil {
		t.Fatalf("read error: %v", err)
	}
	return items
}

// readItems returns every item of the input and the Reader's Err.
func readItems(r io.Reader) ([]Item, error) {
	rd := NewReader(r)
	var items []Item
	for {
		it, ok := rd.Next()
		if !ok {
			break
		}
		items = append(items, it)
	}
	return items, rd.Err()
}

// boxed writes top1 in the grid layout with box borders drawn by
// border (a whole line) and sep (between boxes of a row).
func boxed(border, sep, cellSep string) string {
	var b strings.Builder
	for r := 0; r < 9; r++ {
		if r%3 == 0 && border != "" {
			b.WriteString(border + "\n")
		}
		for c := 0; c < 9; c++ {
			if c%3 == 0 && sep != "" {
				b.WriteString(sep)
			}
			b.WriteByte(top1[r*9+c])
			b.WriteString(cellSep)
		}
		b.WriteString(strings.TrimSpace(sep) + "\n")
	}
	b.WriteString(border + "\n")
	return b.String()
}

// Every layout the docs promise reads back as the one puzzle it holds.
func TestReaderLayouts(t *testing.T) {
	g, _ := Parse(top1)
	spaced := strings.Join(strings.Split(top1, ""), " ")
	for name, in := range map[string]string{
		"BOM":                  "\xef\xbb\xbf" + top1 + "\n",
		"BOM grid":             "\xef\xbb\xbf" + g.GridString(),
		"CRLF":                 "# c\r\n" + top1 + "\r\n",
		"CRLF grid":            strings.ReplaceAll(g.GridString(), "\n", "\r\n"),
		"plus borders compact": boxed("+---+---+---+", "|", ""),
		"plus borders spaced":  boxed("+-------+-------+-------+", "| ", " "),
		"dash borders":         boxed("---------------------", "", " "),
		"inner plus borders":   strings.Replace(strings.Replace(boxed("------+-------+------", "| ", " "), "------+-------+------\n", "", 1), "\n------+-------+------\n\n", "\n", 1),
		"cells spaced":         spaced + "\n",
		"one line boxed":       top1[:27] + "|" + top1[27:54] + "+" + top1[54:] + " unique\n",
		"tab separated":        top1 + "\t1\n",
		"no final newline":     top1,
	} {
		t.Run(name, func(t *testing.T) {
			items := readAll(t, strings.NewReader(in))
			if len(items) != 1 || items[0].Err != nil || items[0].Grid != g {
				t.Fatalf("%q: read %+v, want the one puzzle", in, items)
			}
		})
	}
}

// bytesOf is an endless stream of one byte.
type bytesOf byte

func (b bytesOf) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// A line of 50 MB is one bad item with its line number; the lines after it
// are still read, and the line is never held in memory.
func TestReaderLongLine(t *testing.T) {
	g, _ := Parse(top1)
	rows := strings.SplitAfter(g.GridString(), "\n")
	in := io.MultiReader(
		strings.NewReader(top1+"\n"+strings.Join(rows[:4], "")),
		io.LimitReader(bytesOf('1'), 50<<20),
		strings.NewReader("\n"+g.GridString()+"\n"+top1+"\n"),
		io.LimitReader(bytesOf('.'), 3*MaxLine), // last line, no newline
	)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	items := readAll(t, in)
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 8*MaxLine {
		t.Errorf("reading allocated %d bytes: the long line was kept", got)
	}
	want := []string{"1 ok", "6 line 6: line longer than 1048576 bytes", "7 ok", "17 ok", "18 line 18: line longer"}
	var got []string
	for _, it := range items {
		s := fmt.Sprintf("%d ok", it.Line)
		if it.Err != nil {
			s = fmt.Sprintf("%d %v", it.Line, it.Err)
		}
		got = append(got, s)
	}
	if len(got) != len(want) {
		t.Fatalf("items %q, want %q", got, want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("item %d: %q, want %q...", i, got[i], want[i])
		}
	}
}

// A line that never ends (an endless stream without a newline) is
// reported as soon as it passes MaxLine, without waiting for its end.
func TestReaderEndlessLine(t *testing.T) {
	rd := NewReader(io.MultiReader(strings.NewReader(top1+"\n"), bytesOf('7')))
	if it, ok := rd.Next(); !ok || it.Err != nil || it.Line != 1 {
		t.Fatalf("first item %+v, %v", it, ok)
	}
	done := make(chan Item, 1)
	go func() {
		it, _ := rd.Next()
		done <- it
	}()
	select {
	case it := <-done:
		if it.Line != 2 || it.Err == nil || !strings.Contains(it.Err.Error(), "longer than") {
			t.Fatalf("endless line: %+v", it)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("an endless line was not reported within 10 s")
	}
}

// Binary input (a NUL byte) ends reading with ErrBinary and the line it
// is on, whether it comes in a short line, a long one or an endless one.
func TestReaderBinary(t *testing.T) {
	for name, c := range map[string]struct {
		in    io.Reader
		items int
		line  int
	}{
		"/dev/zero":        {bytesOf(0), 0, 1},
		"after a puzzle":   {strings.NewReader(top1 + "\n" + top1 + "\x00\n" + top1 + "\n"), 1, 2},
		"in a long line":   {io.MultiReader(strings.NewReader(top1+"\n"), io.LimitReader(bytesOf('1'), MaxLine/2), bytesOf(0)), 1, 2},
		"after a too long": {io.MultiReader(io.LimitReader(bytesOf('1'), 2*MaxLine), bytesOf(0)), 1, 1},
		"UTF-16":           {strings.NewReader("\xff\xfe1\x002\x00"), 0, 1},
	} {
		items, err := readItems(c.in)
		if !errors.Is(err, ErrBinary) || len(items) != c.items || !strings.HasPrefix(err.Error(), fmt.Sprintf("line %d: ", c.line)) {
			t.Errorf("%s: %d items, err %v; want %d items and ErrBinary on line %d", name, len(items), err, c.items, c.line)
		}
	}
}

// The items do not depend on how the input arrives.
func TestReaderChunking(t *testing.T) {
	g, _ := Parse(top1)
	in := "\xef\xbb\xbf# c\n" + top1 + "\n" + boxed("+---+---+---+", "|", "") + "\n..3......\n{\"puzzle\":\"" + top1 + "\"}\n" +
		strings.Repeat("9", 70_000) + "\n" + g.GridString()[:30] + "\n\n" + top1 + ":1\n"
	want := readAll(t, strings.NewReader(in))
	if len(want) != 7 {
		t.Fatalf("%d items: %+v", len(want), want)
	}
	for name, r := range map[string]io.Reader{
		"one byte": iotest.OneByteReader(strings.NewReader(in)),
		"half":     iotest.HalfReader(strings.NewReader(in)),
	} {
		got := readAll(t, r)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: %+v\nwant %+v", name, got, want)
		}
	}
}

// A read error ends the items and is reported by Err.
func TestReaderError(t *testing.T) {
	boom := errors.New("boom")
	rd := NewReader(io.MultiReader(strings.NewReader(top1+"\n"), iotest.ErrReader(boom)))
	if it, ok := rd.Next(); !ok || it.Err != nil {
		t.Fatalf("%+v %v", it, ok)
	}
	if _, ok := rd.Next(); ok || !errors.Is(rd.Err(), boom) {
		t.Fatalf("after the error: ok %v, Err %v", ok, rd.Err())
	}
}

// Reading puzzles allocates nothing per puzzle: only the Reader itself.
func TestReaderAllocs(t *testing.T) {
	g, _ := Parse(top1)
	data := []byte(strings.Repeat(top1+"\n", 500) + strings.Repeat(g.GridString()+"\n", 100) + strings.Repeat(top1+" unique\r\n", 500))
	n := 0
	allocs := testing.AllocsPerRun(5, func() {
		rd := NewReader(bytes.NewReader(data))
		for n = 0; ; n++ {
			it, ok := rd.Next()
			if !ok {
				break
			}
			if it.Err != nil {
				t.Fatal(it.Err)
			}
		}
	})
	if n != 1100 || allocs > 10 {
		t.Errorf("%d puzzles read with %.0f allocations, want 1100 with at most 10", n, allocs)
	}
}

func FuzzReader(f *testing.F) {
	g, _ := Parse(top1)
	f.Add(top1 + "\n" + g.GridString() + "\n{\"puzzle\":\"" + top1 + "\"}\n# c\n123\n")
	f.Add("..3......\n" + top1 + ":1\n")
	f.Add("\xef\xbb\xbf" + boxed("+---+---+---+", "|", ""))
	f.Add(strings.ReplaceAll(boxed("------+-------+------", "| ", " "), "\n", "\r\n"))
	f.Add(strings.Join(strings.Split(top1, ""), " ") + "\n5 3 x\n{\"puzzle\":1}\n{")
	f.Fuzz(func(t *testing.T, s string) {
		if strings.IndexByte(s, 0) >= 0 {
			if _, err := readItems(strings.NewReader(s)); !errors.Is(err, ErrBinary) {
				t.Fatalf("input with a NUL byte: err %v, want ErrBinary", err)
			}
			return
		}
		items := readAll(t, strings.NewReader(s))
		last := 0
		for _, it := range items {
			if it.Line < last {
				t.Fatalf("line %d after line %d", it.Line, last)
			}
			last = it.Line
			if it.Line < 1 || it.Line > strings.Count(s, "\n")+1 {
				t.Fatalf("line %d of a %d-line input", it.Line, strings.Count(s, "\n")+1)
			}
			if it.Err == nil && it.Grid.Check() != nil {
				t.Fatalf("accepted a clashing grid %s", it.Grid)
			}
			if it.Err != nil {
				if _, ok := it.Err.(*ParseError); !ok {
					t.Fatalf("error of type %T: %v", it.Err, it.Err)
				}
			}
		}
		// How the input arrives changes nothing.
		if got := readAll(t, iotest.OneByteReader(strings.NewReader(s))); fmt.Sprint(got) != fmt.Sprint(items) {
			t.Fatalf("read a byte at a time: %+v\nat once: %+v", got, items)
		}
		// Whatever came before, the reader recovers: a blank line and a
		// puzzle after the input add exactly that puzzle.
		more := readAll(t, strings.NewReader(s+"\n\n"+top1+"\n"))
		if len(more) != len(items)+1 || fmt.Sprint(more[:len(items)]) != fmt.Sprint(items) ||
			more[len(items)].Err != nil || more[len(items)].Grid != g {
			t.Fatalf("with a puzzle appended: %+v\nalone: %+v", more, items)
		}
	})
}

// BenchmarkReader reads the 17-clue set (a puzzle a line, the usual
// input): the Reader's share of a batch command's time per puzzle.
func BenchmarkReader(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(sharedDir(b), "17-clue.txt"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	n := 0
	for i := 0; i < b.N; i++ {
		rd := NewReader(bytes.NewReader(data))
		n = 0
		for {
			it, ok := rd.Next()
			if !ok {
				break
			}
			if it.Err != nil {
				b.Fatal(it.Err)
			}
			n++
		}
	}
	b.ReportMetric(float64(b.N*n)/b.Elapsed().Seconds(), "puzzles/s")
}

// cells81Plain is cells81 a byte at a time, the reference its eight-byte
// steps are checked against.
func cells81Plain(l []byte) (g Grid, ok bool) {
	if len(l) < 81 || len(l) > 81 && !strings.ContainsRune("\n: \t\r", rune(l[81])) {
		return g, false
	}
	for i, c := range l[:81] {
		switch {
		case c >= '0' && c <= '9':
			g[i] = c - '0'
		case c != '.':
			return Grid{}, false
		}
	}
	return g, true
}

// TestCells81 puts every byte value in every cell of a line (the others
// random cells) and compares cells81 with the plain loop.
func TestCells81(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	line := make([]byte, 82)
	line[81] = '\n'
	for pos := 0; pos < 81; pos++ {
		for v := 0; v < 256; v++ {
			for i := 0; i < 81; i++ {
				line[i] = ".0123456789"[rng.IntN(11)]
			}
			line[pos] = byte(v)
			g, ok := cells81(line)
			wg, wok := cells81Plain(line)
			if ok != wok || ok && g != wg {
				t.Fatalf("%q: %v %v, want %v %v", line, g, ok, wg, wok)
			}
		}
	}
}
