//go:build linux

package hostile

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/nqcount/nqcount/count/shard"
)

// numbers are the hostile numbers given to every flag, every numeric
// argument and every numeric field of a file: negative, zero, beyond int64
// and uint64, written with an exponent or a fraction, and a hundred
// thousand digits long.
var numbers = []string{"-1", "0", "-9223372036854775809", "9223372036854775807", "18446744073709551616", "1e9", "2.5", strings.Repeat("9", 100000)}

// jsonNumbers are numbers for the numeric fields of JSON files and
// requests: numbers (1e400 beyond float64) and other JSON types.
var jsonNumbers = append(slices.Clone(numbers), "1e400", `"12"`, "null", "-0")

// numberName names a hostile number in a case's name.
func numberName(v string) string {
	if len(v) > 24 {
		return fmt.Sprintf("%.6s…(%d digits)", v, len(v))
	}
	return v
}

// input is one hostile input file: bytes written to a file in the case's
// folder, or a special file the case makes.
type input struct {
	class, name string
	data        []byte
	// special makes the file in dir and returns its path and what to do
	// when the case is over.
	special func(dir string) (string, func(), error)
	// quick marks the inputs of the defects the harness was built for.
	quick bool
}

// materialize returns the path of in for a case in dir.
func (in input) materialize(dir string) (string, func(), error) {
	if in.special != nil {
		return in.special(dir)
	}
	p := filepath.Join(dir, "input")
	return p, func() {}, os.WriteFile(p, in.data, 0o644)
}

// fixed is a special file that exists already (/dev/zero).
func fixed(path string) func(string) (string, func(), error) {
	return func(string) (string, func(), error) { return path, func() {}, nil }
}

// hugeLine is a regular file of 100 MiB in one line, made once.
var hugeLine string

// generic are the inputs of every file a command reads, ours or not.
func generic() []input {
	rng := rand.New(rand.NewPCG(25, 1))
	junk := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	fifo := func(hold bool) func(string) (string, func(), error) {
		return func(dir string) (string, func(), error) {
			p := filepath.Join(dir, "fifo")
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				return "", nil, err
			}
			if !hold {
				return p, func() {}, nil
			}
			// A writer that never writes nor closes: the input never ends
			// and never comes.
			wr, err := os.OpenFile(p, os.O_RDWR, 0)
			if err != nil {
				return "", nil, err
			}
			return p, func() { wr.Close() }, nil
		}
	}
	return []input{
		{class: "endless", name: "/dev/zero", special: fixed("/dev/zero"), quick: true},
		{class: "endless", name: "/dev/urandom", special: fixed("/dev/urandom")},
		{class: "endless", name: "a FIFO held open, never written", special: fifo(true), quick: true},
		{class: "junk", name: "64 KiB of random bytes", data: junk(64 << 10)},
		{class: "junk", name: "one random byte", data: junk(1)},
		{class: "junk", name: "NUL bytes", data: make([]byte, 4096)},
		{class: "junk", name: "text", data: []byte("these are my notes\n")},
		{class: "junk", name: "JSON nested 100000 deep", data: []byte(strings.Repeat("[", 100000) + strings.Repeat("]", 100000))},
		{class: "huge", name: "a sparse file of 1 TiB", special: func(dir string) (string, func(), error) {
			p := filepath.Join(dir, "huge")
			f, err := os.Create(p)
			if err != nil {
				return "", nil, err
			}
			defer f.Close()
			return p, func() {}, f.Truncate(1 << 40)
		}},
		{class: "huge", name: "100 MiB in one line", special: fixed(hugeLine)},
		{class: "special", name: "a directory", special: func(dir string) (string, func(), error) { return dir, func() {}, nil }},
		{class: "special", name: "/dev/null", special: fixed("/dev/null")},
		{class: "special", name: "an empty file", data: []byte{}},
		{class: "special", name: "a FIFO nobody writes", special: fifo(false)},
		{class: "special", name: "a missing file", special: func(dir string) (string, func(), error) {
			return filepath.Join(dir, "missing"), func() {}, nil
		}},
		{class: "special", name: "a symbolic link loop", special: func(dir string) (string, func(), error) {
			p := filepath.Join(dir, "loop")
			return p, func() {}, os.Symlink(p, p)
		}},
	}
}

// makeHugeLine writes the 100 MiB one-line file.
func makeHugeLine(dir string) error {
	hugeLine = filepath.Join(dir, "huge-line")
	f, err := os.Create(hugeLine)
	if err != nil {
		return err
	}
	line := bytes.Repeat([]byte("4.....8.5"), (1<<20)/9)
	for range 100 {
		if _, err := f.Write(line); err != nil {
			f.Close()
			return err
		}
	}
	f.Write([]byte("\n"))
	return f.Close()
}

// outputs are the hostile targets of every file a command writes.
func outputs() []input {
	return []input{
		{class: "special", name: "/dev/full", special: fixed("/dev/full")},
		{class: "special", name: "/dev/null", special: fixed("/dev/null")},
		{class: "special", name: "a directory", special: func(dir string) (string, func(), error) { return dir, func() {}, nil }},
		{class: "special", name: "a FIFO", special: func(dir string) (string, func(), error) {
			p := filepath.Join(dir, "fifo")
			return p, func() {}, syscall.Mkfifo(p, 0o600)
		}},
		{class: "special", name: "a dangling link", special: func(dir string) (string, func(), error) {
			p := filepath.Join(dir, "dangling")
			return p, func() {}, os.Symlink(filepath.Join(dir, "nowhere", "x"), p)
		}},
		{class: "special", name: "a file in a missing folder", special: func(dir string) (string, func(), error) {
			return filepath.Join(dir, "missing", "out"), func() {}, nil
		}},
		{class: "special", name: "someone's notes", data: []byte("precious notes\n")},
	}
}

// format is a file format the commands write and read back: its sample (a
// file they wrote) and the edited and truncated copies made from it.
type format struct {
	name   string
	sample func(f *fixtures) string
	edits  func(sample []byte) []input
}

// formats lists the formats we write. A new one joins here.
var formats = []format{
	{"shard", func(f *fixtures) string { return f.s0 }, shardEdits},
	{"export", func(f *fixtures) string { return f.export }, exportEdits},
	{"journal", func(f *fixtures) string { return f.journal }, journalEdits},
	{"saved game (line)", func(f *fixtures) string { return f.saved["line"] }, savedTextEdits},
	{"saved game (grid)", func(f *fixtures) string { return f.saved["grid"] }, savedTextEdits},
	{"saved game (json)", func(f *fixtures) string { return f.saved["json"] }, jsonEdits},
	{"puzzles", func(f *fixtures) string { return f.puzzles }, byteEdits},
}

func formatNamed(name string) format {
	for _, f := range formats {
		if f.name == name {
			return f
		}
	}
	panic("no format " + name)
}

// byteEdits are the edits of any file: cut short, a bit flipped, junk
// appended, doubled.
func byteEdits(b []byte) []input {
	var out []input
	for _, k := range []int{0, 1, 2, 3, 4, 5, 6, 7} {
		cut := len(b) * k / 8
		if k == 7 {
			cut = len(b) - 2
		}
		out = append(out, input{class: "edited", name: fmt.Sprintf("cut at byte %d of %d", cut, len(b)), data: b[:max(cut, 0)]})
	}
	rng := rand.New(rand.NewPCG(25, 2))
	for range 6 {
		c := slices.Clone(b)
		i := rng.IntN(len(c))
		c[i] ^= 1 << rng.IntN(8)
		out = append(out, input{class: "edited", name: fmt.Sprintf("a bit flipped at byte %d", i), data: c})
	}
	junk := make([]byte, 1024)
	for i := range junk {
		junk[i] = byte(rng.Uint32())
	}
	out = append(out,
		input{class: "edited", name: "junk appended", data: append(slices.Clone(b), junk...)},
		input{class: "edited", name: "itself twice", data: append(slices.Clone(b), b...)})
	return out
}

// jsonEdits replace every numeric field of a JSON file (the first and last
// element of each array) by each hostile number, and cut and flip it.
func jsonEdits(b []byte) []input {
	out := byteEdits(b)
	for _, path := range numericPaths(b) {
		for _, v := range jsonNumbers {
			e, err := setJSON(b, path, json.RawMessage(v))
			if err != nil {
				panic(err)
			}
			out = append(out, input{class: "numbers", name: strings.Join(path, ".") + " = " + numberName(v), data: e})
		}
	}
	return out
}

// numericPaths lists the paths of the numeric fields of a JSON document.
func numericPaths(b []byte) [][]string {
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		panic(err)
	}
	var out [][]string
	var walk func(v any, path []string)
	walk = func(v any, path []string) {
		switch x := v.(type) {
		case json.Number:
			out = append(out, slices.Clone(path))
		case map[string]any:
			for _, k := range sortedKeys(x) {
				walk(x[k], append(path, k))
			}
		case []any:
			for _, i := range slices.Compact([]int{0, len(x) - 1}) {
				if i >= 0 {
					walk(x[i], append(path, strconv.Itoa(i)))
				}
			}
		}
	}
	walk(v, nil)
	return out
}

func sortedKeys(m map[string]any) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// setJSON returns the document b with the value at path replaced by v.
func setJSON(b []byte, path []string, v any) ([]byte, error) {
	var doc any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&doc); err != nil {
		return nil, err
	}
	var set func(x any, path []string) any
	set = func(x any, path []string) any {
		if len(path) == 0 {
			return v
		}
		switch c := x.(type) {
		case map[string]any:
			c[path[0]] = set(c[path[0]], path[1:])
			return c
		case []any:
			i, _ := strconv.Atoi(path[0])
			c[i] = set(c[i], path[1:])
			return c
		}
		panic(fmt.Sprintf("no %v in the document", path))
	}
	doc = set(doc, path)
	return json.MarshalIndent(doc, "", " ")
}

// editJSON returns b changed by fn, on the document decoded with numbers
// kept as written.
func editJSON(b []byte, fn func(m map[string]any)) []byte {
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		panic(err)
	}
	fn(m)
	out, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		panic(err)
	}
	return out
}

func results(m map[string]any) []map[string]any {
	var out []map[string]any
	for _, r := range m["results"].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

// shardEdits are a shard result file's edits: every numeric field, the
// checksums stripped, the format changed, an edit made consistently (its
// checksums and total redone).
func shardEdits(b []byte) []input {
	out := jsonEdits(b)
	out = append(out,
		input{class: "edited", name: "checksums stripped", data: editJSON(b, func(m map[string]any) {
			for _, r := range results(m) {
				delete(r, "checksum")
			}
		})},
		input{class: "edited", name: "format " + shard.LegacyFormat + ", checksums kept", data: editJSON(b, func(m map[string]any) { m["format"] = shard.LegacyFormat })},
		input{class: "edited", name: "total nodes only", data: editJSON(b, func(m map[string]any) {
			m["total"].(map[string]any)["nodes"] = json.Number("1")
		}), quick: true},
		input{class: "edited", name: "shards = 10^9", data: editJSON(b, func(m map[string]any) { m["shards"] = json.Number("1000000000") }), quick: true},
		input{class: "edited", name: "a count edited consistently", data: consistentShard(b)},
		input{class: "edited", name: "a string of 1 MiB", data: editJSON(b, func(m map[string]any) { m["hash"] = strings.Repeat("h", 1<<20) })},
	)
	return out
}

// consistentShard adds one to a result's count and redoes its checksum and
// the total, as an editor who knows the format would.
func consistentShard(b []byte) []byte {
	var f shard.File
	if err := json.Unmarshal(b, &f); err != nil {
		panic(err)
	}
	f.Results[0].Count++
	f.Total = f.Sum()
	out, err := json.MarshalIndent(&f, "", " ")
	if err != nil {
		panic(err)
	}
	return out
}

// exportEdits are an export's edits: those of a shard file, and its job
// and records stripped (the results edited, or not).
func exportEdits(b []byte) []input {
	out := shardEdits(b)
	for _, strip := range [][]string{{"job"}, {"records"}, {"job", "records"}} {
		name := strings.Join(strip, " and ") + " stripped"
		out = append(out,
			input{class: "edited", name: name, data: editJSON(b, func(m map[string]any) {
				for _, k := range strip {
					delete(m, k)
				}
			})},
			input{class: "edited", name: name + ", a count edited", quick: len(strip) == 2, data: editJSON(b, func(m map[string]any) {
				for _, k := range strip {
					delete(m, k)
				}
				r := results(m)[0]
				r["count"] = json.Number("999")
			})})
	}
	return out
}

var recordLine = regexp.MustCompile(`(?m)^(\d+) (\d+) (\d+) ([0-9a-f]{8})$`)

// journalEdits are a checkpoint journal's edits: its task count and the
// numbers of its first and last records replaced by hostile numbers, a
// count edited consistently (the checksum chain redone), and the edits of
// any file.
func journalEdits(b []byte) []input {
	out := byteEdits(b)
	text := string(b)
	tasks := regexp.MustCompile(`(?m)^tasks \d+$`).FindStringIndex(text)
	for _, v := range numbers {
		out = append(out, input{class: "numbers", name: "tasks = " + numberName(v), data: []byte(text[:tasks[0]] + "tasks " + v + text[tasks[1]:])})
	}
	recs := recordLine.FindAllStringSubmatchIndex(text, -1)
	for _, ri := range []int{0, len(recs) - 1} {
		rec := recs[ri]
		for field, fname := range []string{"id", "count", "nodes", "crc"} {
			lo, hi := rec[2+2*field], rec[3+2*field]
			for _, v := range numbers {
				out = append(out, input{class: "numbers", name: fmt.Sprintf("record %d's %s = %s", ri, fname, numberName(v)),
					data: []byte(text[:lo] + v + text[hi:])})
			}
		}
	}
	out = append(out,
		input{class: "edited", name: "the last records dropped", data: []byte(text[:recs[len(recs)/2][0]])},
		input{class: "edited", name: "a count edited consistently", data: consistentJournal(text)},
	)
	return out
}

// consistentJournal adds one to the first record's count and redoes the
// CRC chain from there (journal's format: each record's CRC-32C covers the
// previous CRC and its text).
func consistentJournal(text string) []byte {
	tab := crc32.MakeTable(crc32.Castagnoli)
	hdr := regexp.MustCompile(`(?m)^header ([0-9a-f]{8})$`).FindStringSubmatchIndex(text)
	prev, _ := strconv.ParseUint(text[hdr[2]:hdr[3]], 16, 32)
	var out strings.Builder
	out.WriteString(text[:hdr[1]+1])
	for i, m := range recordLine.FindAllStringSubmatch(text[hdr[1]:], -1) {
		id, cnt, nodes := m[1], m[2], m[3]
		if i == 0 {
			c, _ := strconv.ParseUint(cnt, 10, 64)
			cnt = strconv.FormatUint(c+1, 10)
		}
		rec := id + " " + cnt + " " + nodes
		var p [4]byte
		binary.BigEndian.PutUint32(p[:], uint32(prev))
		crc := crc32.Update(crc32.Update(0, tab, p[:]), tab, []byte(rec))
		fmt.Fprintf(&out, "%s %08x\n", rec, crc)
		prev = uint64(crc)
	}
	return []byte(out.String())
}

// savedTextEdits are the edits of a saved game in the line or grid format:
// the numbers of its comment lines, its marks, and any file's edits.
func savedTextEdits(b []byte) []input {
	out := byteEdits(b)
	text := string(b)
	for _, key := range []string{"seconds", "index", "seed"} {
		re := regexp.MustCompile(`(?m)^# ` + key + `: .*$`)
		loc := re.FindStringIndex(text)
		if loc == nil {
			panic("no " + key + " in the saved game")
		}
		for _, v := range numbers {
			out = append(out, input{class: "numbers", name: key + " = " + numberName(v), data: []byte(text[:loc[0]] + "# " + key + ": " + v + text[loc[1]:])})
		}
	}
	if loc := regexp.MustCompile(`(?m)^# marks: .*$`).FindStringIndex(text); loc != nil {
		out = append(out, input{class: "edited", name: "marks of 1 MiB", data: []byte(text[:loc[0]] + "# marks: " + strings.Repeat("123456789,", 1<<17) + text[loc[1]:])})
	}
	return out
}
