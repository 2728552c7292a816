package web_test

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
	for who, assets := range assetTrees() {
		err := fs.WalkDir(assets, ".", func(path string, d fs.DirEntry, err error) error {
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
				t.Errorf("%s: %s refers to %s: the pages must load nothing from the network", who, path, m)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", who, err)
		}
	}
	if n < 6 {
		t.Fatalf("walked %d assets", n)
	}
}
