package queens

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/internal/impltest"
)

func describeJoin(k join.Kernel) impltest.Impl {
	return impltest.Impl{Name: k.Name, Supported: k.Supported(), Why: "needs " + k.Doc}
}

// TestJoinKernelsMatchOEIS counts n = 1..14 by the join with every join
// kernel, against A000170 and A002562.
func TestJoinKernelsMatchOEIS(t *testing.T) {
	impltest.Run(t, "join", join.Kernels(), describeJoin, func(t *testing.T, k join.Kernel) {
		for n := 1; n <= 14; n++ {
			r := mustCount(t, n, Options{Method: Join, Kernel: k.Name, Unique: true})
			want, _ := Known(n)
			wu, _ := KnownUnique(n)
			if r.Total != count.U128(want) || *r.Unique != count.U128(wu) || r.Kernel != k.Name {
				t.Errorf("n=%d: %s total, %s unique with %s, want %d and %d", n, r.Total, r.Unique, r.Kernel, want, wu)
			}
		}
	})
}

// TestJoinLong counts n = 16 and 17 by the join (seconds each; minutes
// under -race), when NQCOUNT_LONG_TESTS is set: CI's default run stays
// short, and n = 15 is counted by TestCountMatchesOEIS.
func TestJoinLong(t *testing.T) {
	if os.Getenv("NQCOUNT_LONG_TESTS") == "" {
		t.Skip("n = 16 and 17 by the join: set NQCOUNT_LONG_TESTS=1 to run them")
	}
	for _, n := range []int{16, 17} {
		r := mustCount(t, n, Options{Method: Join, Unique: true})
		want, _ := Known(n)
		wu, _ := KnownUnique(n)
		if r.Total != count.U128(want) || *r.Unique != count.U128(wu) {
			t.Errorf("n=%d: %s total, %s unique, want %d and %d", n, r.Total, r.Unique, want, wu)
		}
	}
}

// TestJoinMemoryLimit: a memory limit below what the fastest cut needs
// gives more, smaller tasks and the same total; one nothing fits in is an
// error, not a crash.
func TestJoinMemoryLimit(t *testing.T) {
	for _, n := range []int{12, 13} {
		free, err := NewPlanMemory(n, Join, 0, 1, 0)
		if err != nil {
			t.Fatal(err)
		}
		g := join.Geometries(n)[1]
		limit := join.Memory(g, 1)
		small, err := NewPlanMemory(n, Join, 0, 1, limit)
		if err != nil {
			t.Fatal(err)
		}
		if small.Depth != 2 || small.Len() <= free.Len() || small.Hash() == free.Hash() {
			t.Fatalf("n=%d limit %d: depth %d with %d tasks, the free plan depth %d with %d", n, limit, small.Depth, small.Len(), free.Depth, free.Len())
		}
		r := mustCount(t, n, Options{Method: Join, Memory: limit, Workers: 1})
		if want, _ := Known(n); r.Total != count.U128(want) || r.Depth != 2 {
			t.Fatalf("n=%d limit %d: %s at depth %d, want %d at depth 2", n, limit, r.Total, r.Depth, want)
		}
		if _, err := Count(context.Background(), n, Options{Method: Join, Memory: 1}); err == nil {
			t.Fatalf("n=%d: a 1-byte limit was accepted", n)
		}
		if _, err := NewPlanMemory(n, Join, 1, 1, limit); err == nil {
			t.Fatalf("n=%d: depth 1 accepted under a limit it does not fit", n)
		}
	}
}

// TestDefaultMethod: Count without a method uses the join from joinFrom.
func TestDefaultMethod(t *testing.T) {
	for _, c := range []struct {
		n    int
		want Method
	}{{1, Constellations}, {joinFrom - 1, Constellations}, {joinFrom, Join}, {13, Constellations}, {14, Join}, {20, Join}, {joinTo + 1, Constellations}} {
		if got := DefaultMethod(c.n); got != c.want {
			t.Errorf("DefaultMethod(%d) = %s, want %s", c.n, got, c.want)
		}
		p, err := NewPlan(c.n, "", 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		if p.Method != c.want {
			t.Errorf("NewPlan(%d, \"\") planned %s, want %s", c.n, p.Method, c.want)
		}
	}
	// Auto falls back to the backtracker when the join does not fit.
	if p, err := NewPlanMemory(14, Auto, 0, 1, 1<<20); err != nil || p.Method != Constellations {
		t.Errorf("auto at n = 14 in 1 MiB: %v, %v; want a constellations plan", p.Method, err)
	}
	if m := ResolveMethod(Auto, 20, "bmi2"); m != Constellations {
		t.Errorf("auto with kernel bmi2 at n = 20: %s, want constellations", m)
	}
	if m := ResolveMethod(Auto, 20, "generic"); m != Join {
		t.Errorf("auto with kernel generic at n = 20: %s, want join (it has a generic kernel too)", m)
	}
	if m, err := ParseMethod("auto"); err != nil || m != Auto {
		t.Errorf("ParseMethod(auto) = %q, %v", m, err)
	}
	if _, err := ParseMethod("joins"); err == nil {
		t.Error("ParseMethod accepted joins")
	}
}

// TestTaskFunc counts every task of a plan through one TaskFunc, from two
// goroutines, against the OEIS; a task's result, nodes included, is the
// same from a fresh TaskFunc (which builds the join's tables in that
// task) as from one that built them for another task: a queue compares
// the records of two workers.
func TestTaskFunc(t *testing.T) {
	for _, m := range []Method{Constellations, Join} {
		p, err := NewPlan(12, m, 0, StableWorkers)
		if err != nil {
			t.Fatal(err)
		}
		do, name, err := p.TaskFunc("")
		if err != nil || name == "" {
			t.Fatalf("%s: TaskFunc: %q, %v", m, name, err)
		}
		res := make([]count.Result, p.Len())
		tot, err := count.Run(context.Background(), p.LargestFirst(count.All(p.Len())), do, count.Options{Workers: 2,
			OnDone: func(id int, r count.Result) error { res[id] = r; return nil }})
		want, _ := Known(12)
		if err != nil || tot.Count != count.U128(want) {
			t.Fatalf("%s: %s, %v; want %d", m, tot.Count, err, want)
		}
		if _, _, err := p.TaskFunc("no-such-kernel"); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: an unknown kernel: %v, want ErrInvalid", m, err)
		}
	}
	// From n = 19 building the tables is work (join.Counter.Count), which
	// a task counted through TaskFunc leaves out.
	p, err := NewPlan(19, Join, 1, StableWorkers)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	shared, _, _ := p.TaskFunc("")
	a, b := 0, p.Len()-1
	var progress uint64
	first, err := shared(ctx, a, func(n uint64) { progress += n })
	if err != nil {
		t.Fatal(err)
	}
	if progress <= first.Nodes {
		t.Errorf("task %d reported %d nodes of progress, %d in its result: want the tables' work in the progress only", a, progress, first.Nodes)
	}
	second, err := shared(ctx, b, func(uint64) {})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id   int
		want count.Result
	}{{a, first}, {b, second}} {
		fresh, _, _ := p.TaskFunc("")
		r, err := fresh(ctx, c.id, func(uint64) {})
		if err != nil || r != c.want {
			t.Errorf("task %d: alone %+v (%v), after another %+v", c.id, r, err, c.want)
		}
	}
}
