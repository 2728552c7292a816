// Command sudoku-play serves the Sudoku app (package
// github.com/nqcount/nqcount/web/sudokupage) in the browser (generate, enter, hints,
// save and load) until interrupted: the URL on stdout, notes on stderr.
// "sudoku play" runs it.
//
// It is a command of its own so that the sudoku command, which people
// run once a puzzle in scripts, does not link (and start) a web server,
// its TLS stack and the C resolver (docs/web.md). It serves the Sudoku
// page only, and links no n-queens code.
//
// Exit status: 0 once stopped, 1 if it cannot serve, 2 a usage error.
package main

import (
	"context"
	"net"
	"os"

	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/web"
	"github.com/nqcount/nqcount/web/sudokupage"
)

// Its messages and usage are those of "sudoku play", which runs it.
var app = cli.App{Name: "sudoku"}

func init() {
	app.Register(&cli.Command{Name: "play", Summary: "play in the browser: a local web app (generate, enter, hints, save/load)", Run: runPlay})
}

func main() {
	app.Main(append([]string{"play"}, os.Args[1:]...))
}

// runPlay serves the Sudoku page until interrupted: the
// URL on stdout, notes on stderr, exit 0 once stopped.
func runPlay(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "play", "[--listen ADDR] [--no-browser]")
	listen := fs.String("listen", web.DefaultAddr, "address to serve on, HOST:PORT; other than loopback, every request needs the token in the printed URL")
	noBrowser := fs.Bool("no-browser", false, "do not open a browser, just print the URL")
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	if len(pos) > 0 {
		e.Errorf("play takes no arguments, got %q", pos[0])
		return cli.ExitUsage
	}
	if _, _, err := net.SplitHostPort(*listen); err != nil {
		e.Errorf("--listen %q: %v (want HOST:PORT, e.g. 127.0.0.1:8080)", *listen, err)
		return cli.ExitUsage
	}
	if err := web.Launch(ctx, *listen, sudokupage.Path, web.Options{Pages: []*web.Page{sudokupage.New(sudokupage.Options{})}}, !*noBrowser, e.Stdout, e.Errorf); err != nil {
		e.Errorf("%v", err)
		return cli.ExitFail
	}
	e.Errorf("stopped")
	return cli.ExitOK
}
