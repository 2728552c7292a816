//go:build amd64 && !purego

package x86

import (
	"testing"

	kcpuid "github.com/klauspost/cpuid/v2"
)

// TestCPU checks every feature the kernels decide by against
// klauspost/cpuid's independent reading (which, like this package,
// counts the AVX features only where the OS saves their registers).
func TestCPU(t *testing.T) {
	f, c := CPU(), kcpuid.CPU
	for _, tc := range []struct {
		name string
		got  bool
		want kcpuid.FeatureID
	}{
		{"POPCNT", f.POPCNT, kcpuid.POPCNT},
		{"BMI1", f.BMI1, kcpuid.BMI1},
		{"BMI2", f.BMI2 && f.BMI1, kcpuid.BMI2}, // cpuid sets BMI2 only with BMI1
		{"AVX2", f.AVX2, kcpuid.AVX2},
		{"AVX512F", f.AVX512F, kcpuid.AVX512F},
		{"AVX512VL", f.AVX512VL, kcpuid.AVX512VL},
		{"AVX512BW", f.AVX512BW, kcpuid.AVX512BW},
		{"AVX512VBMI", f.AVX512VBMI, kcpuid.AVX512VBMI},
		{"AVX512VPOPCNTDQ", f.AVX512VPOPCNTDQ, kcpuid.AVX512VPOPCNTDQ},
	} {
		if want := c.Supports(tc.want); tc.got != want {
			t.Errorf("%s: %v, cpuid says %v (%s)", tc.name, tc.got, want, c.BrandName)
		}
	}
	if want := c.VendorID == kcpuid.AMD || c.VendorID == kcpuid.Hygon; f.AMD != want {
		t.Errorf("AMD or Hygon %v, cpuid says vendor %v", f.AMD, c.VendorID)
	}
	if f.Family != uint32(c.Family) {
		t.Errorf("family %#x, cpuid says %#x", f.Family, c.Family)
	}
}
