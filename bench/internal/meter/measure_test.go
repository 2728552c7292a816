package meter

import (
	"os"
	"os/exec"
	"testing"
)

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		xs   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{3, 1, 2}, 2}, {[]float64{4, 1, 2, 3}, 2.5}} {
		in := append([]float64(nil), c.xs...)
		if got := Median(c.xs); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.xs, got, c.want)
		}
		for i := range in {
			if in[i] != c.xs[i] {
				t.Fatalf("Median changed its argument: %v", c.xs)
			}
		}
	}
}

func TestPaired(t *testing.T) {
	// Round by round 2, 2 and 3 (the 0 is left out): median 2, where the
	// ratio of the medians would be 3/1.
	if v := Paired([]float64{2, 40, 3, 5}, []float64{1, 20, 1, 0}); v != 2 {
		t.Errorf("Paired = %v, want 2", v)
	}
	if v := Paired([]float64{1}, nil); v != 0 {
		t.Errorf("Paired with no rounds = %v, want 0", v)
	}
}

func TestFormats(t *testing.T) {
	for _, c := range []struct {
		s    float64
		want string
	}{{0.01234, "0.0123"}, {1.2345, "1.234"}, {12.345, "12.35"}} {
		if got := Seconds(c.s); got != c.want {
			t.Errorf("Seconds(%v) = %q, want %q", c.s, got, c.want)
		}
	}
}

func TestBusy(t *testing.T) {
	for _, c := range []struct {
		load string
		cpus int
		want bool
	}{{"0.50 0.40 0.30", 2, false}, {"1.50 0.40 0.30", 2, true}, {"", 2, false}, {"x", 2, false}} {
		if got := Busy(c.load, c.cpus); got != c.want {
			t.Errorf("Busy(%q, %d) = %v", c.load, c.cpus, got)
		}
	}
}

// TestProbes: this process has used some CPU and memory; a child that
// ran has a peak.
func TestProbes(t *testing.T) {
	x := 0
	for i := 0; i < 1e7; i++ {
		x += i
	}
	_ = x
	if c := SelfCPU(); c < 0 {
		t.Errorf("SelfCPU = %v", c)
	}
	if b, ok := SelfPeakRSS(); ok && b < 1<<20 {
		t.Errorf("SelfPeakRSS = %d bytes, less than a MiB", b)
	}
	// This test binary again, running no test.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if b, ok := PeakRSS(cmd.ProcessState); ok && b < 1<<20 {
		t.Errorf("PeakRSS of a test binary = %d bytes, less than a MiB", b)
	}
}
