package kernel

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/cpuid/v2"

	"github.com/nqcount/nqcount/internal/impltest"
)

func describe(k Kernel) impltest.Impl {
	return impltest.Impl{Name: k.Name, Supported: k.Supported(), Why: "this CPU lacks what it needs (" + k.Doc + ")"}
}

// forEachKernel runs body once per registered kernel, through the
// project's one driver.
func forEachKernel(t *testing.T, body func(t *testing.T, k Kernel)) {
	impltest.Run(t, "queens", All(), describe, body)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if s := impltest.Summary(); s != "" {
		os.Stderr.WriteString(s + "\n")
	}
	os.Exit(code)
}

// oracleMismatch compares one kernel with the oracle on every random
// frame, counting each frame whole and in slices of the given budgets, and
// describes the first difference.
func oracleMismatch(t testing.TB, k Kernel, budgets []uint64) error {
	cs, seed, _ := oracleCases(t)
	rerun := fmt.Sprintf("rerun with -seed=%d or NQCOUNT_TEST_SEED=%d", seed, seed)
	var s Search
	for _, c := range cs {
		g := c.f
		sol, nodes, err := k.Count(&g)
		if err != nil || sol != c.sol || nodes != c.nodes {
			return fmt.Errorf("%s: %s gives %d solutions %d nodes (%v), the oracle %d %d\n%s",
				c.description, k.Name, sol, nodes, err, c.sol, c.nodes, rerun)
		}
		if g != c.f {
			return fmt.Errorf("%s: %s modified its frame", c.description, k.Name)
		}
		for _, b := range budgets {
			if err := s.Reset(&g); err != nil {
				return err
			}
			if err := runSliced(&s, g, []Kernel{k}, b, nil); err != nil {
				return fmt.Errorf("%s, budget %d: %s: %v\n%s", c.description, b, k.Name, err, rerun)
			}
			if s.Solutions() != c.sol || s.Nodes() != c.nodes {
				return fmt.Errorf("%s: %s in slices of %d nodes gives %d solutions %d nodes, the oracle %d %d\n%s",
					c.description, k.Name, b, s.Solutions(), s.Nodes(), c.sol, c.nodes, rerun)
			}
		}
	}
	return nil
}

// runSliced runs s to its end in slices of budget nodes (a random budget
// up to 2*budget when r is set), taking the kernels in turn, and checks
// that no slice overshoots its budget by more than Run promises.
func runSliced(s *Search, f Frame, ks []Kernel, budget uint64, r *rand.Rand) error {
	slack := uint64(f.N * f.N * (f.N + 1))
	for i := 0; ; i++ {
		b := budget
		if r != nil {
			b = r.Uint64N(2*budget + 1)
		}
		before := s.Nodes()
		done := ks[i%len(ks)].Run(s, b)
		if d := s.Nodes() - before; d > b+slack {
			return errors.New("a slice overshot its budget by more than N²(N+1) nodes")
		}
		if done != s.Done() {
			return errors.New("Run's result and Done disagree")
		}
		if done {
			return nil
		}
		if i > 1<<30 {
			return errors.New("the search does not end")
		}
	}
}

// TestKernelsMatchOracle is the main correctness test: thousands of
// seeded random frames, each counted by every kernel whole and in slices,
// against the independent oracle, solutions and nodes.
func TestKernelsMatchOracle(t *testing.T) {
	forEachKernel(t, func(t *testing.T, k Kernel) {
		if err := oracleMismatch(t, k, []uint64{1000}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestTinySlices runs every search in the smallest slices: a budget of 0
// or 1 pauses at every level left, and the counts must not change.
func TestTinySlices(t *testing.T) {
	forEachKernel(t, func(t *testing.T, k Kernel) {
		if err := oracleMismatch(t, k, []uint64{0, 1, 2, 7}); err != nil {
			t.Fatal(err)
		}
	})
}

// TestResumeAcrossKernels pauses each search in random slices and resumes
// it with the kernels in turn: they keep the same records, so any kernel
// goes on where another stopped.
func TestResumeAcrossKernels(t *testing.T) {
	var ks []Kernel
	for _, k := range All() {
		if k.Supported() {
			ks = append(ks, k)
		}
	}
	forEachKernel(t, func(t *testing.T, k Kernel) {
		cs, seed, _ := oracleCases(t)
		r := rand.New(rand.NewPCG(seed, 7))
		order := append([]Kernel{k}, ks...)
		var s Search
		for _, c := range cs {
			g := c.f
			if err := s.Reset(&g); err != nil {
				t.Fatal(err)
			}
			if err := runSliced(&s, g, order, 50, r); err != nil {
				t.Fatalf("%s: %v", c.description, err)
			}
			if s.Solutions() != c.sol || s.Nodes() != c.nodes {
				t.Fatalf("%s: %s and the others in turn give %d solutions %d nodes, the oracle %d %d\nrerun with -seed=%d",
					c.description, k.Name, s.Solutions(), s.Nodes(), c.sol, c.nodes, seed)
			}
		}
	})
}

// TestWholeBoards counts small boards whole, every row free, against
// A000170: the oracle's frames are small, these searches are long.
func TestWholeBoards(t *testing.T) {
	want := []uint64{1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200}
	forEachKernel(t, func(t *testing.T, k Kernel) {
		for n := 1; n <= len(want); n++ {
			f := emptyFrame(n)
			f.Rows = f.Full
			var s Search
			if err := s.Reset(&f); err != nil {
				t.Fatal(err)
			}
			whole, _, _ := k.Count(&f)
			for !k.Run(&s, 3000) {
			}
			if whole != want[n-1] || s.Solutions() != want[n-1] {
				t.Errorf("n=%d: %d whole, %d in slices, want %d", n, whole, s.Solutions(), want[n-1])
			}
		}
	})
}

// TestUnrolledRowChecksMatchLook ties the assembly's unrolled row checks
// to Look: the kernel must compare exactly Look rows. The oracle test
// catches a mismatch on its frames too (see TestBrokenKernelsCaught, where
// a window one row short or long fails); this says where to look.
func TestUnrolledRowChecksMatchLook(t *testing.T) {
	src, err := os.ReadFile("bmi2_amd64.s")
	if err != nil {
		t.Fatalf("reading the assembly: %v", err)
	}
	checks := 0
	for _, line := range strings.Split(string(src), "\n") {
		if strings.TrimSpace(line) == "CAND" {
			checks++
		}
	}
	if checks != Look {
		t.Errorf("bmi2_amd64.s writes out %d row checks (CAND), but Look = %d", checks, Look)
	}
}

func TestBadFrames(t *testing.T) {
	ok := emptyFrame(8)
	ok.Rows = ok.Full
	bad := map[string]Frame{
		"zero Frame":         {},
		"N = 0":              {N: 0, Full: 0, Rows: 0},
		"N < 0":              {N: -1},
		"N = 33":             {N: 33, Full: 1<<33 - 1, Rows: 1<<33 - 1},
		"N = 64":             {N: 64, Full: math.MaxUint64, Rows: math.MaxUint64},
		"Full wrong":         {N: 8, Full: 0x7f, Rows: 0x7f},
		"Cols past the edge": {N: 8, Full: 0xff, Rows: 0x0f, Cols: 0x100},
		"Rows past the edge": {N: 8, Full: 0xff, Rows: 0x1ff},
		"D1 past the edge":   {N: 8, Full: 0xff, Rows: 0xff, D1: 1 << 15},
		"D2 past the edge":   {N: 8, Full: 0xff, Rows: 0xff, D2: 1 << 63},
	}
	for name, f := range bad {
		if validByDefinition(f) {
			t.Fatalf("%s: the test's own check accepts it", name)
		}
		if err := f.Check(); !errors.Is(err, ErrFrame) {
			t.Errorf("%s: Check = %v, want ErrFrame", name, err)
		}
	}
	forEachKernel(t, func(t *testing.T, k Kernel) {
		for name, f := range bad {
			var s Search
			if err := s.Reset(&ok); err != nil {
				t.Fatal(err)
			}
			if err := s.Reset(&f); !errors.Is(err, ErrFrame) {
				t.Errorf("%s: Reset = %v, want ErrFrame", name, err)
			}
			if sol, nodes, err := k.Count(&f); !errors.Is(err, ErrFrame) || sol != 0 || nodes != 0 {
				t.Errorf("%s: Count = %d, %d, %v; want an ErrFrame and no count", name, sol, nodes, err)
			}
			if !panics(func() { k.Run(&s, 10) }) {
				t.Errorf("%s: Run on a Search whose Reset failed did not panic", name)
			}
		}
	})
	for _, n := range []int{1, 31, 32} {
		f := emptyFrame(n)
		f.Rows = f.Full
		f.D1 = 1 << uint(2*n-2)
		f.D2 = 1 << uint(2*n-2)
		if err := f.Check(); err != nil || !validByDefinition(f) {
			t.Errorf("n=%d: a valid frame refused: %v", n, err)
		}
	}
	if !panics(func() { All()[0].Run(new(Search), 1) }) {
		t.Error("Run on the zero Search did not panic")
	}
}

func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}

// TestDoneSearchStays checks that Run on a finished search changes
// nothing, and that Reset restarts a used Search from scratch.
func TestDoneSearchStays(t *testing.T) {
	forEachKernel(t, func(t *testing.T, k Kernel) {
		f := emptyFrame(8)
		f.Rows = f.Full
		var s Search
		for range 2 {
			if err := s.Reset(&f); err != nil {
				t.Fatal(err)
			}
			for !k.Run(&s, 100) {
			}
			sol, nodes := s.Solutions(), s.Nodes()
			if !k.Run(&s, 100) || s.Solutions() != sol || s.Nodes() != nodes || sol != 92 {
				t.Fatalf("after the end: %d %d, then %d %d", sol, nodes, s.Solutions(), s.Nodes())
			}
		}
	})
}

// TestFallbackWithoutBMI2 is run by CI under qemu-user emulating a CPU
// without BMI2, with NQCOUNT_EXPECT_NO_BMI2=1: the run-time dispatch must
// see the CPU as it is and fall back to the portable kernel, which the
// other tests of the same run then check. Elsewhere it is skipped.
func TestFallbackWithoutBMI2(t *testing.T) {
	if os.Getenv("NQCOUNT_EXPECT_NO_BMI2") == "" {
		t.Skip("set NQCOUNT_EXPECT_NO_BMI2=1 on a CPU without BMI2 (CI uses qemu-x86_64 -cpu Westmere)")
	}
	if cpuid.CPU.Supports(cpuid.BMI2) {
		t.Fatalf("NQCOUNT_EXPECT_NO_BMI2 is set but the CPU (%s) reports BMI2", cpuid.CPU.BrandName)
	}
	if b := Best(); b.Name != "generic" {
		t.Fatalf("Best() = %s on a CPU without BMI2, want generic", b.Name)
	}
	for _, k := range All() {
		if k.Name == "bmi2" {
			if k.Supported() {
				t.Fatal("bmi2 reports itself supported on a CPU without BMI2")
			}
			if _, err := Lookup("bmi2"); err == nil {
				t.Fatal("Lookup(bmi2) succeeded on a CPU without BMI2")
			}
		}
	}
	f := emptyFrame(8)
	f.Rows = f.Full
	if s, _, err := Best().Count(&f); err != nil || s != 92 {
		t.Fatalf("n=8 with %s: %d, %v", Best().Name, s, err)
	}
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

// FuzzKernelsMatchOracle feeds arbitrary masks. With mode bit 0 clear they
// are first trimmed to a valid frame; otherwise they are taken as they are
// and a kernel must refuse exactly the frames the definition refuses.
// Valid frames keep at most maxFree free rows and are counted by every
// kernel, in slices of the fuzzed budget, against the oracle.
func FuzzKernelsMatchOracle(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		g := randomFrame(r)
		f.Add(uint8(g.N), g.Full, g.Cols, g.D1, g.D2, g.Rows, uint8(0), uint32(r.IntN(100)))
	}
	f.Add(uint8(0), uint64(0), uint64(0), uint64(0), uint64(0), uint64(0), uint8(1), uint32(0))
	f.Add(uint8(33), uint64(1<<33-1), uint64(0), uint64(0), uint64(0), uint64(1<<33-1), uint8(1), uint32(5))
	f.Fuzz(func(t *testing.T, n uint8, full, cols, d1, d2, rows uint64, mode uint8, budget uint32) {
		g := Frame{N: int(n), Full: full, Cols: cols, D1: d1, D2: d2, Rows: rows}
		if mode&1 == 0 {
			g.N = 1 + int(n)%MaxN
			g.Full = uint64(1)<<uint(g.N) - 1
			diag := uint64(1)<<uint(2*g.N-1) - 1
			g.Cols &= g.Full
			g.Rows &= g.Full
			g.D1 &= diag
			g.D2 &= diag
		}
		valid := validByDefinition(g)
		var s Search
		if err := s.Reset(&g); (err == nil) != valid {
			t.Fatalf("frame %+v: Reset = %v, the definition says valid = %v", g, err, valid)
		}
		if !valid {
			return
		}
		for bitsSet(g.Rows) > maxFree {
			g.Rows &= g.Rows - 1
		}
		want, wantNodes, err := oracleCount(g, oracleCap, nil)
		if err != nil {
			return // too big for the oracle
		}
		for _, k := range All() {
			if !k.Supported() {
				continue
			}
			if err := s.Reset(&g); err != nil {
				t.Fatal(err)
			}
			if err := runSliced(&s, g, []Kernel{k}, uint64(budget), nil); err != nil {
				t.Fatalf("frame %+v: %s: %v", g, k.Name, err)
			}
			if s.Solutions() != want || s.Nodes() != wantNodes {
				t.Fatalf("frame %+v, budget %d: %s gives %d solutions %d nodes, the oracle %d %d",
					g, budget, k.Name, s.Solutions(), s.Nodes(), want, wantNodes)
			}
		}
	})
}

// BenchmarkKernels counts whole boards, named for benchstat:
//
//	go test -run '^$' -bench Kernels -count 6 ./count/queens/kernel | benchstat -col /kernel -
//
// budget=max is one run to the end; budget=1M is the slicing package
// queens uses, so the two columns show what slicing costs.
func BenchmarkKernels(b *testing.B) {
	for _, n := range []int{12, 14} {
		for _, k := range All() {
			if !k.Supported() {
				continue
			}
			for _, budget := range []struct {
				name  string
				nodes uint64
			}{{"max", math.MaxUint64}, {"1M", 1 << 20}, {"64K", 1 << 16}} {
				b.Run("n="+strconv.Itoa(n)+"/kernel="+k.Name+"/budget="+budget.name, func(b *testing.B) {
					f := emptyFrame(n)
					f.Rows = f.Full
					var s Search
					var nodes uint64
					for b.Loop() {
						if err := s.Reset(&f); err != nil {
							b.Fatal(err)
						}
						for !k.Run(&s, budget.nodes) {
						}
						nodes += s.Nodes()
					}
					b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
				})
			}
		}
	}
}
