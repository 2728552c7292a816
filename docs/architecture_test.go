package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestArchitectureMap: docs/architecture.md's table "Where things are"
// names every package of the module, and every folder it names exists.
func TestArchitectureMap(t *testing.T) {
	doc, err := os.ReadFile("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "\n## Where things are\n")
	if !ok {
		t.Fatal(`architecture.md has no section "## Where things are"`)
	}
	table, _, _ = strings.Cut(table, "\n## ")
	named := map[string]bool{}
	folder := regexp.MustCompile("`([^`]+)`")
	for line := range strings.SplitSeq(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		for _, m := range folder.FindAllStringSubmatch(cells[1], -1) {
			named[strings.TrimSuffix(m[1], "/")] = true
		}
	}
	if len(named) == 0 {
		t.Fatal("the table names no folder")
	}
	root := ".."
	pkgs := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			rel, err := filepath.Rel(root, filepath.Dir(path))
			if err != nil {
				return err
			}
			pkgs[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for p := range pkgs {
		if p != "." && !named[p] {
			t.Errorf("package %s has no row in architecture.md's table", p)
		}
	}
	for f := range named {
		if st, err := os.Stat(filepath.Join(root, f)); err != nil || !st.IsDir() {
			t.Errorf("architecture.md's table names %s, which is not a folder", f)
		}
	}
}
