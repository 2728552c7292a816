// Package sudokupage is the Sudoku app of the browser front ends: the page
// (generate, enter, play, hints in words, save and load) and its JSON API
// over packages count/sudoku, count/sudoku/logic and
// count/sudoku/generate, served by package web's frame (cmd/sudoku-play;
// docs/web.md documents the endpoints).
package sudokupage

import (
	"embed"
	"io/fs"
	"net/http"

	"github.com/nqcount/nqcount/web"
)

// assets are the page's HTML, its script and its texts (i18n/LANG.json,
// merged by the frame with the other pages').
//
//go:embed assets
var assets embed.FS

// Path is where the page is served.
const Path = "/sudoku"

// Options configure the page. The zero value counts on every core.
type Options struct {
	// Workers is the number of goroutines of a count of solutions (0:
	// every core).
	Workers int
}

// page is the page's state: its options.
type page struct {
	opt Options
}

// New returns the Sudoku page, for web.Options.Pages.
func New(opt Options) *web.Page {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded tree always has assets/
	}
	p := &page{opt: opt}
	return &web.Page{Path: Path, Nav: "nav.sudoku", HTML: "sudoku.html", Assets: sub, Routes: p.routes}
}

// routes registers the page's API.
func (p *page) routes(s *web.Server) {
	s.Handle("/api/sudoku/generate", web.Endpoint(s, http.MethodPost, web.Limited(s, p.generate)))
	s.Handle("/api/sudoku/parse", web.Endpoint(s, http.MethodPost, p.parse))
	s.Handle("/api/sudoku/save", web.Endpoint(s, http.MethodPost, p.save))
	s.Handle("/api/sudoku/validate", web.Endpoint(s, http.MethodPost, web.Limited(s, p.validate)))
	s.Handle("/api/sudoku/solve", web.Endpoint(s, http.MethodPost, web.Limited(s, p.solve)))
	s.Handle("/api/sudoku/count", web.Endpoint(s, http.MethodPost, web.Limited(s, p.count)))
	s.Handle("/api/sudoku/rate", web.Endpoint(s, http.MethodPost, web.Limited(s, p.rate)))
	s.Handle("/api/sudoku/hint", web.Endpoint(s, http.MethodPost, web.Limited(s, p.hint)))
}
