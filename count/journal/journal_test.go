package journal

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

var testHeader = Header{Hash: "abc123", Tasks: 100, Meta: map[string]string{"n": "12", "method": "constellations", "version": "test"}}

func open(t *testing.T, path string, h Header) *Journal {
	t.Helper()
	j, err := Open(path, h, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// write makes a journal holding records for ids 0..k-1 and returns its path.
func write(t *testing.T, k int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "j")
	j := open(t, path, testHeader)
	for i := 0; i < k; i++ {
		if err := j.Append(Record{ID: i, Count: uint64(i * 7), Nodes: uint64(i*1000 + 3)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRoundTrip(t *testing.T) {
	path := write(t, 10)
	j := open(t, path, testHeader)
	defer j.Close()
	rs := j.Records()
	if len(rs) != 10 || j.Repaired() != 0 {
		t.Fatalf("got %d records, repaired %d", len(rs), j.Repaired())
	}
	for i, r := range rs {
		if r != (Record{ID: i, Count: uint64(i * 7), Nodes: uint64(i*1000 + 3)}) {
			t.Errorf("record %d = %+v", i, r)
		}
	}
	if err := j.Append(Record{ID: 3}); err == nil {
		t.Error("appending a task twice succeeded")
	}
	if err := j.Append(Record{ID: 100}); err == nil {
		t.Error("appending an id out of range succeeded")
	}
	if err := j.Append(Record{ID: 10, Count: 1}); err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	j, err := Open(path, testHeader, Options{Interval: 1})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < 100; i += 4 {
				if err := j.Append(Record{ID: i, Count: uint64(i)}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	j.Close()
	j = open(t, path, testHeader)
	defer j.Close()
	if len(j.Records()) != 100 {
		t.Fatalf("%d records", len(j.Records()))
	}
}

func TestLocked(t *testing.T) {
	path := write(t, 1)
	j := open(t, path, testHeader)
	defer j.Close()
	if _, err := Open(path, testHeader, Options{}); !errors.Is(err, ErrLocked) {
		t.Fatalf("second open: %v", err)
	}
}

func TestTornTail(t *testing.T) {
	for name, tail := range map[string]string{
		"partial line":    "11 77 1100",
		"partial crc":     "11 77 11003 8e1",
		"zeros":           "\x00\x00\x00\x00\x00\x00",
		"bad last record": "11 77 11003 00000000\n",
		"garbage":         "\x17\xff#@!",
		"bad then zeros":  "11 77 11\n\x00\x00\x00",
	} {
		t.Run(name, func(t *testing.T) {
			path := write(t, 11)
			before, _ := os.ReadFile(path)
			f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString(tail)
			f.Close()
			j := open(t, path, testHeader)
			if len(j.Records()) != 11 || j.Repaired() != int64(len(tail)) {
				t.Fatalf("%d records, repaired %d", len(j.Records()), j.Repaired())
			}
			if err := j.Append(Record{ID: 50, Count: 5}); err != nil {
				t.Fatal(err)
			}
			j.Close()
			after, _ := os.ReadFile(path)
			if !strings.HasPrefix(string(after), string(before)) {
				t.Fatal("repair changed the valid part")
			}
			j = open(t, path, testHeader)
			defer j.Close()
			if len(j.Records()) != 12 || j.Repaired() != 0 {
				t.Fatalf("after repair: %d records, repaired %d", len(j.Records()), j.Repaired())
			}
		})
	}
}

func TestCorruptMiddle(t *testing.T) {
	for name, edit := range map[string]func(lines []string) []string{
		"count edited": func(l []string) []string {
			l[10] = strings.Replace(l[10], " 21 ", " 22 ", 1)
			return l
		},
		"record removed": func(l []string) []string { return append(l[:9], l[10:]...) },
		"records swapped": func(l []string) []string {
			l[9], l[10] = l[10], l[9]
			return l
		},
		"record duplicated": func(l []string) []string {
			return append(l[:10], append([]string{l[9]}, l[10:]...)...)
		},
		"junk line": func(l []string) []string {
			return append(l[:10], append([]string{"hello"}, l[10:]...)...)
		},
		"header edited": func(l []string) []string {
			l[3] = "meta method Halving"
			return l
		},
		"header truncated, another run's": func(l []string) []string {
			return []string{l[0], "hash other", l[2]}
		},
	} {
		t.Run(name, func(t *testing.T) {
			path := write(t, 8)
			b, _ := os.ReadFile(path)
			lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
			os.WriteFile(path, []byte(strings.Join(edit(lines), "\n")+"\n"), 0o644)
			_, err := Open(path, testHeader, Options{})
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("got %v, want ErrCorrupt", err)
			}
			if after, _ := os.ReadFile(path); len(after) == 0 {
				t.Fatal("refused journal was emptied")
			}
		})
	}
}

// A header cut short by a crash right after the journal was created (no
// record can follow it) is this run's: the journal starts afresh.
func TestTruncatedHeaderStartsAfresh(t *testing.T) {
	path := write(t, 0)
	b, _ := os.ReadFile(path)
	for _, n := range []int{1, len(magic) + 5, len(b) - 3} {
		os.WriteFile(path, b[:n], 0o644)
		j := open(t, path, testHeader)
		if len(j.Records()) != 0 || j.Repaired() != 0 {
			t.Fatalf("%d bytes: %d records", n, len(j.Records()))
		}
		j.Close()
		if after, _ := os.ReadFile(path); string(after) != string(b) {
			t.Fatalf("%d bytes: header not rewritten: %q", n, after)
		}
	}
}

func TestNotAJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(path, []byte("precious data\n"), 0o644)
	if _, err := Open(path, testHeader, Options{}); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "not a checkpoint journal") {
		t.Fatalf("got %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "precious data\n" {
		t.Fatal("file overwritten")
	}
}

func TestEmptyFileIsCreated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j")
	os.WriteFile(path, nil, 0o644)
	j := open(t, path, testHeader)
	j.Append(Record{ID: 1})
	j.Close()
	j = open(t, path, testHeader)
	defer j.Close()
	if len(j.Records()) != 1 {
		t.Fatal("record lost")
	}
}

func TestOtherRun(t *testing.T) {
	path := write(t, 3)
	for name, h := range map[string]Header{
		"hash":    {Hash: "other", Tasks: 100, Meta: testHeader.Meta},
		"tasks":   {Hash: "abc123", Tasks: 99, Meta: testHeader.Meta},
		"n":       {Hash: "abc123", Tasks: 100, Meta: map[string]string{"n": "13", "method": "constellations", "version": "test"}},
		"version": {Hash: "abc123", Tasks: 100, Meta: map[string]string{"n": "12", "method": "constellations", "version": "v2"}},
		"extra":   {Hash: "abc123", Tasks: 100, Meta: map[string]string{"n": "12", "method": "constellations", "version": "test", "shard": "1/2"}},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Open(path, h, Options{})
			if !errors.Is(err, ErrMismatch) {
				t.Fatalf("got %v, want ErrMismatch", err)
			}
			if name == "n" && !strings.Contains(err.Error(), `n is "12" in the journal but "13" in this run`) {
				t.Errorf("unclear message: %v", err)
			}
		})
	}
}

func TestBadHeader(t *testing.T) {
	dir := t.TempDir()
	for _, h := range []Header{
		{Hash: "", Tasks: 1},
		{Hash: "a b", Tasks: 1},
		{Hash: "a", Tasks: -1},
		{Hash: "a", Tasks: 1, Meta: map[string]string{"k k": "v"}},
		{Hash: "a", Tasks: 1, Meta: map[string]string{"k": "v\n"}},
	} {
		if _, err := Open(filepath.Join(dir, "j"), h, Options{}); err == nil {
			t.Errorf("header %+v accepted", h)
		}
	}
}

// BenchmarkAppend measures the cost of recording one finished task (one
// write(2); fsyncs are in the background).
func BenchmarkAppend(b *testing.B) {
	path := filepath.Join(b.TempDir(), "j")
	j, err := Open(path, Header{Hash: "h", Tasks: b.N}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer j.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := j.Append(Record{ID: i, Count: 123456, Nodes: 987654321}); err != nil {
			b.Fatal(err)
		}
	}
}

// A journal holds at most a record per task of its run: a larger file (a
// huge one, sparse here, or one grown by something else than this package)
// is refused from its size before it is read, and left as it is.
func TestTooLarge(t *testing.T) {
	path := write(t, 100)
	j := open(t, path, testHeader) // full: every task recorded
	j.Close()
	full, _ := os.ReadFile(path)
	f, _ := os.OpenFile(path, os.O_WRONLY, 0)
	f.Truncate(1 << 40)
	f.Close()
	_, err := Open(path, testHeader, Options{})
	if !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "it is 1099511627776 bytes, more than a journal of 100 tasks can hold") {
		t.Fatalf("a journal of 1 TiB: %v", err)
	}
	if fi, _ := os.Stat(path); fi.Size() != 1<<40 {
		t.Error("the file was changed")
	}
	// The bound leaves room for every record at its longest.
	hb, _ := testHeader.encode()
	longest := Record{ID: math.MaxInt, Count: 1<<64 - 1, Nodes: 1<<64 - 1}
	// (ids of 32 bits, on 386, leave room to spare)
	if n := len(longest.text()) + len(" 12345678\n"); n > maxRecord || strconv.IntSize == 64 && n != maxRecord {
		t.Errorf("the longest record takes %d bytes, not %d", n, maxRecord)
	}
	if limit := maxSize(len(hb), 100); limit < int64(len(full)) || limit < int64(len(hb)+100*maxRecord) {
		t.Errorf("bound %d below a full journal", limit)
	}
}
