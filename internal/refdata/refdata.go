// Package refdata finds the project's reference data for tests: the
// read-only folder shared/ beside the project (../shared from the module
// root; NQCOUNT_SHARED overrides the place).
//
// Where it is absent the tests that need it skip, and each package says so
// once where a person will see it. 'go test ./...' shows only an "ok" line
// for a passing package and hides its output, skip messages included, so
// the notice goes to the terminal itself (/dev/tty) when the test's stderr
// is not one; 'go test -v' lists every skip. A CI machine has no terminal
// and must not pass with the checks skipped: there NQCOUNT_REQUIRE_SHARED=1
// (set by .ci/run) turns a missing folder into a failure.
package refdata

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"golang.org/x/term"
)

// Dir returns the path of the reference folder sub (such as "sudoku" or
// "oeis"). When it is absent it skips the test with a message saying what
// is missing, or fails it under NQCOUNT_REQUIRE_SHARED=1.
func Dir(tb testing.TB, sub string) string {
	tb.Helper()
	root, err := root()
	if err == nil {
		d := filepath.Join(root, sub)
		if _, err = os.Stat(d); err == nil {
			return d
		}
	}
	msg := fmt.Sprintf("reference data absent (%v): this check needs the project's shared/ folder beside it, or NQCOUNT_SHARED=DIR", err)
	if os.Getenv("NQCOUNT_REQUIRE_SHARED") == "1" {
		tb.Fatalf("%s; NQCOUNT_REQUIRE_SHARED=1 forbids skipping", msg)
	}
	notice(err)
	tb.Skip(msg)
	return ""
}

// File returns the path of the reference file sub/name, as Dir does.
func File(tb testing.TB, sub, name string) string {
	tb.Helper()
	p := filepath.Join(Dir(tb, sub), name)
	if _, err := os.Stat(p); err != nil {
		if os.Getenv("NQCOUNT_REQUIRE_SHARED") == "1" {
			tb.Fatalf("reference file absent: %v", err)
		}
		notice(err)
		tb.Skipf("reference file absent: %v", err)
	}
	return p
}

// root is the shared folder: NQCOUNT_SHARED, else ../shared from the
// module's root.
func root() (string, error) {
	if d := os.Getenv("NQCOUNT_SHARED"); d != "" {
		return d, nil
	}
	mod, err := moduleRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(mod), "shared"), nil
}

// moduleRoot is the directory holding go.mod above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = up
	}
}

var (
	noticeOnce sync.Once
	// noticeTo returns where the notice goes and a function closing it.
	noticeTo = terminal
)

// notice tells the person running the tests, once per package, that
// reference checks are skipped.
func notice(err error) {
	noticeOnce.Do(func() {
		w, done := noticeTo()
		if w == nil {
			return
		}
		defer done()
		pkg, _ := os.Getwd()
		if mod, merr := moduleRoot(); merr == nil {
			if rel, rerr := filepath.Rel(mod, pkg); rerr == nil {
				pkg = rel
			}
		}
		fmt.Fprintf(w, "NOTE %s: reference checks SKIPPED, shared data absent (%v); 'go test -v' lists them\n", pkg, err)
	})
}

// terminal is stderr when it is a terminal (go test on one package in its
// folder shows it), else the process's terminal, else nothing.
func terminal() (io.Writer, func()) {
	if term.IsTerminal(int(os.Stderr.Fd())) {
		return os.Stderr, func() {}
	}
	tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0)
	if err != nil {
		return nil, nil
	}
	return tty, func() { tty.Close() }
}
