// Package impltest is the one test driver for every family of
// interchangeable implementations in the project: the n-queens kernels,
// the join kernels, the Sudoku solver variants. In the spirit of the Go
// standard library's cryptotest.TestAllImplementations, a test body is
// written once and Run calls it once per registered implementation, as a
// subtest named after it, so that every implementation passes exactly the
// same tests.
//
// An implementation this machine cannot run (an assembly kernel on a CPU
// without its instructions, or any assembly under -tags purego) is
// reported as a skipped subtest. On a machine that should have it, that
// skip would hide a missing kernel, so the environment variable
// NQCOUNT_REQUIRE_KERNELS turns it into a failure: it lists
// implementations, each as "family/name" or just "name" (any family), or
// "all" for every registered one. CI sets it from the host's CPU flags.
package impltest

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// EnvRequire is the environment variable listing the implementations that
// must be supported on this machine.
const EnvRequire = "NQCOUNT_REQUIRE_KERNELS"

// Impl is what the driver needs to know of one implementation.
type Impl struct {
	// Name is the implementation's name within its family, as users
	// select it (--kernel bmi2).
	Name string
	// Supported reports whether this machine and build can run it.
	Supported bool
	// Why says what is missing when it is not supported, e.g. "needs
	// BMI2"; optional.
	Why string
}

var (
	absentMu sync.Mutex
	absent   = map[string]bool{}
)

// Run runs body once for every implementation in impls, each as the
// subtest "name". Unsupported implementations are skipped with a message,
// or fail the test when EnvRequire lists them. It fails when impls is
// empty, or when EnvRequire names an implementation of this family that
// is not registered at all.
func Run[K any](t *testing.T, family string, impls []K, describe func(K) Impl, body func(t *testing.T, k K)) {
	t.Helper()
	if len(impls) == 0 {
		t.Fatalf("impltest: family %q has no implementations registered", family)
	}
	req := Required()
	names := make([]string, 0, len(impls))
	for _, k := range impls {
		names = append(names, describe(k).Name)
	}
	for _, r := range req {
		if fam, name, ok := strings.Cut(r, "/"); ok && fam == family && !slices.Contains(names, name) {
			t.Errorf("impltest: %s=%q names %s/%s, which is not registered (have %s)", EnvRequire, os.Getenv(EnvRequire), family, name, strings.Join(names, ", "))
		}
	}
	for _, k := range impls {
		im := describe(k)
		if !im.Supported {
			full := family + "/" + im.Name
			why := im.Why
			if why == "" {
				why = "not supported on this machine or build"
			}
			if IsRequired(family, im.Name) {
				t.Errorf("impltest: %s is required by %s but cannot run here: %s", full, EnvRequire, why)
				continue
			}
			absentMu.Lock()
			absent[full] = true
			absentMu.Unlock()
			t.Run(im.Name, func(t *testing.T) {
				t.Skipf("%s not tested: %s (set %s=%s to make this a failure)", full, why, EnvRequire, full)
			})
			continue
		}
		t.Run(im.Name, func(t *testing.T) { body(t, k) })
	}
}

// Required returns the entries of EnvRequire.
func Required() []string {
	return strings.FieldsFunc(os.Getenv(EnvRequire), func(r rune) bool { return r == ',' || r == ' ' })
}

// IsRequired reports whether EnvRequire asks for implementation name of
// family.
func IsRequired(family, name string) bool {
	for _, r := range Required() {
		if r == "all" || r == name || r == family+"/"+name {
			return true
		}
	}
	return false
}

// Absent returns the implementations that Run found unsupported so far in
// this test binary, as "family/name", sorted.
func Absent() []string {
	absentMu.Lock()
	defer absentMu.Unlock()
	out := make([]string, 0, len(absent))
	for k := range absent {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Summary is a one-line account of the absent implementations, empty when
// every one was tested; a TestMain may print it.
func Summary() string {
	a := Absent()
	if len(a) == 0 {
		return ""
	}
	return fmt.Sprintf("impltest: not tested on this machine: %s (see %s)", strings.Join(a, ", "), EnvRequire)
}
