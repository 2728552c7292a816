//go:build amd64 && !purego

package sudoku

import (
	"testing"

	"github.com/klauspost/cpuid/v2"
)

// TestCPUFeatures checks the kernels' feature tests (cpu_amd64.go, cheap
// at start-up) against klauspost/cpuid's independent reading.
func TestCPUFeatures(t *testing.T) {
	c := cpuid.CPU
	for _, f := range []struct {
		name      string
		got, want bool
	}{
		{"bmi2", haveBMI2(), c.Supports(cpuid.BMI1, cpuid.BMI2)},
		{"avx512 lanes", haveAVX512Lanes(), c.Supports(cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512VL, cpuid.AVX512VPOPCNTDQ)},
	} {
		if f.got != f.want {
			t.Errorf("%s: %v, cpuid says %v (%s)", f.name, f.got, f.want, c.BrandName)
		}
	}
}
