package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	for _, s := range []string{"first\n", "second, longer\n"} {
		if err := WriteFile(path, []byte(s)); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil || string(b) != s {
			t.Fatalf("got %q, %v; want %q", b, err, s)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x"), nil); err == nil {
		t.Fatal("no error for a missing folder")
	}
}

// A link to a regular file is written through: the target changes, the
// link stays a link.
func TestWriteFileThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "elsewhere"), 0o755); err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(dir, "elsewhere", "result.json")
	os.WriteFile(real, []byte("old"), 0o640)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(filepath.Join("elsewhere", "result.json"), link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := Check(link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if b, _ := os.ReadFile(real); string(b) != "new" {
		t.Fatalf("target holds %q", b)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o640 {
		t.Errorf("replaced file has mode %v, want its old 0640", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "elsewhere"))
	if len(entries) != 1 {
		t.Fatalf("temporary files left: %v", entries)
	}

	// A dangling link is refused, and nothing is created.
	dangling := filepath.Join(dir, "dangling")
	os.Symlink(filepath.Join(dir, "nowhere", "x"), dangling)
	for _, err := range []error{Check(dangling), WriteFile(dangling, []byte("x"))} {
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "missing file") {
			t.Errorf("dangling link: %v", err)
		}
	}
	// A link to a directory is refused.
	dirlink := filepath.Join(dir, "dirlink")
	os.Symlink(filepath.Join(dir, "elsewhere"), dirlink)
	if err := WriteFile(dirlink, []byte("x")); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a directory") {
		t.Errorf("link to a directory: %v", err)
	}
}

func TestRefusesDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, err := range []error{Check(dir), WriteFile(dir, nil)} {
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "is a directory") {
			t.Errorf("directory: %v", err)
		}
	}
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	if err := Check(filepath.Join(dir, "new.json")); err != nil {
		t.Fatal(err)
	}
	if err := Check(filepath.Join(dir, "missing", "new.json")); err == nil || !strings.Contains(err.Error(), "cannot create a file in") {
		t.Fatalf("missing folder: %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("Check left files: %v", entries)
	}
}

// WriteFileIf creates a new file without replacing one that appeared, and
// replaces an old one only if may allows it.
func TestWriteFileIf(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	refuse := errors.New("refused")
	onlyNew := func(target string) error {
		if _, err := os.Stat(target); err == nil {
			return refuse
		}
		return nil
	}
	if err := WriteFileIf(path, []byte("first\n"), onlyNew); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileIf(path, []byte("second\n"), onlyNew); !errors.Is(err, refuse) {
		t.Errorf("replacing: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "first\n" {
		t.Errorf("the file holds %q", b)
	}
	if err := WriteFileIf(path, []byte("third\n"), nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "third\n" {
		t.Errorf("the file holds %q", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	// createNew never replaces.
	tmp := filepath.Join(dir, "tmp")
	os.WriteFile(tmp, []byte("x"), 0o644)
	if err := createNew(tmp, path); !errors.Is(err, fs.ErrExist) {
		t.Errorf("createNew over a file: %v", err)
	}
}
