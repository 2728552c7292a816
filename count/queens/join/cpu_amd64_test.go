//go:build amd64 && !purego

package join

import (
	"testing"

	"github.com/klauspost/cpuid/v2"
)

// TestVendorFamily checks the package's own CPUID reading (the one
// fastPEXT decides by) against klauspost/cpuid's.
func TestVendorFamily(t *testing.T) {
	amd, family := vendorFamily()
	c := cpuid.CPU
	if want := c.VendorID == cpuid.AMD || c.VendorID == cpuid.Hygon; amd != want {
		t.Errorf("vendorFamily: AMD or Hygon %v, cpuid says vendor %v", amd, c.VendorID)
	}
	if family != uint32(c.Family) {
		t.Errorf("vendorFamily: family %#x, cpuid says %#x", family, c.Family)
	}
	want := c.Supports(cpuid.BMI2) && (c.VendorID != cpuid.AMD && c.VendorID != cpuid.Hygon || c.Family >= 0x19)
	if got := fastPEXT(); got != want {
		t.Errorf("fastPEXT() = %v, want %v (%s, family %#x)", got, want, c.BrandName, c.Family)
	}
}
