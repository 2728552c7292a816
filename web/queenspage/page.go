// Package queenspage is the n-queens page of the browser front ends: the
// backtracking search animated step by step as a lesson (up to
// MaxTraceN), the two row orders compared, and a live count for larger
// boards, with its JSON API over packages count/queens,
// count/queens/solutions and count/queens/job, served by package web's
// frame (cmd/nqueens's "watch"; docs/web.md documents the endpoints).
package queenspage

import (
	"embed"
	"io/fs"
	"net/http"
	"time"

	"github.com/nqcount/nqcount/web"
)

// assets are the page's HTML, its scripts and its texts (i18n/LANG.json,
// merged by the frame with the other pages').
//
//go:embed assets
var assets embed.FS

// Path is where the page is served.
const Path = "/queens"

// Options configure the page. The zero value counts on every core, with
// the default bounds.
type Options struct {
	// Workers is the number of goroutines of a live count (0: every
	// core).
	Workers int
	// CountBudget bounds the time of a live count (0:
	// DefaultCountBudget); CountIdle stops it when no request has asked
	// for its progress for that long (0: DefaultCountIdle), so that a
	// count ends with the page that started it.
	CountBudget, CountIdle time.Duration
}

// page is the page's state: the live count and the summaries of the
// traced searches.
type page struct {
	opt    Options
	live   *liveCount
	orders orderCache
}

// New returns the n-queens page, for web.Options.Pages. The server's
// Serve stops its live count when it returns.
func New(opt Options) *web.Page {
	_, wp := newPage(opt)
	return wp
}

// newPage returns the page's state and the page.
func newPage(opt Options) (*page, *web.Page) {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded tree always has assets/
	}
	p := &page{opt: opt, live: newLiveCount(opt.CountBudget, opt.CountIdle)}
	return p, &web.Page{Path: Path, Nav: "nav.queens", HTML: "queens.html", Assets: sub, Routes: p.routes,
		Shutdown: func() { p.live.stop(StopShutdown) }}
}

// routes registers the page's API.
func (p *page) routes(s *web.Server) {
	s.Handle("/api/queens/trace", web.Endpoint(s, http.MethodPost, web.Limited(s, p.trace)))
	s.Handle("/api/queens/orders", web.Endpoint(s, http.MethodPost, web.Limited(s, p.compareOrders)))
	s.Handle("/api/queens/estimate", web.Endpoint(s, http.MethodPost, p.estimate)) // a table's look-up: no turn needed
	s.Handle("POST /api/queens/count", web.Endpoint(s, http.MethodPost, p.startCount))
	s.Handle("GET /api/queens/count", web.Endpoint(s, http.MethodGet, p.countStatus))
	s.Handle("DELETE /api/queens/count", web.Endpoint(s, http.MethodDelete, p.stopCount))
	s.HandleError("/api/queens/count", "GET, POST, DELETE", http.StatusMethodNotAllowed, func(r *http.Request) string {
		return r.Method + " /api/queens/count: use GET (progress), POST (start) or DELETE (stop)"
	})
}
