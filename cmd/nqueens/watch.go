package main

import (
	"context"
	"net"
	"strconv"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/web"
	"github.com/nqcount/nqcount/web/queenspage"
	"github.com/nqcount/nqcount/web/sudokupage"
)

func init() {
	app.Register(&cli.Command{Name: "watch", Summary: "watch the search in the browser (animated up to n = 12, counted live beyond)", Run: runWatch})
}

// runWatch serves the n-queens page (and the Sudoku page beside it)
// until interrupted: the
// URL on stdout, notes on stderr, exit 0 once stopped.
func runWatch(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "watch", "N [--listen ADDR] [--no-browser]")
	listen := fs.String("listen", web.DefaultAddr, "address to serve on, HOST:PORT; other than loopback, every request needs the token in the printed URL")
	noBrowser := fs.Bool("no-browser", false, "do not open a browser, just print the URL")
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if len(pos) != 1 {
		e.Errorf("watch takes one board size, e.g. 'nqueens watch 8' (got %d arguments)", len(pos))
		return cli.ExitUsage
	}
	n, err := parseN(pos[0], 1, queens.MaxN)
	if err != nil {
		e.Errorf("%v", err)
		return cli.ExitUsage
	}
	if _, _, err := net.SplitHostPort(*listen); err != nil {
		e.Errorf("--listen %q: %v (want HOST:PORT, e.g. 127.0.0.1:8080)", *listen, err)
		return cli.ExitUsage
	}
	if n > queenspage.MaxTraceN {
		e.Errorf("n = %d is too large to animate (up to %d): the page counts it live", n, queenspage.MaxTraceN)
	}
	pages := []*web.Page{sudokupage.New(sudokupage.Options{}), queenspage.New(queenspage.Options{})}
	if err := web.Launch(ctx, *listen, queenspage.Path+"?n="+strconv.Itoa(n), web.Options{Pages: pages, Home: queenspage.Path}, !*noBrowser, e.Stdout, e.Errorf); err != nil {
		e.Errorf("%v", err)
		return cli.ExitFail
	}
	e.Errorf("stopped")
	return cli.ExitOK
}
