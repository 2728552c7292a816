package web

import (
	"bytes"
	"io/fs"
	"regexp"
	"testing"
)

// TestAssetsAreLocal checks that nothing the pages load comes from
// elsewhere: no CDN, no font service, no network at all.
func TestAssetsAreLocal(t *testing.T) {
	external := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9-]+(\.[a-z0-9-]+)+`)
	n := 0
	err := fs.WalkDir(assets, "assets", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		b, err := fs.ReadFile(assets, path)
		if err != nil {
			return err
		}
		// The SVG namespace is a name, not a place to load from.
		b = bytes.ReplaceAll(b, []byte("http://www.w3.org/2000/svg"), nil)
		if m := external.Find(b); m != nil {
			t.Errorf("%s refers to %s: the pages must load nothing from the network", path, m)
		}
		return nil
	})
	if err != nil || n < 6 {
		t.Fatalf("walked %d assets: %v", n, err)
	}
}
