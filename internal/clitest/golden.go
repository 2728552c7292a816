package clitest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden with the output of today's code")

// Transcript is how a golden file records one run of a command: the
// command line, stdout, stderr and the exit status, with the figures that
// change from run to run normalised (see Normalize).
func Transcript(prog string, args []string, stdin string, code int, stdout, stderr string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "$ %s %s\n", prog, strings.Join(quoteAll(args), " "))
	if stdin != "" {
		fmt.Fprintf(&b, "--- stdin\n%s", endLine(stdin))
	}
	fmt.Fprintf(&b, "--- stdout\n%s--- stderr\n%s--- exit %d\n", endLine(Normalize(stdout)), endLine(Normalize(stderr)), code)
	return b.String()
}

func endLine(s string) string {
	if s != "" && !strings.HasSuffix(s, "\n") {
		return s + "\n(no newline at the end)\n"
	}
	return s
}

func quoteAll(args []string) []string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$*?|&;<>()") {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return q
}

// Golden compares got with the file testdata/golden/NAME.txt of the
// package under test. 'go test -update' rewrites the file instead: review
// the change with git diff before committing it.
func Golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".txt")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run 'go test -run %s -update' to create it)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("the output differs from %s (if the change is meant, rerun with -update and review 'git diff'):\n%s",
			path, Diff(string(want), got))
	}
}

// normalizers replace what varies between runs and machines by a
// placeholder: durations, rates, and the JSON fields that hold them.
var normalizers = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`[0-9]+\.[0-9]+ s\b`), "<T> s"},
	{regexp.MustCompile(`[0-9.]+ (?:[kMG] )?nodes/s`), "<R> nodes/s"},
	{regexp.MustCompile(`"(seconds|cpu_seconds|shard_seconds|nodes_per_second|peak_memory_bytes|memory_limit_bytes)":[0-9.eE+-]+`), `"$1":<N>`},
	{regexp.MustCompile(`ETA [0-9hms.]+`), "ETA <T>"},
}

// Normalize replaces the figures that vary from run to run (durations,
// nodes/s, the JSON fields seconds and nodes_per_second) by placeholders,
// and aligned columns of them by one space.
func Normalize(s string) string {
	for _, n := range normalizers {
		s = n.re.ReplaceAllString(s, n.with)
	}
	return regexp.MustCompile(` +<T> s`).ReplaceAllString(s, " <T> s")
}

// Diff shows two texts line by line: the lines of want missing from got
// with '-', the lines of got not in want with '+', a few equal lines
// around for context.
func Diff(want, got string) string {
	a, b := strings.Split(strings.TrimSuffix(want, "\n"), "\n"), strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	// Longest common subsequence, fine for the short texts compared here.
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		mark byte
		text string
	}
	var lines []line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			lines = append(lines, line{' ', a[i]})
			i, j = i+1, j+1
		case i < len(a) && (j == len(b) || lcs[i+1][j] >= lcs[i][j+1]):
			lines = append(lines, line{'-', a[i]})
			i++
		default:
			lines = append(lines, line{'+', b[j]})
			j++
		}
	}
	var out strings.Builder
	const context = 2
	near := func(k int) bool {
		for d := -context; d <= context; d++ {
			if k+d >= 0 && k+d < len(lines) && lines[k+d].mark != ' ' {
				return true
			}
		}
		return false
	}
	last := -1 // the last line shown
	for k, l := range lines {
		if !near(k) {
			continue
		}
		if k > last+1 {
			out.WriteString("  …\n")
		}
		fmt.Fprintf(&out, "%c %s\n", l.mark, l.text)
		last = k
	}
	if last >= 0 && last < len(lines)-1 {
		out.WriteString("  …\n")
	}
	return out.String()
}
