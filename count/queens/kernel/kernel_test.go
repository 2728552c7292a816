package kernel

import (
	"math/rand/v2"
	"testing"
	"unsafe"
)

// The assembly kernels read Frame by fixed offsets.
func TestFrameLayout(t *testing.T) {
	var f Frame
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"Full", unsafe.Offsetof(f.Full), 0},
		{"Cols", unsafe.Offsetof(f.Cols), 8},
		{"LD", unsafe.Offsetof(f.LD), 16},
		{"RD", unsafe.Offsetof(f.RD), 24},
		{"Free", unsafe.Offsetof(f.Free), 32},
		{"Shift", unsafe.Offsetof(f.Shift), 40},
		{"Inject", unsafe.Offsetof(f.Inject), 72},
	} {
		if c.got != c.want {
			t.Errorf("Frame.%s at offset %d, the assembly expects %d", c.name, c.got, c.want)
		}
	}
}

// randomFrame makes an arbitrary frame: not necessarily one a plan would
// produce, but every kernel must still count it the same way.
func randomFrame(r *rand.Rand) Frame {
	n := 1 + r.IntN(MaxN)
	var f Frame
	f.Full = 1<<uint(n) - 1
	f.Cols = r.Uint64() & r.Uint64() & f.Full
	f.LD = r.Uint64() & r.Uint64() & r.Uint64()
	f.RD = r.Uint64() & r.Uint64() & r.Uint64()
	// Few free rows keep the search small whatever the masks.
	f.Free = r.IntN(min(n, 5) + 1)
	for i := range f.Shift {
		f.Shift[i] = uint8(1 + r.IntN(3))
		if r.IntN(4) == 0 {
			f.Inject[i] = 1 << uint(r.IntN(4))
		}
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
