package main

import (
	"context"
	"net"

	"github.com/nqcount/nqcount/web"
)

func init() {
	register(&command{Name: "play", Summary: "play in the browser: a local web app (generate, enter, hints, save/load)", Run: runPlay})
}

// runPlay serves the Sudoku page of package web until interrupted: the
// URL on stdout, the rest on stderr.
func runPlay(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "play", "[--listen ADDR] [--no-browser]")
	listen := fs.String("listen", web.DefaultAddr, "address to serve on; other than loopback, every request needs the token in the printed URL")
	noBrowser := fs.Bool("no-browser", false, "do not open a browser, just print the URL")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return flagExit(err)
	}
	if len(pos) > 0 {
		e.Errorf("play takes no arguments, got %q", pos[0])
		return exitUsage
	}
	if _, _, err := net.SplitHostPort(*listen); err != nil {
		e.Errorf("--listen %q: %v (want HOST:PORT, e.g. 127.0.0.1:8080)", *listen, err)
		return exitUsage
	}
	return serveWeb(ctx, e, *listen, *noBrowser, web.Options{Home: "/sudoku"}, "/sudoku")
}

// serveWeb serves page until ctx is cancelled.
func serveWeb(ctx context.Context, e *env, addr string, noBrowser bool, opt web.Options, page string) int {
	srv, err := web.Listen(addr, opt)
	if err != nil {
		e.Errorf("%v", err)
		return exitFail
	}
	url := srv.URL(page)
	if srv.Loopback() {
		e.Errorf("serving on %s (loopback: this machine only); Ctrl-C stops", srv.Addr())
	} else {
		e.Errorf("serving on %s, open to other machines: every request needs the token in the URL; Ctrl-C stops", srv.Addr())
	}
	if _, err := e.Stdout.Write([]byte(url + "\n")); err != nil {
		e.Errorf("writing the URL: %v", err)
		return exitFail
	}
	if !noBrowser && !web.OpenBrowser(url) {
		e.Errorf("no xdg-open or open here to start a browser: open the URL above")
	}
	if err := srv.Serve(ctx); err != nil {
		e.Errorf("%v", err)
		return exitFail
	}
	e.Errorf("stopped")
	return exitOK
}
