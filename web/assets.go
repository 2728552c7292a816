package web

import (
	"embed"
	"io/fs"
	"net/http"
)

// assets are the pages, scripts, styles and icons, compiled into the
// binary: the pages need nothing from the network.
//
//go:embed assets
var assets embed.FS

// assetHandler serves the files of assets/ (scripts, styles, icons). The
// pages themselves are served by Server.page, with their security headers.
func assetHandler() http.Handler {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded tree always has assets/
	}
	fsrv := http.FileServerFS(sub)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "" || r.URL.Path[len(r.URL.Path)-1] == '/' {
			http.NotFound(w, r) // no directory listings
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		fsrv.ServeHTTP(w, r)
	})
}
