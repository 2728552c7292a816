package main

import (
	"strings"
	"testing"

	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/x86"
)

// nqueens cpu shows the features as the kernels read them (internal/x86).
func TestCPUFeaturesAsKernelsRead(t *testing.T) {
	code, out, errs := runCLI("cpu")
	if code != cli.ExitOK || errs != "" {
		t.Fatalf("cpu: exit %d, stderr %q", code, errs)
	}
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "features the kernels use:") {
			line = l
		}
	}
	x := x86.CPU()
	for name, has := range map[string]bool{"POPCNT": x.POPCNT, "BMI2": x.BMI2, "AVX2": x.AVX2, "AVX512F": x.AVX512F, "AVX512VPOPCNTDQ": x.AVX512VPOPCNTDQ} {
		mark := map[bool]string{true: " +", false: " -"}[has]
		if !strings.Contains(line+" ", mark+name+" ") {
			t.Errorf("features line %q: want %s%s", line, mark, name)
		}
	}
}
