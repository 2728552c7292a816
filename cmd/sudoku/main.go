// Command sudoku solves, counts, rates and generates sudoku puzzles. It is
// a thin layer over package github.com/nqcount/nqcount/count/sudoku: it
// parses flags, prints results on stdout (--format line, grid or json) and
// diagnostics on stderr, one line each.
//
// Exit status: 0 success, 1 a failed check (a bad puzzle in the input, a
// puzzle without a solution, or one that cannot be rated), 2 a usage
// error, 130 interrupted.
package main

import (
	"os"

	"github.com/nqcount/nqcount/internal/cli"
)

var app = cli.App{Name: "sudoku"}

func main() { app.Main(os.Args[1:]) }
