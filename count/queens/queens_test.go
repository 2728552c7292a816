package queens

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens/kernel"
	"github.com/nqcount/nqcount/internal/impltest"
	"github.com/nqcount/nqcount/internal/refdata"
)

// referenceCount is the textbook algorithm: recursion over rows with
// boolean arrays for columns and diagonals. Slow and obviously correct.
func referenceCount(n int) uint64 {
	col := make([]bool, n)
	d1 := make([]bool, 2*n)
	d2 := make([]bool, 2*n)
	var place func(r int) uint64
	place = func(r int) uint64 {
		if r == n {
			return 1
		}
		var s uint64
		for c := 0; c < n; c++ {
			if col[c] || d1[r+c] || d2[r-c+n] {
				continue
			}
			col[c], d1[r+c], d2[r-c+n] = true, true, true
			s += place(r + 1)
			col[c], d1[r+c], d2[r-c+n] = false, false, false
		}
		return s
	}
	return place(0)
}

// backtracking are the methods whose tasks are kernel frames.
var backtracking = []Method{Constellations, Halving}

// forEachKernel runs body once per registered kernel, through the
// project's one driver, which reports (or, under NQCOUNT_REQUIRE_KERNELS,
// fails) the ones this CPU cannot run.
func forEachKernel(t *testing.T, body func(t *testing.T, k kernel.Kernel)) {
	impltest.Run(t, "queens", kernel.All(), func(k kernel.Kernel) impltest.Impl {
		return impltest.Impl{Name: k.Name, Supported: k.Supported(), Why: "this CPU lacks what it needs (" + k.Doc + ")"}
	}, body)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if s := impltest.Summary(); s != "" {
		os.Stderr.WriteString(s + "\n")
	}
	os.Exit(code)
}

// opts are what a test asks of a count of n: the Spec's choices, the
// Execution, and the unique count.
type opts struct {
	Method     Method
	Depth      int
	Workers    int
	Kernel     string
	Unique     bool
	Memory     uint64
	Path       string
	OnProgress func(id int, nodes uint64)
}

// countN plans n as o says and counts every task of the plan, as the job
// does for a whole count.
func countN(ctx context.Context, n int, o opts) (Result, error) {
	e := Execution{Kernel: o.Kernel, Workers: o.Workers, Memory: o.Memory, Path: o.Path}.Resolve()
	p, err := NewPlan(Spec{N: n, Method: o.Method, Depth: o.Depth, Workers: e.Workers, Kernel: e.Kernel})
	if err != nil {
		return Result{}, err
	}
	r, err := Count(ctx, p, e, count.All(p.Len()), Options{OnProgress: o.OnProgress})
	if err == nil && o.Unique {
		u := UniqueFrom(n, r.Total)
		r.Unique = &u
	}
	return r, err
}

func mustCount(t *testing.T, n int, opt opts) Result {
	t.Helper()
	r, err := countN(context.Background(), n, opt)
	if err != nil {
		t.Fatalf("n=%d %+v: %v", n, opt, err)
	}
	return r
}

func maxTestN(t *testing.T, full int) int {
	if testing.Short() {
		return full - 2
	}
	return full
}

func TestCountMatchesOEIS(t *testing.T) {
	for _, m := range Methods {
		for n := 1; n <= maxTestN(t, 15); n++ {
			t.Run(fmt.Sprintf("method=%s/n=%d", m, n), func(t *testing.T) {
				r := mustCount(t, n, opts{Method: m, Unique: n <= 14})
				want, _ := Known(n)
				if r.Total != count.U128(want) {
					t.Errorf("total %s, want %d", r.Total, want)
				}
				if r.Unique != nil {
					wu, _ := KnownUnique(n)
					if *r.Unique != count.U128(wu) {
						t.Errorf("unique %s, want %d", r.Unique, wu)
					}
				}
			})
		}
	}
}

func TestEveryKernelMatchesOEIS(t *testing.T) {
	forEachKernel(t, func(t *testing.T, k kernel.Kernel) {
		for _, m := range backtracking {
			for n := 1; n <= 14; n++ {
				r := mustCount(t, n, opts{Method: m, Kernel: k.Name})
				if want, _ := Known(n); r.Total != count.U128(want) {
					t.Errorf("method=%s n=%d: total %s, want %d", m, n, r.Total, want)
				}
			}
		}
	})
}

func TestAgainstReference(t *testing.T) {
	for n := 1; n <= 10; n++ {
		want := referenceCount(n)
		for _, m := range Methods {
			if r := mustCount(t, n, opts{Method: m}); r.Total != count.U128(want) {
				t.Errorf("method=%s n=%d: %s, reference says %d", m, n, r.Total, want)
			}
		}
	}
}

func TestTotalIndependentOfDepthAndWorkers(t *testing.T) {
	const n = 11
	want, _ := Known(n)
	for _, m := range Methods {
		depths := []int{1, 2, 3, 4}
		if m == Constellations {
			depths = []int{0, 1, 2, 3}
		}
		for _, d := range depths {
			for _, w := range []int{1, 2, 3, 7} {
				t.Run(fmt.Sprintf("method=%s/depth=%d/workers=%d", m, d, w), func(t *testing.T) {
					r := mustCount(t, n, opts{Method: m, Depth: d, Workers: w})
					if r.Total != count.U128(want) {
						t.Errorf("total %s, want %d", r.Total, want)
					}
				})
			}
		}
	}
}

func TestTasksDeterministicDisjointCovering(t *testing.T) {
	const n = 10
	for _, m := range Methods {
		p1, err := NewPlan(Spec{N: n, Method: m, Depth: 2, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		p2, _ := NewPlan(Spec{N: n, Method: m, Depth: 2, Workers: 1})
		if p1.Hash() != p2.Hash() || p1.Len() != p2.Len() {
			t.Fatalf("%s: two plans of the same parameters differ", m)
		}
		p3, _ := NewPlan(Spec{N: n, Method: m, Depth: 1, Workers: 1})
		if p1.Hash() == p3.Hash() {
			t.Fatalf("%s: plans of different depth share a hash", m)
		}
		if m == Join {
			// The join's tasks are checked one by one in package join;
			// here, that they add up.
			r, err := Count(context.Background(), p1, Execution{Workers: 1}, count.All(p1.Len()), Options{})
			if want, _ := Known(n); err != nil || r.Total != count.U128(want) || r.Tasks != p1.Len() {
				t.Fatalf("%s: tasks add up to %s over %d tasks (%v), want %d over %d", m, r.Total, r.Tasks, err, want, p1.Len())
			}
			continue
		}
		// Disjoint: no two tasks place the same queens.
		seen := map[string]int{}
		for i, task := range p1.Tasks() {
			key := fmt.Sprint(task.Queens())
			if j, dup := seen[key]; dup {
				t.Fatalf("%s: tasks %d and %d are the same subtree %s", m, i, j, key)
			}
			seen[key] = i
		}
		// Covering: the weighted task counts add up to the total, and
		// each task's completions are real solutions containing its queens.
		var sum uint64
		k := kernel.Best()
		for id := range p1.Tasks() {
			var f kernel.Frame
			w := p1.Frame(id, &f)
			c, _, err := k.Count(&f)
			if err != nil {
				t.Fatal(err)
			}
			sum += c * w
		}
		if want, _ := Known(n); sum != want {
			t.Fatalf("%s: tasks add up to %d, want %d", m, sum, want)
		}
	}
}

// TestTaskCountsAgainstBruteForce checks each constellation task alone:
// its count must equal the number of solutions that contain its queens.
func TestTaskCountsAgainstBruteForce(t *testing.T) {
	const n = 8
	sols := allSolutions(n)
	for _, m := range backtracking {
		p, _ := NewPlan(Spec{N: n, Method: m, Depth: 1, Workers: 1})
		for id, task := range p.Tasks() {
			var f kernel.Frame
			p.Frame(id, &f)
			got, _, err := kernel.Best().Count(&f)
			if err != nil {
				t.Fatal(err)
			}
			var want uint64
			for _, s := range sols {
				ok := true
				for _, q := range task.Queens() {
					ok = ok && s[q[0]] == q[1]
				}
				if ok {
					want++
				}
			}
			if got != want {
				t.Fatalf("%s task %d %v: kernel %d, brute force %d", m, id, task.Queens(), got, want)
			}
		}
	}
}

func allSolutions(n int) [][]int {
	var out [][]int
	cols := make([]int, n)
	var place func(r int)
	place = func(r int) {
		if r == n {
			out = append(out, append([]int(nil), cols...))
			return
		}
		for c := 0; c < n; c++ {
			ok := true
			for r2 := 0; r2 < r; r2++ {
				d := cols[r2] - c
				ok = ok && d != 0 && d != r-r2 && d != r2-r
			}
			if ok {
				cols[r] = c
				place(r + 1)
			}
		}
	}
	place(0)
	return out
}

func TestSymmetricCountsAgainstBruteForce(t *testing.T) {
	for n := 2; n <= 10; n++ {
		var r90, r180 uint64
		for _, s := range allSolutions(n) {
			half, quarter := true, true
			for r, c := range s {
				half = half && s[n-1-r] == n-1-c
				quarter = quarter && s[c] == n-1-r
			}
			if half {
				r180++
			}
			if quarter {
				r90++
			}
		}
		g90, g180 := symmetricCounts(n)
		if g90 != r90 || g180 != r180 {
			t.Errorf("n=%d: R90 %d R180 %d, brute force %d %d", n, g90, g180, r90, r180)
		}
	}
}

func TestBadArguments(t *testing.T) {
	for _, c := range []struct {
		n   int
		opt opts
	}{
		{0, opts{}}, {-3, opts{}}, {MaxN + 1, opts{}},
		{8, opts{Depth: MaxDepth + 1}}, {8, opts{Depth: -1}},
		{8, opts{Method: "spiral"}}, {8, opts{Kernel: "nope"}},
		{5, opts{Method: Constellations, Depth: 2}},
	} {
		if _, err := countN(context.Background(), c.n, c.opt); !errors.Is(err, ErrInvalid) {
			t.Errorf("n=%d %+v: err = %v, want ErrInvalid", c.n, c.opt, err)
		}
	}
}

func TestCancelledCountReturnsNoTotal(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r, err := countN(ctx, 13, opts{}); !errors.Is(err, context.Canceled) || r.Total != (count.Uint128{}) {
		t.Fatalf("got %+v, %v", r, err)
	}
}

// TestBuiltInTablesMatchShared compares the built-in OEIS tables with the
// reference copies in ../shared/oeis.
func TestBuiltInTablesMatchShared(t *testing.T) {
	dir := refdata.Dir(t, "oeis")
	for _, tc := range []struct {
		file  string
		known func(int) (uint64, bool)
	}{{"A000170.txt", Known}, {"A002562.txt", KnownUnique}} {
		f, err := os.Open(filepath.Join(dir, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		lines := 0
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) != 2 || strings.HasPrefix(fields[0], "#") {
				continue
			}
			n, _ := strconv.Atoi(fields[0])
			v, _ := strconv.ParseUint(fields[1], 10, 64)
			if got, ok := tc.known(n); !ok || got != v {
				t.Errorf("%s n=%d: built-in %d, shared %d", tc.file, n, got, v)
			}
			lines++
		}
		f.Close()
		if lines != MaxKnown {
			t.Errorf("%s: %d values, want %d", tc.file, lines, MaxKnown)
		}
	}
}

func TestAutoDepthGivesEnoughTasks(t *testing.T) {
	for _, m := range Methods {
		p, err := NewPlan(Spec{N: 16, Method: m, Depth: 0, Workers: runtime.GOMAXPROCS(0)})
		if err != nil {
			t.Fatal(err)
		}
		if p.Len() < 16*runtime.GOMAXPROCS(0) {
			t.Errorf("%s: only %d tasks for %d workers", m, p.Len(), runtime.GOMAXPROCS(0))
		}
	}
}

// TestKernelsAgree feeds every task of several plans to every kernel and
// demands the solutions and the nodes of the portable kernel (which the
// kernel package checks against its oracle), counted whole and in slices.
func TestKernelsAgree(t *testing.T) {
	ref, err := kernel.Lookup("generic")
	if err != nil {
		t.Fatal(err)
	}
	forEachKernel(t, func(t *testing.T, k kernel.Kernel) {
		for _, n := range []int{1, 4, 5, 6, 9, 12} {
			for _, m := range backtracking {
				p, err := NewPlan(Spec{N: n, Method: m, Depth: 0, Workers: 2})
				if err != nil {
					t.Fatal(err)
				}
				for id := range p.Tasks() {
					var f kernel.Frame
					p.Frame(id, &f)
					ws, wn, err := ref.Count(&f)
					if err != nil {
						t.Fatal(err)
					}
					g := f
					if s, nd, err := k.Count(&g); err != nil || s != ws || nd != wn {
						t.Fatalf("n=%d %s task %d: %s gives %d solutions %d nodes (%v), %s %d %d", n, m, id, k.Name, s, nd, err, ref.Name, ws, wn)
					}
					var sr kernel.Search
					if err := sr.Reset(&f); err != nil {
						t.Fatal(err)
					}
					for !k.Run(&sr, 97) {
					}
					if sr.Solutions() != ws || sr.Nodes() != wn {
						t.Fatalf("n=%d %s task %d: %s in slices gives %d solutions %d nodes, whole %d %d", n, m, id, k.Name, sr.Solutions(), sr.Nodes(), ws, wn)
					}
				}
			}
		}
	})
}

func TestWeightedOverflow(t *testing.T) {
	if c, err := weighted(1<<61-1, 8); err != nil || c != (1<<61-1)*8 {
		t.Fatalf("weighted(2^61-1, 8) = %d, %v", c, err)
	}
	if _, err := weighted(1<<61, 8); !errors.Is(err, ErrOverflow) {
		t.Fatalf("weighted(2^61, 8): err = %v, want ErrOverflow", err)
	}
	if _, err := weighted(math.MaxUint64, 2); !errors.Is(err, ErrOverflow) {
		t.Fatalf("weighted(max, 2): err = %v, want ErrOverflow", err)
	}
}

// TestFallbackKernelChosen is run by CI under qemu-user emulating a CPU
// without BMI2 (NQCOUNT_EXPECT_NO_BMI2=1): a count must choose the
// portable kernel by itself and still be right.
func TestFallbackKernelChosen(t *testing.T) {
	if os.Getenv("NQCOUNT_EXPECT_NO_BMI2") == "" {
		t.Skip("set NQCOUNT_EXPECT_NO_BMI2=1 on a CPU without BMI2 (CI uses qemu-x86_64 -cpu Westmere)")
	}
	r := mustCount(t, 10, opts{})
	if r.Kernel != "generic" || r.Total != count.U128(724) {
		t.Fatalf("n = 10 on a CPU without BMI2: kernel %s, total %s; want generic, 724", r.Kernel, r.Total)
	}
}
