package cli

import (
	"bytes"
	"context"
	"os/exec"
	"reflect"
	"strings"
	"testing"
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
