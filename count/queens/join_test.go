package queens

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/count/queens/kernel"
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
			r := mustCount(t, n, opts{Method: Join, Kernel: k.Name, Unique: true})
			want, _ := Known(n)
			wu, _ := KnownUnique(n)
			if r.Total != count.U128(want) || *r.Unique != count.U128(wu) || r.Kernel != k.Name {
				t.Errorf("n=%d: %s total, %s unique with %s, want %d and %d", n, r.Total, r.Unique, r.Kernel, want, wu)
			}
		}
	})
}

// TestJoinLong counts n = 16 and 17 by the join (seconds each; minutes
// under -race), and n = 16 to 19 on the bounded path in 32 MiB, where
// the longest row sets' lists outgrow the arena and are joined in passes
// with deep keys, when NQCOUNT_LONG_TESTS is set: CI's default run stays
// short, and n = 15 is counted by TestCountMatchesOEIS.
func TestJoinLong(t *testing.T) {
	if os.Getenv("NQCOUNT_LONG_TESTS") == "" {
		t.Skip("n = 16 and 17 by the join: set NQCOUNT_LONG_TESTS=1 to run them")
	}
	for _, n := range []int{16, 17} {
		r := mustCount(t, n, opts{Method: Join, Unique: true})
		want, _ := Known(n)
		wu, _ := KnownUnique(n)
		if r.Total != count.U128(want) || *r.Unique != count.U128(wu) {
			t.Errorf("n=%d: %s total, %s unique, want %d and %d", n, r.Total, r.Unique, want, wu)
		}
	}
	for n := 16; n <= 19; n++ {
		r := mustCount(t, n, opts{Method: Join, Unique: true, Path: "bounded", Memory: 32 << 20})
		want, _ := Known(n)
		wu, _ := KnownUnique(n)
		if r.Total != count.U128(want) || *r.Unique != count.U128(wu) || r.Path != "bounded" {
			t.Errorf("n=%d bounded in 32 MiB: %s total, %s unique on path %q, want %d and %d", n, r.Total, r.Unique, r.Path, want, wu)
		}
	}
}

// TestJoinBounded counts n = 1..13 by the join on its bounded path with
// every join kernel, against A000170 and A002562, whole and split into
// tasks of a few south row sets, and in arenas too small for one pass.
func TestJoinBounded(t *testing.T) {
	impltest.Run(t, "join", join.Kernels(), describeJoin, func(t *testing.T, k join.Kernel) {
		for n := 1; n <= 13; n++ {
			for _, depth := range []int{0, 4} {
				mem := uint64(0)
				if n%3 == 0 {
					mem = 48 << 20 // arenas of a few MiB
				}
				r := mustCount(t, n, opts{Method: Join, Kernel: k.Name, Unique: true, Path: "bounded", Depth: depth, Memory: mem})
				want, _ := Known(n)
				wu, _ := KnownUnique(n)
				if r.Total != count.U128(want) || *r.Unique != count.U128(wu) || r.Path != "bounded" {
					t.Errorf("n=%d depth %d: %s total, %s unique on path %q, want %d and %d", n, depth, r.Total, r.Unique, r.Path, want, wu)
				}
			}
		}
	})
}

// TestJoinMemoryLimit: the memory limit chooses the path, not the plan:
// below what the tables need the count takes the bounded path, with the
// same tasks and total; a limit nothing fits in is refused with
// ErrMemory before any work, naming how many workers would fit.
func TestJoinMemoryLimit(t *testing.T) {
	p, err := NewPlan(Spec{N: 20, Method: Join})
	if err != nil {
		t.Fatal(err)
	}
	m := join.MemoryOf(p.Layout().Geometry)
	tables, err := p.Fit(Execution{Workers: 2, Memory: 1 << 40})
	if err != nil || tables.Path != "tables" {
		t.Fatalf("n = 20 in 1 TiB: %+v, %v; want the table path", tables, err)
	}
	small := m.Tables/2 + join.Runtime
	b, err := p.Fit(Execution{Workers: 2, Memory: small})
	if err != nil || b.Path != "bounded" || b.Planned > small || b.Arena < m.MinArena {
		t.Fatalf("n = 20 in %d MiB: %+v, %v; want the bounded path within the limit", small>>20, b, err)
	}
	_, err = p.Fit(Execution{Workers: 64, Memory: small})
	if !errors.Is(err, ErrMemory) || !strings.Contains(err.Error(), "fit") {
		t.Fatalf("64 workers in %d MiB: %v, want ErrMemory naming the workers that fit", small>>20, err)
	}
	if _, err := p.Fit(Execution{Workers: 1, Memory: 1}); !errors.Is(err, ErrMemory) {
		t.Fatalf("1 byte: %v, want ErrMemory", err)
	}
	if _, err := countN(context.Background(), 12, opts{Method: Join, Memory: 1}); !errors.Is(err, ErrMemory) {
		t.Fatalf("a 1-byte limit: %v, want ErrMemory", err)
	}
	if _, err := p.Fit(Execution{Path: "fast"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("path fast: %v, want ErrInvalid", err)
	}
	r := mustCount(t, 13, opts{Method: Join, Memory: 40 << 20, Workers: 1, Path: "bounded"})
	if want, _ := Known(13); r.Total != count.U128(want) {
		t.Fatalf("n = 13 bounded: %s, want %d", r.Total, want)
	}
}

// builtKernel reports whether this build has a kernel of either family
// by that name (purego builds lack the assembly ones): tests of messages
// about them skip the others.
func builtKernel(name string) bool {
	return slices.ContainsFunc(kernel.All(), func(k kernel.Kernel) bool { return k.Name == name }) ||
		slices.ContainsFunc(join.Kernels(), func(k join.Kernel) bool { return k.Name == name })
}

// TestDefaultMethod: Count without a method uses the join from joinFrom.
func TestDefaultMethod(t *testing.T) {
	for _, c := range []struct {
		n    int
		want Method
	}{{1, Constellations}, {joinFrom - 1, Constellations}, {joinFrom, Join}, {13, Constellations}, {14, Join}, {20, Join}, {28, Join}, {MaxN, Join}} {
		if got := DefaultMethod(c.n); got != c.want {
			t.Errorf("DefaultMethod(%d) = %s, want %s", c.n, got, c.want)
		}
		p, err := NewPlan(Spec{N: c.n, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if p.Method != c.want {
			t.Errorf("NewPlan(%d, \"\") planned %s, want %s", c.n, p.Method, c.want)
		}
	}
	method := func(m Method, n int, kernel string) Method {
		p, err := NewPlan(Spec{N: n, Method: m, Depth: 1, Kernel: kernel})
		if err != nil {
			t.Fatal(err)
		}
		return p.Method
	}
	if m := method(Auto, 20, "bmi2"); m != Constellations && builtKernel("bmi2") {
		t.Errorf("auto with kernel bmi2 at n = 20: %s, want constellations", m)
	}
	if m := method(Auto, 20, "generic"); m != Join {
		t.Errorf("auto with kernel generic at n = 20: %s, want join (it has a generic kernel too)", m)
	}
	if m := method(Auto, 14, "nope"); m != Join {
		t.Errorf("auto with an unknown kernel at n = 14: %s, want join (whose lookup names its kernels)", m)
	}
	if m, err := ParseMethod("auto"); err != nil || m != Auto {
		t.Errorf("ParseMethod(auto) = %q, %v", m, err)
	}
	if _, err := ParseMethod("joins"); err == nil {
		t.Error("ParseMethod accepted joins")
	}
}

// TestKernelMessages: a kernel of the other family, or none, is named
// with the family the count uses (once "unknown kernel" for a join
// kernel at n = 13, and only the backtracking kernels listed at n = 14).
func TestKernelMessages(t *testing.T) {
	ks := join.Kernels()
	lastJoin := ks[len(ks)-1].Name // the lookup's list of names ends with it
	for _, c := range []struct {
		n      int
		kernel string
		want   []string
	}{
		{13, "avx2", []string{"avx2 is a kernel of the join", "constellations", "--method join"}},
		{14, "bmi2", nil}, // auto takes constellations for it
		{14, "nope", []string{"unknown join kernel", lastJoin}},
		{12, "nope", []string{"unknown join kernel"}},
	} {
		if c.kernel != "nope" && !builtKernel(c.kernel) {
			continue
		}
		_, err := countN(context.Background(), c.n, opts{Kernel: c.kernel, Workers: 1})
		if c.want == nil {
			if err != nil && !strings.Contains(err.Error(), "not supported") {
				t.Errorf("n = %d --kernel %s: %v", c.n, c.kernel, err)
			}
			continue
		}
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("n = %d --kernel %s: %v, want ErrInvalid", c.n, c.kernel, err)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("n = %d --kernel %s: %q does not say %q", c.n, c.kernel, err, w)
			}
		}
	}
	if !builtKernel("bmi2") {
		return
	}
	if _, err := countN(context.Background(), 14, opts{Method: Join, Kernel: "bmi2", Workers: 1}); err == nil || !strings.Contains(err.Error(), "backtracking") {
		t.Errorf("n = 14 --method join --kernel bmi2: %v", err)
	}
}

// TestTaskFunc counts every task of a plan through one TaskFunc, from two
// goroutines, against the OEIS; a task's result, nodes included, is the
// same from a fresh TaskFunc (which builds the join's tables in that
// task) as from one that built them for another task: a queue compares
// the records of two workers.
func TestTaskFunc(t *testing.T) {
	for _, m := range []Method{Constellations, Join} {
		p, err := NewPlan(Spec{N: 12, Method: m})
		if err != nil {
			t.Fatal(err)
		}
		do, name, _, err := p.TaskFunc(Execution{})
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
		if _, _, _, err := p.TaskFunc(Execution{Kernel: "no-such-kernel"}); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: an unknown kernel: %v, want ErrInvalid", m, err)
		}
	}
	// From n = 19 building the tables is work (join.Counter.Count), which
	// a task counted through TaskFunc leaves out.
	p, err := NewPlan(Spec{N: 19, Method: Join, Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	shared, _, _, _ := p.TaskFunc(Execution{})
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
		for _, path := range []string{"tables", "bounded"} {
			fresh, _, _, _ := p.TaskFunc(Execution{Path: path})
			r, err := fresh(ctx, c.id, func(uint64) {})
			if err != nil || r != c.want {
				t.Errorf("task %d on %s: alone %+v (%v), after another %+v", c.id, path, r, err, c.want)
			}
		}
	}
}

// TestJoinKeyBits: the bounded path's budget leaves its joins the index
// bits the lists call for when their arrays take at most a quarter of
// what the row lists leave a worker, fewer in less memory (never fewer
// than keyFloor), and the arena, the row lists and those arrays stay
// within each worker's share; the table path's joins take what the
// lists call for.
func TestJoinKeyBits(t *testing.T) {
	p, err := NewPlan(Spec{N: 26, Method: Join})
	if err != nil {
		t.Fatal(err)
	}
	m := join.MemoryOf(p.Layout().Geometry)
	if m.KeyBits <= keyFloor {
		t.Fatalf("n = 26: the lists call for %d index bits; want more than %d, for the budget to cut", m.KeyBits, keyFloor)
	}
	var last int
	for _, mem := range []uint64{64 << 30, 4 << 30, 1 << 30, 512 << 20} {
		b, err := p.Fit(Execution{Workers: 2, Memory: mem, Path: "bounded"})
		if err != nil {
			t.Fatal(err)
		}
		left := b.PerWorker - m.RowLists
		switch {
		case b.KeyBits > m.KeyBits || b.KeyBits < keyFloor:
			t.Errorf("%d MiB: %d index bits, want %d-%d", mem>>20, b.KeyBits, keyFloor, m.KeyBits)
		case b.KeyBits < m.KeyBits && join.KeyMemory(b.KeyBits+1) <= left/4:
			t.Errorf("%d MiB: %d index bits where %d fit", mem>>20, b.KeyBits, b.KeyBits+1)
		case b.KeyBits > keyFloor && join.KeyMemory(b.KeyBits) > left/4:
			t.Errorf("%d MiB: %d index bits take %d MiB, more than a quarter of %d MiB", mem>>20, b.KeyBits, join.KeyMemory(b.KeyBits)>>20, left>>20)
		case b.Arena+m.RowLists+join.KeyMemory(b.KeyBits)+uint64(b.Batch-1)*m.BatchTask > b.PerWorker:
			t.Errorf("%d MiB: arena %d, lists %d, keys %d MiB and a batch of %d exceed the share of %d MiB", mem>>20, b.Arena>>20, m.RowLists>>20, join.KeyMemory(b.KeyBits)>>20, b.Batch, b.PerWorker>>20)
		case b.Batch != 1:
			t.Errorf("%d MiB: batches of %d tasks at n = 26", mem>>20, b.Batch)
		}
		if mem == 64<<30 && b.KeyBits != m.KeyBits {
			t.Errorf("64 GiB: %d index bits, want the lists' %d", b.KeyBits, m.KeyBits)
		}
		last = b.KeyBits
	}
	if last >= m.KeyBits {
		t.Errorf("512 MiB: %d index bits, want fewer than the lists' %d", last, m.KeyBits)
	}
	q, err := NewPlan(Spec{N: 20, Method: Join})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := q.Fit(Execution{Workers: 2, Memory: 1 << 40}); err != nil || b.Path != "tables" || b.KeyBits != join.MemoryOf(q.Layout().Geometry).KeyBits {
		t.Errorf("n = 20 on the table path: %+v, %v; want the lists' index bits", b, err)
	}
}

// TestJoinBatches: the bounded path counts tasks in batches only where
// the arena has room for their row lists, beyond its longest lists or in
// an eighth of an arena below them, and a reference run only where the
// memory leaves room for one; a batched count reports each task with the
// count and nodes it has alone.
func TestJoinBatches(t *testing.T) {
	p, err := NewPlan(Spec{N: 20, Method: Join})
	if err != nil {
		t.Fatal(err)
	}
	m := join.MemoryOf(p.Layout().Geometry)
	for _, c := range []struct {
		mem       uint64
		batch     bool
		meterRuns bool
	}{{27 << 20, false, false}, {32 << 20, true, false}, {40 << 20, true, false}, {96 << 20, true, false}, {256 << 20, true, true}} {
		b, err := p.Fit(Execution{Workers: 1, Memory: c.mem, Path: "bounded"})
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Batch > 1; got != c.batch || b.MeterRuns != c.meterRuns || b.Batch < 1 || b.Batch > maxBatch {
			t.Errorf("%d MiB: batches of %d, reference runs %v; want batches %v, runs %v", c.mem>>20, b.Batch, b.MeterRuns, c.batch, c.meterRuns)
		}
		if held := uint64(b.Batch-1) * m.BatchTask; b.Arena < m.Lists && held > (b.Arena+held)/8 {
			t.Errorf("%d MiB: batches of %d hold %d kB, more than an eighth of an arena of %d kB under the longest lists", c.mem>>20, b.Batch, held>>10, (b.Arena+held)>>10)
		}
		if b.Planned > c.mem || b.Arena+m.RowLists+join.KeyMemory(b.KeyBits)+uint64(b.Batch-1)*m.BatchTask > b.PerWorker {
			t.Errorf("%d MiB: planned %d MiB, arena %d, batch of %d", c.mem>>20, b.Planned>>20, b.Arena>>20, b.Batch)
		}
	}
	// n = 16 in batches against its tasks counted one by one.
	q, err := NewPlan(Spec{N: 16, Method: Join})
	if err != nil {
		t.Fatal(err)
	}
	e := Execution{Workers: 2, Memory: 256 << 20, Path: "bounded"}
	if b, err := q.Fit(e); err != nil || b.Batch < 2 {
		t.Fatalf("n = 16 in 256 MiB: %+v, %v; want batches", b, err)
	}
	one, _, _, err := q.TaskFunc(e)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	seen := map[int]bool{}
	r, err := Count(context.Background(), q, e, count.All(q.Len()), Options{OnDone: func(id int, got count.Result) error {
		want, err := one(context.Background(), id, func(uint64) {})
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if seen[id] || got != want {
			return fmt.Errorf("task %d: %+v in a batch, %+v alone (seen %v)", id, got, want, seen[id])
		}
		seen[id] = true
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Known(16)
	if r.Total != count.U128(want) || len(seen) != q.Len() || r.Metered == nil || r.Metered.Tasks != q.Len() {
		t.Fatalf("n = 16: %s over %d tasks reported, metered %+v; want %d over %d", r.Total, len(seen), r.Metered, want, q.Len())
	}
}
