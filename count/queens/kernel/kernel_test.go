package kernel

import (
	"math/bits"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// The assembly kernels read start by fixed offsets.
func TestStartLayout(t *testing.T) {
	var s start
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"avail", unsafe.Offsetof(s.avail), 0},
		{"cols", unsafe.Offsetof(s.cols), 8},
		{"d1", unsafe.Offsetof(s.d1), 16},
		{"d2", unsafe.Offsetof(s.d2), 24},
		{"rows", unsafe.Offsetof(s.rows), 32},
		{"r", unsafe.Offsetof(s.r), 40},
		{"nr", unsafe.Offsetof(s.nr), 48},
		{"full", unsafe.Offsetof(s.full), 56},
		{"nmin", unsafe.Offsetof(s.nmin), 64},
	} {
		if c.got != c.want {
			t.Errorf("start.%s at offset %d, the assembly expects %d", c.name, c.got, c.want)
		}
	}
}

// randomFrame makes an arbitrary frame: queens anywhere (attacking each
// other or not) and some rows free. Not necessarily one a plan would make,
// but every kernel must still count it the same way.
func randomFrame(r *rand.Rand) Frame {
	n := 1 + r.IntN(MaxN)
	var f Frame
	f.Empty(n)
	for q := r.IntN(n + 1); q > 0; q-- {
		f.Place(r.IntN(n), r.IntN(n))
	}
	// Few free rows keep the search small whatever the masks.
	for f.Rows != 0 && bits.OnesCount64(f.Rows) > 5 {
		f.Rows &^= 1 << uint(r.IntN(n))
	}
	return f
}

func checkAgree(t *testing.T, f Frame) {
	t.Helper()
	ref := All()[0]
	g := f
	ws, wn := ref.Count(&g)
	for _, k := range All()[1:] {
		if !k.Supported() {
			continue
		}
		g := f
		if s, n := k.Count(&g); s != ws || n != wn {
			t.Fatalf("frame %+v: %s gives %d solutions %d nodes, %s %d %d", f, k.Name, s, n, ref.Name, ws, wn)
		}
		if g != f {
			t.Fatalf("%s modified its frame", k.Name)
		}
	}
}

// TestKernelsAgreeOnRandomFrames is the differential test: the same
// frames to every kernel, equal answers demanded.
func TestKernelsAgreeOnRandomFrames(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 5000; i++ {
		checkAgree(t, randomFrame(r))
	}
}

func FuzzKernelsAgree(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		checkAgree(t, randomFrame(rand.New(rand.NewPCG(a, b))))
	})
}

func TestLookup(t *testing.T) {
	if k, err := Lookup("auto"); err != nil || k.Name != Best().Name {
		t.Fatalf("auto: %v %v", k.Name, err)
	}
	if _, err := Lookup("generic"); err != nil {
		t.Fatal(err)
	}
	if _, err := Lookup("nonesuch"); err == nil {
		t.Fatal("unknown kernel accepted")
	}
}

func BenchmarkKernels(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	frames := make([]Frame, 256)
	for i := range frames {
		frames[i] = randomFrame(r)
	}
	for _, k := range All() {
		if !k.Supported() {
			continue
		}
		b.Run("kernel="+k.Name, func(b *testing.B) {
			var nodes uint64
			for b.Loop() {
				for i := range frames {
					_, n := k.Count(&frames[i])
					nodes += n
				}
			}
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
		})
	}
}
