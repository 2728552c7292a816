package impltest

import (
	"testing"
)

type fake struct {
	name string
	ok   bool
}

func describeFake(f fake) Impl { return Impl{Name: f.name, Supported: f.ok, Why: "fake"} }

func TestRunCallsEverySupported(t *testing.T) {
	t.Setenv(EnvRequire, "")
	var ran []string
	Run(t, "fam", []fake{{"a", true}, {"b", false}, {"c", true}}, describeFake, func(t *testing.T, f fake) {
		ran = append(ran, f.name)
	})
	if len(ran) != 2 || ran[0] != "a" || ran[1] != "c" {
		t.Fatalf("ran %v, want [a c]", ran)
	}
	if got := Absent(); len(got) != 1 || got[0] != "fam/b" {
		t.Fatalf("Absent() = %v, want [fam/b]", got)
	}
}

func TestIsRequired(t *testing.T) {
	for _, c := range []struct {
		env, fam, name string
		want           bool
	}{
		{"", "queens", "bmi2", false},
		{"bmi2", "queens", "bmi2", true},
		{"queens/bmi2", "queens", "bmi2", true},
		{"join/bmi2", "queens", "bmi2", false},
		{"avx2, queens/bmi2", "queens", "bmi2", true},
		{"all", "sudoku", "x", true},
	} {
		t.Setenv(EnvRequire, c.env)
		if got := IsRequired(c.fam, c.name); got != c.want {
			t.Errorf("%s=%q: IsRequired(%s, %s) = %v, want %v", EnvRequire, c.env, c.fam, c.name, got, c.want)
		}
	}
}

// TestRequiredAbsentFails checks that a required but unsupported
// implementation fails the test instead of being skipped, and that an
// unknown required name of the family fails too. It runs Run on a fake
// testing.T by way of a subtest whose failure is expected.
func TestRequiredAbsentFails(t *testing.T) {
	for _, env := range []string{"fam/b", "b", "all", "fam/nonesuch"} {
		t.Setenv(EnvRequire, env)
		if !failsInSubtest(t, func(st *testing.T) {
			Run(st, "fam", []fake{{"a", true}, {"b", false}}, describeFake, func(*testing.T, fake) {})
		}) {
			t.Errorf("%s=%q: Run did not fail", EnvRequire, env)
		}
	}
	t.Setenv(EnvRequire, "fam/a")
	if failsInSubtest(t, func(st *testing.T) {
		Run(st, "fam", []fake{{"a", true}, {"b", false}}, describeFake, func(*testing.T, fake) {})
	}) {
		t.Errorf("a required, supported implementation made Run fail")
	}
}

func TestEmptyFamilyFails(t *testing.T) {
	t.Setenv(EnvRequire, "")
	if !failsInSubtest(t, func(st *testing.T) {
		Run(st, "fam", []fake(nil), describeFake, func(*testing.T, fake) {})
	}) {
		t.Error("an empty family passed")
	}
}

// failsInSubtest runs f on a testing.T of a fresh test runner and reports
// whether it failed, without failing the caller.
func failsInSubtest(t *testing.T, f func(*testing.T)) bool {
	t.Helper()
	failed := false
	ok := testing.RunTests(func(pat, str string) (bool, error) { return true, nil },
		[]testing.InternalTest{{Name: "inner", F: func(st *testing.T) {
			defer func() { failed = st.Failed() }()
			f(st)
		}}})
	return failed || !ok
}
