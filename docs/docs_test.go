package docs

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/internal/clitest"
	"github.com/nqcount/nqcount/internal/refdata"
)

// block is one console block of a Markdown file.
type block struct {
	file   string // relative to the module root
	line   int    // of the opening fence
	skip   bool
	ignore []*regexp.Regexp
	cmds   []example
}

// example is one command of a block and the output the docs show.
type example struct {
	line int
	cmd  string
	want string
}

var (
	directive = regexp.MustCompile(`^<!--\s*check:\s*(skip|ignore)\s*(.*?)\s*-->$`)
	kernel    = regexp.MustCompile(`kernel (bmi2|generic|avx2|avx512)\b`)
	setup     = regexp.MustCompile(`^go (build|install)\b`)
)

// parse returns the console blocks of a Markdown file.
func parse(t *testing.T, root, file string) []block {
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	var (
		blocks  []block
		cur     *block
		pending block // directives seen before the next block
		fence   string
	)
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		trimmed := strings.TrimSpace(l)
		if cur == nil {
			if m := directive.FindStringSubmatch(trimmed); m != nil {
				switch m[1] {
				case "skip":
					pending.skip = true
				case "ignore":
					re, err := regexp.Compile(m[2])
					if err != nil {
						t.Fatalf("%s:%d: bad regexp in %q: %v", file, i+1, trimmed, err)
					}
					pending.ignore = append(pending.ignore, re)
				}
				continue
			}
			if strings.HasPrefix(trimmed, "```") {
				fence = trimmed[:strings.LastIndex(trimmed, "`")+1]
				if strings.TrimSpace(strings.TrimPrefix(trimmed, fence)) == "console" {
					pending.file, pending.line = file, i+1
					cur = &pending
				} else {
					// Skip a block of another kind to its end.
					for i++; i < len(lines) && strings.TrimSpace(lines[i]) != fence; i++ {
					}
				}
			}
			if trimmed != "" && cur == nil {
				pending = block{} // a directive applies only to the block right after it
			}
			continue
		}
		if trimmed == fence {
			blocks = append(blocks, *cur)
			cur, pending = nil, block{}
			continue
		}
		if cmd, ok := strings.CutPrefix(l, "$ "); ok {
			start := i + 1
			for strings.HasSuffix(cmd, `\`) && i+1 < len(lines) {
				i++
				cmd += "\n" + lines[i]
			}
			cur.cmds = append(cur.cmds, example{line: start, cmd: cmd})
			continue
		}
		if len(cur.cmds) == 0 {
			t.Fatalf("%s:%d: a console block must start with a command line ('$ ...')", file, i+1)
		}
		cur.cmds[len(cur.cmds)-1].want += l + "\n"
	}
	if cur != nil {
		t.Fatalf("%s:%d: console block without its closing fence", file, cur.line)
	}
	return blocks
}

// markdownFiles lists the Markdown files of the project.
func markdownFiles(t *testing.T, root string) []string {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			rel, _ := filepath.Rel(root, path)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// build builds the commands into a new directory.
func build(t *testing.T, root string) string {
	bin := t.TempDir()
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/nqueens", "./cmd/sudoku")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// scratch makes a copy of the project to run the examples in: docs/ is
// copied (examples write there), the rest linked, and ../shared points
// at the reference data when there is any.
func scratch(t *testing.T, root string) string {
	top := t.TempDir()
	work := filepath.Join(top, "nqcount")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(work, "docs"), os.DirFS(filepath.Join(root, "docs"))); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Name() != "docs" {
			if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(work, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	if shared, err := filepath.Abs(filepath.Join(root, "..", "shared")); err == nil {
		if _, err := os.Stat(shared); err == nil {
			if err := os.Symlink(shared, filepath.Join(top, "shared")); err != nil {
				t.Fatal(err)
			}
		}
	}
	return work
}

// marker separates the outputs of a block's commands.
func marker(i int) string { return fmt.Sprintf("@@docs-example-%d@@", i) }

// runBlock runs the commands of b in one bash and returns each one's
// output, stdout and stderr together.
func runBlock(t *testing.T, b block, dir, bin string) []string {
	var script strings.Builder
	script.WriteString("exec 2>&1\n")
	for i, ex := range b.cmds {
		// The marker must not change $? for 'echo $?'.
		fmt.Fprintf(&script, "__s=$?; echo '%s'; (exit $__s)\n", marker(i))
		if setup.MatchString(ex.cmd) {
			continue // the commands are built already
		}
		script.WriteString(ex.cmd + "\n")
	}
	fmt.Fprintf(&script, "echo '%s'\n", marker(len(b.cmds)))
	cmd := exec.Command("bash", "--noprofile", "--norc", "-c", script.String())
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GOMAXPROCS=2")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("running the block: %v\n%s", err, out)
	}
	got := make([]string, len(b.cmds))
	rest := string(out)
	for i := range b.cmds {
		_, after, ok1 := strings.Cut(rest, marker(i)+"\n")
		before, _, ok2 := strings.Cut(after, marker(i+1)+"\n")
		if !ok1 || !ok2 {
			t.Fatalf("lost the output markers in:\n%s", out)
		}
		got[i], rest = before, after
	}
	return got
}

// normalize replaces what varies between runs, and the trailing blank
// lines that separate examples in the docs.
func normalize(s string, ignore []*regexp.Regexp) string {
	s = clitest.Normalize(s)
	s = kernel.ReplaceAllString(s, "kernel <kernel>")
	for _, re := range ignore {
		s = re.ReplaceAllString(s, "…")
	}
	return strings.TrimRight(s, "\n") + "\n"
}

func TestExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the commands")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []block
	for _, f := range markdownFiles(t, root) {
		blocks = append(blocks, parse(t, root, f)...)
	}
	if len(blocks) == 0 {
		t.Fatal("no console block found: the test is looking in the wrong place")
	}
	bin := build(t, root)
	dir := scratch(t, root)
	for _, b := range blocks {
		t.Run(fmt.Sprintf("%s:%d", b.file, b.line), func(t *testing.T) {
			if b.skip {
				t.Skip("<!-- check: skip -->")
			}
			for _, ex := range b.cmds {
				if strings.Contains(ex.cmd, "../shared") {
					refdata.Dir(t, ".")
				}
			}
			got := runBlock(t, b, dir, bin)
			for i, ex := range b.cmds {
				w, g := normalize(ex.want, b.ignore), normalize(got[i], b.ignore)
				if w != g {
					t.Errorf("%s:%d: $ %s\nprints what the docs do not show (- docs, + command):\n%s"+
						"Fix the docs or the command. If the difference is noise (a figure that changes from run to run),\n"+
						"put <!-- check: ignore REGEXP --> on the line before the block (see package docs).",
						b.file, ex.line, ex.cmd, clitest.Diff(w, g))
				}
			}
		})
	}
}

// TestParse checks the reading of blocks and directives.
func TestParse(t *testing.T) {
	dir := t.TempDir()
	md := "# T\n\n```sh\n$ not run\n```\n\n<!-- check: ignore \\d+ s -->\n```console\n$ echo a \\\n  b\na b\n\n$ true\n```\n\n" +
		"<!-- check: skip -->\n\n```console\n$ false\n```\n"
	if err := os.WriteFile(filepath.Join(dir, "x.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	bs := parse(t, dir, "x.md")
	if len(bs) != 2 {
		t.Fatalf("%d blocks: %+v", len(bs), bs)
	}
	b := bs[0]
	if b.line != 8 || b.skip || len(b.ignore) != 1 || len(b.cmds) != 2 ||
		b.cmds[0] != (example{9, "echo a \\\n  b", "a b\n\n"}) || b.cmds[1] != (example{13, "true", ""}) {
		t.Errorf("first block: %+v", b)
	}
	if !bs[1].skip {
		t.Errorf("second block not skipped: %+v", bs[1])
	}
	sc := bufio.NewScanner(strings.NewReader(normalize("time 1.25 s, kernel bmi2\n\n\n", nil)))
	sc.Scan()
	if sc.Text() != "time <T> s, kernel <kernel>" {
		t.Errorf("normalize: %q", sc.Text())
	}
}

// The examples run the installed commands: every file that shows them
// says how to install them before its first example, so that no reader
// meets a command nobody told them to build.
func TestInstallSaidFirst(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	uses := regexp.MustCompile(`(^|[|;&]\s*)(nqueens|sudoku)\b`)
	for _, f := range markdownFiles(t, root) {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		said := map[string]bool{}
		for _, b := range parse(t, root, f) {
			before := strings.Join(strings.SplitN(string(data), "\n", b.line)[:b.line-1], "\n")
			for _, ex := range b.cmds {
				for _, m := range uses.FindAllStringSubmatch(ex.cmd, -1) {
					used := m[2]
					if said[used] {
						continue
					}
					said[used] = true // the first example is the one that counts
					if !regexp.MustCompile(`go install [^\n]*\./cmd/` + used).MatchString(before) {
						t.Errorf("%s:%d: the example runs %s, but the file does not say before it how to install it ('go install ./cmd/%s')", f, ex.line, used, used)
					}
				}
			}
		}
	}
}
