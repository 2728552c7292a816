//go:build amd64 && !purego

package sudoku

import (
	"testing"
	"unsafe"
)

// TestTriadStateLayout: the assembly addresses triadState's fields by
// offset (the #defines of kernel_bmi2_amd64.s).
func TestTriadStateLayout(t *testing.T) {
	var s triadState
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"f", unsafe.Offsetof(s.f), 0},
		{"hp", unsafe.Offsetof(s.hp), 108},
		{"rows", unsafe.Offsetof(s.rows), 216},
		{"free", unsafe.Offsetof(s.free), 228},
		{"dirty", unsafe.Offsetof(s.dirty), 240},
		{"vdirty", unsafe.Offsetof(s.vdirty), 252},
		{"tdirty", unsafe.Offsetof(s.tdirty), 256},
		{"tot", unsafe.Offsetof(s.tot), 260},
	} {
		if c.got != c.want {
			t.Errorf("triadState.%s is at offset %d; kernel_bmi2_amd64.s says %d", c.name, c.got, c.want)
		}
	}
}
