package web

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"time"
)

// assets are the files every page shares (the style sheet, the icon, the
// API client, i18n.js and the catalogues' shared texts), compiled into
// the binary: the pages need nothing from the network.
//
//go:embed assets
var assets embed.FS

// Assets returns the files the frame serves under /static/ for every
// page: style.css, icon.svg, api.js, i18n.js and i18n/LANG.json (the
// texts every page shares; each page adds its own).
func Assets() fs.FS {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded tree always has assets/
	}
	return sub
}

// A Page is one page a Server serves: its HTML, the files it loads and its
// JSON API. The page packages (web/sudokupage, web/queenspage) make them.
type Page struct {
	// Path is where the page is served, "/sudoku".
	Path string
	// Nav is the catalogue key of the page's name in the header's links
	// between the pages served ("nav.sudoku").
	Nav string
	// HTML names the page's HTML file in Assets. Where it holds the
	// comment <!--pages--> the server puts the links to the pages it
	// serves, this one marked as the current page.
	HTML string
	// Assets are the page's files, served under /static/ beside the
	// frame's (Assets), its HTML but: scripts, and its texts in i18n/LANG.json, which
	// the server merges with the frame's and the other pages' into the
	// one catalogue per language that i18n.js loads.
	Assets fs.FS
	// Routes registers the page's API on the server (Server.Handle,
	// Endpoint, Limited), once, when the server is made.
	Routes func(s *Server)
	// Shutdown, when set, is called when the server stops serving (work
	// the page started in the background ends).
	Shutdown func()
}

// staticFiles are the files served under /static/ (the frame's and every
// page's, with the catalogues merged) and the pages' HTML, read once when
// the server is made.
type staticFiles struct {
	files map[string][]byte // path under /static/ -> content
	pages map[string][]byte // page path -> its HTML
}

// catalogueDir is where the message catalogues are, in the frame's assets
// and the pages'.
const catalogueDir = "i18n"

// newStaticFiles reads the frame's and the pages' assets, merges their
// catalogues and writes the header's links into the pages' HTML.
func newStaticFiles(pages []*Page) (*staticFiles, error) {
	sf := &staticFiles{files: map[string][]byte{}, pages: map[string][]byte{}}
	catalogues := map[string]map[string]json.RawMessage{} // lang -> key -> text
	from := map[string]string{}                           // asset -> who gave it
	// add takes the files of fsys but html, the page's HTML (served at
	// its path only, with its headers).
	add := func(who string, fsys fs.FS, html string) error {
		return fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || name == html {
				return err
			}
			b, err := fs.ReadFile(fsys, name)
			if err != nil {
				return err
			}
			if dir, file := path.Split(name); dir == catalogueDir+"/" && path.Ext(file) == ".json" {
				lang := strings.TrimSuffix(file, ".json")
				var texts map[string]json.RawMessage
				if err := json.Unmarshal(b, &texts); err != nil {
					return fmt.Errorf("%s: %s: %v", who, name, err)
				}
				if catalogues[lang] == nil {
					catalogues[lang] = map[string]json.RawMessage{}
				}
				for k, v := range texts {
					if _, dup := catalogues[lang][k]; dup {
						return fmt.Errorf("%s: %s: key %q is in another catalogue too", who, name, k)
					}
					catalogues[lang][k] = v
				}
				return nil
			}
			if other, dup := from[name]; dup {
				return fmt.Errorf("%s and %s both serve /static/%s", other, who, name)
			}
			from[name] = who
			sf.files[name] = b
			return nil
		})
	}
	if err := add("the frame", Assets(), ""); err != nil {
		return nil, err
	}
	for _, p := range pages {
		if _, dup := sf.pages[p.Path]; dup || p.Path == "" || p.Path[0] != '/' {
			return nil, fmt.Errorf("page path %q: empty, relative or served twice", p.Path)
		}
		sf.pages[p.Path] = nil
		if err := add("page "+p.Path, p.Assets, p.HTML); err != nil {
			return nil, err
		}
	}
	for lang, texts := range catalogues {
		// Sorted keys (json.Marshal sorts a map's), so that the file is
		// the same on every start.
		b, err := json.Marshal(texts)
		if err != nil {
			return nil, err
		}
		sf.files[catalogueDir+"/"+lang+".json"] = b
	}
	en := map[string]string{}
	for k, v := range catalogues["en"] {
		var s string
		if json.Unmarshal(v, &s) == nil {
			en[k] = s
		}
	}
	for _, p := range pages {
		b, err := fs.ReadFile(p.Assets, p.HTML)
		if err != nil {
			return nil, fmt.Errorf("page %s: %v", p.Path, err)
		}
		var links strings.Builder
		for _, q := range pages {
			name, ok := en[q.Nav]
			if !ok {
				return nil, fmt.Errorf("page %s: its name %q is not in the English catalogue", q.Path, q.Nav)
			}
			current := ""
			if q == p {
				current = ` aria-current="page"`
			}
			fmt.Fprintf(&links, `<a href="%s"%s data-i18n="%s">%s</a>`, html.EscapeString(q.Path), current, html.EscapeString(q.Nav), html.EscapeString(name))
		}
		sf.pages[p.Path] = bytes.Replace(b, []byte("<!--pages-->"), []byte(links.String()), 1)
	}
	return sf, nil
}

// ServeHTTP serves the file r.URL.Path names (with /static/ stripped):
// scripts, styles, icons, catalogues; no directory listings.
func (sf *staticFiles) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, ok := sf.files[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	http.ServeContent(w, r, r.URL.Path, time.Time{}, bytes.NewReader(b))
}
