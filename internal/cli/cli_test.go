package cli

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os/exec"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"
)

func TestParseFlagsInterspersed(t *testing.T) {
	var errb bytes.Buffer
	e := &Env{Prog: "prog", Stderr: &errb}
	for _, c := range []struct {
		args []string
		pos  []string
		json bool
	}{
		{[]string{"16", "--json"}, []string{"16"}, true},
		{[]string{"--json", "16"}, []string{"16"}, true},
		{[]string{"-3"}, []string{"-3"}, false},
		{[]string{"a", "--", "--json"}, []string{"a", "--json"}, false},
	} {
		fs := NewFlags(e, "count", "N")
		j := fs.Bool("json", false, "")
		pos, err := ParseFlags(e, fs, c.args)
		if err != nil || !reflect.DeepEqual(pos, c.pos) || *j != c.json {
			t.Errorf("%v: pos %v json %v err %v", c.args, pos, *j, err)
		}
	}
	fs := NewFlags(e, "count", "N")
	if _, err := ParseFlags(e, fs, []string{"--nope"}); err == nil || FlagExit(err) != ExitUsage {
		t.Fatalf("unknown flag: %v", err)
	}
	if got := errb.String(); strings.Count(got, "\n") != 1 || !strings.HasPrefix(got, "prog count: ") {
		t.Fatalf("error output %q: want one line", got)
	}
}

func TestAppRun(t *testing.T) {
	a := App{Name: "prog"}
	a.Register(&Command{Name: "hi", Summary: "say hi", Run: func(ctx context.Context, e *Env, args []string) int {
		e.Stdout.Write([]byte("hi\n"))
		return ExitOK
	}})
	var out, errb bytes.Buffer
	if code := a.Run(context.Background(), &Env{Stdout: &out, Stderr: &errb}, []string{"hi"}); code != ExitOK || out.String() != "hi\n" {
		t.Fatalf("%d %q", code, out.String())
	}
	if code := a.Run(context.Background(), &Env{Stdout: &out, Stderr: &errb}, []string{"bye"}); code != ExitUsage || !strings.Contains(errb.String(), `prog: unknown command "bye"`) {
		t.Fatalf("%d %q", code, errb.String())
	}
}

// TestVetChecksErrorf runs go vet on a package that calls Errorf with a
// wrong argument: vet must report it, or a hundred diagnostics go
// unchecked.
func TestVetChecksErrorf(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	out, err := exec.Command(gobin, "vet", "./testdata/vetcheck").CombinedOutput()
	if err == nil || !strings.Contains(string(out), `Errorf format %d has arg "four" of wrong type string`) {
		t.Fatalf("go vet did not flag a bad Errorf call (err %v):\n%s", err, out)
	}
}

// errWriter fails every write with err.
type errWriter struct{ err error }

func (w errWriter) Write([]byte) (int, error) { return 0, w.err }

func TestRunOutputErrors(t *testing.T) {
	a := App{Name: "prog"}
	a.Register(&Command{Name: "print", Run: func(ctx context.Context, e *Env, args []string) int {
		fmt.Fprintln(e.Stdout, "result")
		if e.OutputErr() == nil {
			t.Error("OutputErr is nil after a failed write")
		}
		if len(args) > 0 {
			return ExitUsage
		}
		return ExitOK
	}})
	full := &fs.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
	for _, c := range []struct {
		err    error
		args   []string
		code   int
		stderr string
	}{
		{full, []string{"print"}, ExitFail, "prog: cannot write the output: no space left on device\n"},
		{full, []string{"print", "x"}, ExitUsage, "prog: cannot write the output: no space left on device\n"},
		{syscall.EIO, []string{"print"}, ExitFail, "prog: cannot write the output: input/output error\n"},
		{&fs.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE}, []string{"print"}, ExitOK, ""},
		{syscall.EPIPE, []string{"print", "x"}, ExitUsage, ""},
	} {
		var errb bytes.Buffer
		code := a.Run(context.Background(), &Env{Stdout: errWriter{c.err}, Stderr: &errb}, c.args)
		if code != c.code || errb.String() != c.stderr {
			t.Errorf("%v, %v: exit %d, stderr %q; want %d, %q", c.err, c.args, code, errb.String(), c.code, c.stderr)
		}
	}
}

// After the first error nothing more is written.
func TestOutputStopsAtFirstError(t *testing.T) {
	n := 0
	o := &Output{w: writerFunc(func(b []byte) (int, error) {
		n++
		return 0, syscall.ENOSPC
	})}
	for range 3 {
		if _, err := o.Write([]byte("x")); err != syscall.ENOSPC {
			t.Fatal(err)
		}
	}
	if n != 1 {
		t.Errorf("%d writes reached the failing writer, want 1", n)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(b []byte) (int, error) { return f(b) }

func TestHelpAndVersion(t *testing.T) {
	a := App{Name: "prog"}
	a.Register(&Command{Name: "sub", Summary: "a subcommand", Run: func(ctx context.Context, e *Env, args []string) int {
		fs := NewFlags(e, "sub", "N [flags]", "N is 1 to 9.")
		fs.Bool("json", false, "JSON")
		if _, err := ParseFlags(e, fs, args); err != nil {
			return FlagExit(err)
		}
		return ExitOK
	}})
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}, {"help", "sub"}, {"sub", "-h"}, {"sub", "--help"}, {"--version"}} {
		var out, errb bytes.Buffer
		code := a.Run(context.Background(), &Env{Stdout: &out, Stderr: &errb}, args)
		if code != ExitOK || errb.Len() != 0 || out.Len() == 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
		if args[len(args)-1] == "sub" || args[0] == "sub" {
			if want := "usage: prog sub N [flags]\n\nN is 1 to 9.\n\nflags:\n  -json\n"; !strings.HasPrefix(out.String(), want) {
				t.Errorf("%v: %q, want %q...", args, out.String(), want)
			}
		}
	}
	var out, errb bytes.Buffer
	if code := a.Run(context.Background(), &Env{Stdout: &out, Stderr: &errb}, nil); code != ExitUsage || out.Len() != 0 || !strings.Contains(errb.String(), "usage: prog") {
		t.Errorf("no command: exit %d, %q %q", code, out.String(), errb.String())
	}
}

func TestVersionLine(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "24354f4a8b1c5d6e7f8091a2b3c4d5e6f7a8b9c0"}, {Key: "vcs.modified", Value: "true"},
	}}
	plat := runtime.GOOS + "/" + runtime.GOARCH
	for _, c := range []struct {
		ldflags string
		bi      *debug.BuildInfo
		want    string
	}{
		{"", bi, "prog v1.2.3 (commit 24354f4a8b1c, modified; go1.99.1 " + plat + ")"},
		{"v2.0.0", bi, "prog v2.0.0 (commit 24354f4a8b1c, modified; go1.99.1 " + plat + ")"},
		{"", &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Version: "(devel)"}}, "prog (devel) (no commit recorded; go1.99.1 " + plat + ")"},
		{"", nil, "prog (devel) (no commit recorded; " + runtime.Version() + " " + plat + ")"},
	} {
		if got := versionLine("prog", c.ldflags, c.bi); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

func TestPlural(t *testing.T) {
	for n, want := range map[int]string{0: "0 workers", 1: "1 worker", 2: "2 workers"} {
		if got := fmt.Sprintf("%d %s", n, Plural(n, "worker", "workers")); got != want {
			t.Errorf("%d: %q", n, got)
		}
	}
	if Plural(uint64(1), "a", "b") != "a" {
		t.Error("uint64")
	}
}

// A message quotes what it was given, clipped: an argument or a number of
// megabytes stays a line a person can read (the hostile-input harness).
func TestClipWords(t *testing.T) {
	long := strings.Repeat("9", 100000)
	var errb bytes.Buffer
	e := &Env{Prog: "prog", Stderr: &errb}
	e.Errorf("board size %q is not a whole number (see --help)", long)
	got := errb.String()
	if len(got) > 200 || !strings.HasPrefix(got, `prog: board size "999`) || !strings.HasSuffix(got, "…(100002 bytes) is not a whole number (see --help)\n") {
		t.Errorf("%q", got)
	}
	for _, s := range []string{"short", strings.Repeat("a b ", 1000), strings.Repeat("é", 256)} {
		if ClipWords(s) != s {
			t.Errorf("%.40q changed", s)
		}
	}
	if got := ClipWords(strings.Repeat("é", 1000)); !utf8.ValidString(got) || !strings.HasSuffix(got, "…(2000 bytes)") {
		t.Errorf("clipped inside a character: %q", got)
	}
}
