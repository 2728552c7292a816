package sudoku

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/internal/impltest"
)

func describeVariant(v Variant) impltest.Impl {
	return impltest.Impl{Name: v.Name, Supported: v.Supported(), Why: "this machine or build cannot run it (" + v.Doc + ")"}
}

// forEachVariant runs body once per registered solver variant, through the
// project's one test driver.
func forEachVariant(t *testing.T, body func(t *testing.T, v Variant)) {
	impltest.Run(t, "sudoku", Variants(), describeVariant, body)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if s := impltest.Summary(); s != "" {
		os.Stderr.WriteString(s + "\n")
	}
	os.Exit(code)
}

func newSolver(t testing.TB, v Variant) *Solver {
	t.Helper()
	sv, err := NewSolver(v.Name)
	if err != nil {
		t.Fatal(err)
	}
	if sv.Variant() != v.Name {
		t.Fatalf("NewSolver(%q) runs %q", v.Name, sv.Variant())
	}
	return sv
}

// oracle is the independent reference: a plain backtracking solver with a
// bitmask of used digits per row, column and box, filling the empty cell
// with the fewest candidates next. It shares no code with the variants.
// It counts solutions up to limit and keeps the first; it gives up
// (ok=false) after maxNodes nodes.
type oracle struct {
	g              [81]uint8
	row, col, box  [9]uint16
	limit, count   uint64
	nodes, maxNode uint64
	first          [81]uint8
}

func oracleSolve(p Grid, limit, maxNodes uint64) (count uint64, first Grid, ok bool) {
	o := &oracle{limit: limit, maxNode: maxNodes}
	for i, v := range p {
		if v == 0 {
			continue
		}
		m := uint16(1) << v
		r, c, b := i/9, i%9, i/27*3+i%9/3
		if (o.row[r]|o.col[c]|o.box[b])&m != 0 {
			return 0, first, true
		}
		o.g[i] = v
		o.row[r] |= m
		o.col[c] |= m
		o.box[b] |= m
	}
	o.rec()
	return o.count, o.first, o.nodes <= o.maxNode
}

func (o *oracle) rec() {
	o.nodes++
	if o.nodes > o.maxNode || o.count >= o.limit {
		return
	}
	best, bestN := -1, 10
	var bestFree uint16
	for i := 0; i < 81; i++ {
		if o.g[i] != 0 {
			continue
		}
		free := ^(o.row[i/9] | o.col[i%9] | o.box[i/27*3+i%9/3]) & 0x3fe
		n := 0
		for v := 1; v <= 9; v++ {
			if free>>v&1 != 0 {
				n++
			}
		}
		if n < bestN {
			best, bestN, bestFree = i, n, free
		}
	}
	if best < 0 {
		if o.count == 0 {
			o.first = o.g
		}
		o.count++
		return
	}
	r, c, b := best/9, best%9, best/27*3+best%9/3
	for v := uint8(1); v <= 9; v++ {
		m := uint16(1) << v
		if bestFree&m == 0 {
			continue
		}
		o.g[best] = v
		o.row[r] |= m
		o.col[c] |= m
		o.box[b] |= m
		o.rec()
		o.g[best] = 0
		o.row[r] &^= m
		o.col[c] &^= m
		o.box[b] &^= m
		if o.count >= o.limit || o.nodes > o.maxNode {
			return
		}
	}
}

func TestOracleKnownCounts(t *testing.T) {
	// The oracle itself against counts known without it: the 633 and
	// 2,995 solutions checked by count_test.go's reference counter, a
	// puzzle with none, and a unique one.
	for _, c := range []struct {
		puzzle string
		want   uint64
	}{
		{manySolutions, 2995},
		{".......8...6.8.1..7....3..4.47..5...5..34............53....4..7......9...1.9...6.", 633},
		{"12345678." + "........9", 0},
		{top1, 1},
	} {
		p := c.puzzle + strings.Repeat(".", 81-len(c.puzzle))
		var g Grid
		for i := range g {
			if p[i] != '.' {
				g[i] = p[i] - '0'
			}
		}
		n, sol, ok := oracleSolve(g, 1<<40, 1<<24)
		if !ok || n != c.want {
			t.Errorf("%s: oracle %d solutions (finished %v), want %d", c.puzzle, n, ok, c.want)
		}
		if n > 0 && !isSolutionOf(sol, g) {
			t.Errorf("%s: oracle's first solution %s is not one", c.puzzle, Grid(sol))
		}
	}
}

// testSeed is the seed of the random puzzles: NQCOUNT_TEST_SEED if set,
// else a new one each run, printed on failure.
func testSeed(t testing.TB) uint64 {
	if s := os.Getenv("NQCOUNT_TEST_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("NQCOUNT_TEST_SEED=%q: %v", s, err)
		}
		return v
	}
	return uint64(time.Now().UnixNano())
}

// randomPuzzles returns nBlank puzzles made from the sample's solution
// grids by blanking 40 to 62 random cells (most have several solutions,
// some many), and nRandom puzzles of 12 to 30 random non-clashing givens
// (most have no solution or a great many).
func randomPuzzles(t testing.TB, seed uint64, nBlank, nRandom int) []Grid {
	t.Helper()
	var sols []Grid
	for _, a := range loadSample(t) {
		if a.solution != "" {
			g, err := Parse(a.solution)
			if err != nil {
				t.Fatal(err)
			}
			sols = append(sols, g)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x5d0c0))
	var out []Grid
	for i := 0; i < nBlank; i++ {
		g := sols[rng.IntN(len(sols))]
		for _, c := range rng.Perm(81)[:40+rng.IntN(23)] {
			g[c] = 0
		}
		out = append(out, g)
	}
	for i := 0; i < nRandom; i++ {
		var g Grid
		for k := 12 + rng.IntN(19); k > 0; {
			c, v := rng.IntN(81), uint8(1+rng.IntN(9))
			if g[c] != 0 {
				continue
			}
			g[c] = v
			if g.Check() != nil {
				g[c] = 0
			}
			k--
		}
		out = append(out, g)
	}
	return out
}

// TestVariantsAgainstOracle solves random puzzles with every variant and
// limits 1, 2 and 2,000, and compares the counts with the oracle's and
// checks every solution returned.
func TestVariantsAgainstOracle(t *testing.T) {
	seed := testSeed(t)
	puzzles := randomPuzzles(t, seed, 150, 100)
	type want struct {
		n  uint64
		ok bool
	}
	limits := []uint64{1, 2, 2000}
	wants := make([][]want, len(puzzles))
	for i, p := range puzzles {
		for _, l := range limits {
			n, _, ok := oracleSolve(p, l, 100_000)
			wants[i] = append(wants[i], want{n, ok})
		}
	}
	forEachVariant(t, func(t *testing.T, v Variant) {
		sv := newSolver(t, v)
		checked := 0
		for i, p := range puzzles {
			for j, l := range limits {
				if !wants[i][j].ok {
					continue // too big for the oracle
				}
				checked++
				n, sol := sv.Solve(&p, l)
				if n != wants[i][j].n {
					t.Fatalf("seed %d, puzzle %s, limit %d: %d solutions, oracle %d (rerun with NQCOUNT_TEST_SEED=%d)",
						seed, p, l, n, wants[i][j].n, seed)
				}
				if n > 0 && !isSolutionOf(sol, p) {
					t.Fatalf("seed %d, puzzle %s: %s is not a solution", seed, p, sol)
				}
			}
		}
		if checked < len(puzzles) {
			t.Fatalf("only %d of %d cases within the oracle's budget", checked, len(puzzles)*len(limits))
		}
	})
}

// TestVariantsAgree compares every variant with every other on random
// puzzles, counts up to 5,000 solutions.
func TestVariantsAgree(t *testing.T) {
	seed := testSeed(t)
	puzzles := randomPuzzles(t, seed^0xa9ee, 200, 100)
	var ref []uint64
	var refName string
	forEachVariant(t, func(t *testing.T, v Variant) {
		sv := newSolver(t, v)
		var got []uint64
		for i := range puzzles {
			n, _ := sv.Solve(&puzzles[i], 5000)
			got = append(got, n)
		}
		if ref == nil {
			ref, refName = got, v.Name
			return
		}
		for i := range got {
			if got[i] != ref[i] {
				t.Fatalf("seed %d, puzzle %s: %s finds %d solutions, %s %d (rerun with NQCOUNT_TEST_SEED=%d)",
					seed, puzzles[i], v.Name, got[i], refName, ref[i], seed)
			}
		}
	})
}

// FuzzVariants: every variant gives the same count (up to 50) for any
// grid, and valid solutions.
func FuzzVariants(f *testing.F) {
	f.Add([]byte(top1))
	f.Add([]byte(manySolutions))
	f.Add([]byte(""))
	f.Add([]byte("123456789"))
	f.Fuzz(func(t *testing.T, b []byte) {
		var g Grid
		for i := 0; i < len(b) && i < 81; i++ {
			if c := b[i]; c >= '1' && c <= '9' {
				g[i] = c - '0'
			}
		}
		if g.Check() != nil {
			return
		}
		var first uint64
		for i, v := range Variants() {
			if !v.Supported() {
				continue
			}
			sv := newSolver(t, v)
			n, sol := sv.Solve(&g, 50)
			if n > 0 && !isSolutionOf(sol, g) {
				t.Fatalf("%s: %s is not a solution of %s", v.Name, sol, g)
			}
			if i == 0 {
				first = n
			} else if n != first {
				t.Fatalf("%s: %d solutions of %s, %s %d", v.Name, n, g, Variants()[0].Name, first)
			}
		}
	})
}

// TestVariantsSharedAnswers checks every variant against the shared answer
// files: unique solutions with a uniqueness check, exact counts where the
// file has several.
func TestVariantsSharedAnswers(t *testing.T) {
	sets := []struct {
		file  string
		step  int // test every step-th puzzle unless SUDOKU_FULL=1
		exact bool
	}{
		{"17-clue.answers.txt", 10, false},
		{"magictour-top1465.answers.txt", 1, false},
		{"forum-hardest-1106.answers.txt", 1, false},
		{"serg-multi.answers.txt", 20, true},
		{"edge-cases.answers.txt", 1, true},
	}
	for _, set := range sets {
		t.Run(strings.TrimSuffix(set.file, ".answers.txt"), func(t *testing.T) {
			as := sample(loadAnswers(t, set.file), set.step)
			forEachVariant(t, func(t *testing.T, v Variant) {
				checkAnswers(t, newSolver(t, v), as, set.exact)
			})
		})
	}
}

// TestVariantsSample needs no shared data: testdata holds a sample of it.
func TestVariantsSample(t *testing.T) {
	as := loadSample(t)
	forEachVariant(t, func(t *testing.T, v Variant) {
		sv := newSolver(t, v)
		checkAnswers(t, sv, as, true)
		checkAnswers(t, sv, as, false)
	})
}

// TestVariantsCount counts multi-solution puzzles with each variant, alone
// and split into tasks on two workers, against the oracle.
func TestVariantsCount(t *testing.T) {
	seed := testSeed(t)
	var puzzles []Grid
	var wants []uint64
	for _, p := range randomPuzzles(t, seed^0xc0, 40, 0) {
		if n, _, ok := oracleSolve(p, 1<<40, 100_000); ok && n > 1 {
			puzzles, wants = append(puzzles, p), append(wants, n)
		}
	}
	if len(puzzles) < 10 {
		t.Fatalf("seed %d: only %d multi-solution puzzles", seed, len(puzzles))
	}
	forEachVariant(t, func(t *testing.T, v Variant) {
		for i, p := range puzzles {
			for _, opt := range []CountOptions{{Workers: 1}, {Workers: 2, Tasks: 50}} {
				opt.Solver = v.Name
				res, err := Count(context.Background(), p, opt)
				if err != nil {
					t.Fatal(err)
				}
				if res.Count.Hi != 0 || res.Count.Lo != wants[i] || res.Partial || res.LimitReached {
					t.Fatalf("seed %d, %s, %+v: Count %s, oracle %d", seed, p, opt, res.Count, wants[i])
				}
				if res.Solver != v.Name {
					t.Fatalf("Count ran %q, asked %q", res.Solver, v.Name)
				}
				if res.Solution == nil || !isSolutionOf(*res.Solution, p) {
					t.Fatalf("%s: no valid solution returned", p)
				}
			}
		}
	})
}

// TestCountCancelEmptyGrid: counting the empty grid (6.7e21 solutions)
// answers cancellation within a second with every variant, and returns a
// partial count with the progress reported on the way.
func TestCountCancelEmptyGrid(t *testing.T) {
	forEachVariant(t, func(t *testing.T, v Variant) {
		for _, tasks := range []int{0, 20} {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			var reports int
			var last CountProgress
			start := time.Now()
			res, err := Count(ctx, Grid{}, CountOptions{Workers: 2, Tasks: tasks, Solver: v.Name,
				ProgressEvery: 100 * time.Millisecond,
				Progress:      func(p CountProgress) { reports++; last = p }})
			took := time.Since(start)
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("tasks %d: err %v, want the context's", tasks, err)
			}
			if took > 2*time.Second {
				t.Errorf("tasks %d: took %v to stop after a 1 s deadline", tasks, took)
			}
			if !res.Partial || res.Count.Lo == 0 || res.Nodes.Lo == 0 || res.LimitReached {
				t.Errorf("tasks %d: result %+v, want a partial count of some solutions", tasks, res)
			}
			if reports == 0 || last.Tasks == 0 || last.Solutions == 0 || last.Solutions > res.Count.Lo {
				t.Errorf("tasks %d: %d progress reports, the last %+v; final partial count %s", tasks, reports, last, res.Count)
			}
		}
	})
}

// TestCountCancelled: an already cancelled context stops Count at once.
func TestCountCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Count(ctx, Grid{}, CountOptions{})
	if err != context.Canceled || !res.Partial {
		t.Fatalf("cancelled count of the empty grid: %+v, %v; want a partial result and context.Canceled", res, err)
	}
}

// TestWorkersCapped: absurd worker counts neither allocate per worker nor
// hang; they are capped at GOMAXPROCS.
func TestWorkersCapped(t *testing.T) {
	for _, w := range []int{math.MaxInt, 10000000, -5, 0} {
		if got := Workers(w); got < 1 || got > max(1, Workers(0)) {
			t.Errorf("Workers(%d) = %d", w, got)
		}
	}
	g, err := Parse(manySolutions)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		res, err := Count(context.Background(), g, CountOptions{Workers: math.MaxInt, Tasks: math.MaxInt})
		if err != nil || res.Count.Lo != 2995 || res.Workers != Workers(0) || res.Tasks > MaxTasks {
			t.Errorf("Count with MaxInt workers: %+v, %v", res, err)
		}
	}()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("20 s with MaxInt workers asked for")
	}
}

func TestLookupVariant(t *testing.T) {
	for _, name := range []string{"", "auto"} {
		v, err := LookupVariant(name)
		if err != nil || v.Name != BestVariant().Name {
			t.Errorf("LookupVariant(%q) = %q, %v; want the best, %q", name, v.Name, err, BestVariant().Name)
		}
	}
	if _, err := LookupVariant("nosuch"); err == nil || !strings.Contains(err.Error(), "triad") {
		t.Errorf("LookupVariant(nosuch): %v, want an error naming the choices", err)
	}
	if _, err := NewSolver("nosuch"); err == nil {
		t.Error("NewSolver(nosuch): no error")
	}
	var sv Solver
	if sv.Variant() != BestVariant().Name {
		t.Errorf("the zero Solver runs %q, want %q", sv.Variant(), BestVariant().Name)
	}
	names := map[string]bool{}
	for _, v := range Variants() {
		if names[v.Name] || v.Name == "auto" || v.Doc == "" || v.Supported == nil {
			t.Errorf("variant %+v: duplicate or incomplete", v)
		}
		names[v.Name] = true
	}
}

// TestStackSupport checks the bit-parallel stack rule against the table
// of permutation supports, stack by stack, on random band/column matrices.
func TestStackSupport(t *testing.T) {
	rng := rand.New(rand.NewPCG(testSeed(t), 1))
	for i := 0; i < 20000; i++ {
		m := uint32(rng.Uint64()) & bandMask
		got, in := stackMajor(stackSupport(m)), stackMajor(m)
		var want uint32
		for st := 0; st < 3; st++ {
			want |= uint32(permSupTab[in>>(9*st)&511]) << (9 * st)
		}
		if got != want {
			t.Fatalf("stackSupport(%#o) = %#o (stack-major), want %#o", m, got, want)
		}
		if stackMajor(stackMajor(m)) != m {
			t.Fatalf("stackMajor is not its own inverse on %#o", m)
		}
	}
}

// TestClashingGivens: givens that clash (in a row, a column, a box) or
// are out of range give no solution with every variant, though Check
// would have refused them first.
func TestClashingGivens(t *testing.T) {
	base, err := Parse(top1)
	if err != nil {
		t.Fatal(err)
	}
	var cases []Grid
	for _, c := range [][2]int{{0, 1}, {0, 9 * 4}, {0, 10}, {30, 34}, {80, 8}} {
		g := base
		g[c[0]], g[c[1]] = 5, 5
		cases = append(cases, g)
	}
	for _, v := range []uint8{10, 15, 16, 138, 255} {
		g := base
		g[40] = v
		cases = append(cases, g)
	}
	forEachVariant(t, func(t *testing.T, v Variant) {
		sv := newSolver(t, v)
		for _, g := range cases {
			if n, _ := sv.Solve(&g, 2); n != 0 {
				t.Errorf("%v: %d solutions, want 0", g, n)
			}
		}
	})
}

// TestVariantsSolveEach: solving many puzzles at once (where the lane
// variants settle sixteen together) gives every variant the counts and
// solutions of the oracle, in any grouping, with the limits 1, 2, 2,000,
// and the shared sets' answers.
func TestVariantsSolveEach(t *testing.T) {
	seed := testSeed(t)
	puzzles := randomPuzzles(t, seed^0x5e, 60, 40)
	limits := []uint64{1, 2, 500}
	wants := make([][]uint64, len(limits))
	for j, l := range limits {
		for _, p := range puzzles {
			n, _, ok := oracleSolve(p, l, 100_000)
			if !ok {
				n = math.MaxUint64 // too big for the oracle: not checked
			}
			wants[j] = append(wants[j], n)
		}
	}
	sets := map[string][]answer{}
	for name, step := range map[string]int{"magictour-top1465.answers.txt": 3, "forum-hardest-1106.answers.txt": 3, "17-clue.answers.txt": 20} {
		sets[name] = sample(loadAnswers(t, name), step)
	}
	forEachVariant(t, func(t *testing.T, v Variant) {
		sv := newSolver(t, v)
		for j, l := range limits {
			res := make([]Result, len(puzzles))
			for lo := 0; lo < len(puzzles); lo += 37 {
				hi := min(lo+37, len(puzzles))
				if err := sv.SolveEach(context.Background(), puzzles[lo:hi], l, res[lo:hi]); err != nil {
					t.Fatal(err)
				}
			}
			for i, r := range res {
				if w := wants[j][i]; w != math.MaxUint64 && r.Count != w {
					t.Fatalf("seed %d, puzzle %s, limit %d: %d solutions, oracle %d (rerun with NQCOUNT_TEST_SEED=%d)", seed, puzzles[i], l, r.Count, w, seed)
				}
				if r.Count > 0 && !isSolutionOf(r.Solution, puzzles[i]) {
					t.Fatalf("puzzle %s: %s is not a solution", puzzles[i], r.Solution)
				}
			}
		}
		for name, as := range sets {
			gs := make([]Grid, len(as))
			for i := range as {
				gs[i] = as[i].puzzle
			}
			res := make([]Result, len(gs))
			if err := sv.SolveEach(context.Background(), gs, 2, res); err != nil {
				t.Fatal(err)
			}
			for i, a := range as {
				if res[i].Count != min(a.count, 2) || (a.solution != "" && res[i].Solution.String() != a.solution) {
					t.Fatalf("%s puzzle %d: %d solutions %s, want %d %s", name, i+1, res[i].Count, res[i].Solution, a.count, a.solution)
				}
			}
		}
		// A cancelled context stops it.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if err := sv.SolveEach(ctx, puzzles, 2, make([]Result, len(puzzles))); err != context.Canceled {
			t.Errorf("SolveEach after cancel: %v", err)
		}
	})
}
