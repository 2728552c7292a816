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
// URL on stdout, notes on stderr, exit 0 once stopped.
func runPlay(ctx context.Context, e *env, args []string) int {
	fs := newFlags(e, "play", "[--listen ADDR] [--no-browser]")
	listen := fs.String("listen", web.DefaultAddr, "address to serve on, HOST:PORT; other than loopback, every request needs the token in the printed URL")
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
	if err := web.Launch(ctx, *listen, "/sudoku", web.Options{Home: "/sudoku"}, !*noBrowser, e.Stdout, e.Errorf); err != nil {
		e.Errorf("%v", err)
		return exitFail
	}
	e.Errorf("stopped")
	return exitOK
}
