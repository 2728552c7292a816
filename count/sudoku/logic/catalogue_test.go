package logic

import (
	"fmt"
	"testing"
)

// TestCombos pins the two orders of the catalogue's combinations: the
// classic scale's by members, the SE scale's by mask, and both only over
// the pool's bits.
func TestCombos(t *testing.T) {
	for _, c := range []struct {
		pool uint16
		k    int
		lex  bool
		want string
	}{
		{0b1111, 2, true, "[3 5 9 6 10 12]"},
		{0b1111, 2, false, "[3 5 6 9 10 12]"},
		{0b101101, 3, true, "[13 37 41 44]"},
		{0b101101, 3, false, "[13 37 41 44]"},
		{0b111, 4, false, "[]"},
		{0b111, 0, true, "[]"},
	} {
		got := []uint16{}
		combos(c.pool, c.k, c.lex, func(m uint16) bool { got = append(got, m); return false })
		if fmt.Sprint(got) != c.want {
			t.Errorf("combos(%b, %d, %v) = %v, want %s", c.pool, c.k, c.lex, got, c.want)
		}
	}
}
