package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// The rename that does not replace, for file systems without hard links.
func TestRenameNoReplace(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, []byte("a"), 0o644)
	os.WriteFile(b, []byte("b"), 0o644)
	err := renameNoReplace(a, b)
	if !errors.Is(err, os.ErrExist) {
		t.Errorf("over a file: %v", err)
	}
	c := filepath.Join(dir, "c")
	if err := renameNoReplace(a, c); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(c); string(got) != "a" {
		t.Errorf("c holds %q", got)
	}
}
