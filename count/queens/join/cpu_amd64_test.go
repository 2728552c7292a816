//go:build amd64 && !purego

package join

import (
	"testing"

	"github.com/nqcount/nqcount/internal/x86"
)

// TestFastPEXT: PEXT is fast with BMI2, except on AMD's and Hygon's
// families before Zen 3 (0x19), which run it in microcode.
func TestFastPEXT(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    x86.Features
		want bool
	}{
		{"no BMI2", x86.Features{Family: 6}, false},
		{"Intel", x86.Features{BMI2: true, Family: 6}, true},
		{"AMD Zen 2", x86.Features{BMI2: true, AMD: true, Family: 0x17}, false},
		{"Hygon", x86.Features{BMI2: true, AMD: true, Family: 0x18}, false},
		{"AMD Zen 3", x86.Features{BMI2: true, AMD: true, Family: 0x19}, true},
		{"AMD Zen 5", x86.Features{BMI2: true, AMD: true, Family: 0x1a}, true},
		{"AMD without BMI2", x86.Features{AMD: true, Family: 0x19}, false},
	} {
		if got := fastPEXT(tc.f); got != tc.want {
			t.Errorf("%s: fastPEXT(%+v) = %v, want %v", tc.name, tc.f, got, tc.want)
		}
	}
}
