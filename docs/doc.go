// Package docs holds the project's documentation and no code. Its test,
// TestExamples, runs the example commands of every console block in the
// project's Markdown files (README.md, docs/*.md, any other) and checks
// that they print what the block shows, so that the docs cannot drift
// from the commands.
//
// A console block is a fenced block with the info string "console": lines
// starting with "$ " are commands (a line ending in '\' continues on the
// next one), the lines after a command up to the next one are what it
// prints, stdout and stderr together. The test builds nqueens and sudoku
// and puts them first on PATH (lines running 'go build' or 'go install'
// are not run), runs each block's commands in one bash, in order, in a
// scratch copy of the project where ../shared is the reference data, with
// GOMAXPROCS=2 (the docs' examples are from a 2-core machine). Before
// comparing it replaces what varies between runs on both sides: durations,
// nodes/s, the JSON seconds and the kernel's name.
//
// An HTML comment just before a block changes how it is checked:
//
//	<!-- check: skip -->            the block is not run (say why in the text)
//	<!-- check: ignore REGEXP -->   matches of REGEXP (Go syntax) are replaced by … in both texts
//
// Blocks of any other info string (sh, text) are not run.
package docs
