package cli

import "testing"

func TestRate(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{{0, "0"}, {950, "950"}, {7800, "7.8 k"}, {45.6e6, "45.6 M"}, {1.234e9, "1.23 G"}} {
		if got := Rate(c.v); got != c.want {
			t.Errorf("Rate(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}
