//go:build amd64 && !purego

package x86

import (
	"encoding/binary"
	"testing"

	"github.com/klauspost/cpuid/v2"
)

// TestCPUID: leaf 0 names the vendor klauspost/cpuid reads, and leaf 7's
// BMI2 and AVX2 bits agree with it.
func TestCPUID(t *testing.T) {
	max, b, c, d := CPUID(0, 0)
	var v [12]byte
	binary.LittleEndian.PutUint32(v[0:], b)
	binary.LittleEndian.PutUint32(v[4:], d)
	binary.LittleEndian.PutUint32(v[8:], c)
	if got, want := string(v[:]), cpuid.CPU.VendorString; got != want {
		t.Errorf("vendor %q, cpuid says %q", got, want)
	}
	if max < 7 {
		t.Skipf("CPUID's highest leaf is %d", max)
	}
	_, ebx7, _, _ := CPUID(7, 0)
	if got, want := ebx7>>8&1 == 1, cpuid.CPU.Supports(cpuid.BMI2); got != want {
		t.Errorf("BMI2 %v, cpuid says %v", got, want)
	}
	if got, want := ebx7>>5&1 == 1, cpuid.CPU.Supports(cpuid.AVX2); got != want {
		t.Errorf("AVX2 %v, cpuid says %v", got, want)
	}
	if _, _, ecx1, _ := CPUID(1, 0); ecx1>>27&1 == 1 {
		if xcr0, _ := XGETBV(); xcr0&3 != 3 {
			t.Errorf("XCR0 %#x lacks the x87 and SSE states", xcr0)
		}
	}
}
