package queens

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"testing"

	"github.com/nqcount/nqcount/count/queens/kernel"
)

// symmetries are the 8 maps of the square onto itself, as functions of
// (row, col) on an n×n board, in the order border.image numbers them.
var symmetries = [8]func(n, r, c int) (int, int){
	func(n, r, c int) (int, int) { return r, c },
	func(n, r, c int) (int, int) { return c, n - 1 - r },
	func(n, r, c int) (int, int) { return n - 1 - r, n - 1 - c },
	func(n, r, c int) (int, int) { return n - 1 - c, r },
	func(n, r, c int) (int, int) { return r, n - 1 - c },
	func(n, r, c int) (int, int) { return n - 1 - r, c },
	func(n, r, c int) (int, int) { return c, r },
	func(n, r, c int) (int, int) { return n - 1 - c, n - 1 - r },
}

// imageByQueens maps x's queens one by one: the plain definition the
// arithmetic of border.image must agree with.
func imageByQueens(x border, n, g int) border {
	var y border
	qs, k := x.queens(n)
	for _, p := range qs[:k] {
		r, c := symmetries[g](n, p[0], p[1])
		if r == 0 {
			y.a = c
		}
		if r == n-1 {
			y.b = c
		}
		if c == 0 {
			y.l = r
		}
		if c == n-1 {
			y.q = r
		}
	}
	return y
}

func TestBorderImage(t *testing.T) {
	for n := 1; n <= 13; n++ {
		checked := 0
		for a := range n {
			for b := range n {
				for l := range n {
					for q := range n {
						x := border{a, b, l, q}
						if !x.valid(n) {
							continue
						}
						for g := range 8 {
							if got, want := x.image(n, g), imageByQueens(x, n, g); got != want {
								t.Fatalf("n=%d %+v symmetry %d: image %+v, want %+v", n, x, g, got, want)
							}
						}
						checked++
					}
				}
			}
		}
		if n >= 5 && checked == 0 {
			t.Fatalf("n=%d: no valid border placement checked", n)
		}
	}
}

// sizeOf is what a plan's size says, checked against the list it builds.
func TestPlanSizeMatchesBuild(t *testing.T) {
	for _, m := range backtracking {
		for n := 1; n <= 12; n++ {
			for depth := 0; depth <= 3; depth++ {
				if m == Halving && depth == 0 {
					continue
				}
				p := cut{n: n, method: m}
				roots := p.roots()
				k := p.size(roots, depth, math.MaxInt/2)
				if got := len(p.build(roots, depth, k)); got != k {
					t.Fatalf("%s n=%d depth %d: size %d, built %d", m, n, depth, k, got)
				}
				if k > 2 {
					if l := p.size(roots, depth, k/2); l <= k/2 {
						t.Errorf("%s n=%d depth %d: size with limit %d gave %d, want above the limit", m, n, depth, k/2, l)
					}
				}
			}
		}
	}
}

// allocated runs f and returns the bytes it allocated.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// A split beyond the task cap is refused before the list is built: the
// plan of `nqueens count 32 --depth 8` used to grow to 23.7 GiB first.
func TestDepthCapEnforcedWhilePlanning(t *testing.T) {
	for _, c := range []struct {
		n     int
		m     Method
		depth int
	}{
		{32, Constellations, 8},
		{32, Halving, 8},
		{22, Constellations, 4}, // 243 M tasks
		{16, Halving, 8},        // 7.7 M tasks

	} {
		var err error
		bytes := allocated(func() { _, err = NewPlan(Spec{N: c.n, Method: c.m, Depth: c.depth, Workers: 1}) })
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("n=%d %s depth %d: err = %v, want ErrInvalid", c.n, c.m, c.depth, err)
		}
		if bytes > 16<<20 {
			t.Errorf("n=%d %s depth %d: planning allocated %d MiB before refusing", c.n, c.m, c.depth, bytes>>20)
		}
	}
}

// The automatic depth stays under the cap however many workers are asked
// for (n = 32 halving for 2^20 workers made 6.3 M tasks).
func TestAutoDepthCapped(t *testing.T) {
	for _, c := range []struct {
		n       int
		m       Method
		workers int
	}{
		{32, Halving, 1 << 20}, // depth 5: 6.3 M tasks
		{20, Constellations, math.MaxInt},
	} {
		p, err := NewPlan(Spec{N: c.n, Method: c.m, Depth: 0, Workers: c.workers})
		if err != nil {
			t.Fatalf("n=%d %s %d workers: %v", c.n, c.m, c.workers, err)
		}
		if len(p.Tasks()) > maxTasks || len(p.Tasks()) == 0 {
			t.Errorf("n=%d %s %d workers: %d tasks (depth %d), cap %d", c.n, c.m, c.workers, len(p.Tasks()), p.Depth, maxTasks)
		}
	}
}

// The automatic depth is the shallowest giving every worker about
// tasksPerWorker tasks: more only costs planning and nodes.
func TestAutoDepthTasksPerWorker(t *testing.T) {
	for _, c := range []struct {
		n, workers, depth int
	}{
		{19, 256, 0}, // 64 a worker asked for depth 1: 86,429 tasks
		{19, 64, 0},
		{17, 256, 0},
		{19, 1024, 1},
		{13, 256, 1},
	} {
		p, err := NewPlan(Spec{N: c.n, Method: Constellations, Depth: 0, Workers: c.workers})
		if err != nil {
			t.Fatal(err)
		}
		if p.Depth != c.depth || len(p.Tasks()) < tasksPerWorker*c.workers {
			t.Errorf("n=%d, %d workers: depth %d with %d tasks, want depth %d and at least %d", c.n, c.workers, p.Depth, len(p.Tasks()), c.depth, tasksPerWorker*c.workers)
		}
		if p.Depth > 0 {
			cu := cut{n: p.N, method: p.Method}
			if k := cu.size(cu.roots(), p.Depth-1, maxTasks); k >= tasksPerWorker*c.workers {
				t.Errorf("n=%d, %d workers: depth %d has %d tasks already", c.n, c.workers, p.Depth-1, k)
			}
		}
	}
}

// Corner classes (three border queens) are split one row deeper, so that
// no task of a border-class plan is much larger than the mean: they used
// to be up to 11 times the mean at n = 19. Measured in nodes on
// n = 13..15.
func TestCornerClassesSplit(t *testing.T) {
	k := kernel.Best()
	for n := 13; n <= 15; n++ {
		p, err := NewPlan(Spec{N: n, Method: Constellations, Depth: 0, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if p.Depth != 0 {
			t.Fatalf("n=%d: depth %d", n, p.Depth)
		}
		var total, largest, largestCorner float64
		corners := 0
		for id := range p.Tasks() {
			var f kernel.Frame
			p.Frame(id, &f)
			_, nodes, err := k.Count(&f)
			if err != nil {
				t.Fatal(err)
			}
			x := float64(nodes)
			total += x
			largest = max(largest, x)
			if p.Tasks()[id].inCorner(n) {
				corners++
				largestCorner = max(largestCorner, x)
				if p.Tasks()[id].Placed != 3+cornerSplit {
					t.Fatalf("n=%d: corner task %d places %d queens, want %d", n, id, p.Tasks()[id].Placed, 3+cornerSplit)
				}
			}
		}
		mean := total / float64(len(p.Tasks()))
		if corners == 0 || largestCorner > 2.5*mean || largest > 3*mean {
			t.Errorf("n=%d: %d corner tasks, largest %.2f× the mean, largest corner task %.2f×", n, corners, largest/mean, largestCorner/mean)
		}
		t.Logf("n=%d: %d tasks, %d from corner classes; largest %.2f× the mean, largest corner task %.2f×", n, len(p.Tasks()), corners, largest/mean, largestCorner/mean)
	}
}

// The estimates are computed on every core; the result must not depend
// on the schedule.
func TestEstimatesParallelDeterministic(t *testing.T) {
	p, err := NewPlan(Spec{N: 16, Method: Constellations, Depth: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	q, _ := NewPlan(Spec{N: 16, Method: Constellations, Depth: 1, Workers: 1})
	a, b := p.Estimates(), q.Estimates()
	if !slices.Equal(a, b) {
		t.Fatal("two plans of the same parameters have different estimates")
	}
	levels := 4
	for levels > 1 && uint64(len(p.Tasks()))<<(3*levels) > estimateBudget {
		levels--
	}
	for id := range p.Tasks() {
		var f kernel.Frame
		p.Frame(id, &f)
		if want := frontier(f, levels) + 1; a[id] != want {
			t.Fatalf("task %d: estimate %d, computed alone %d", id, a[id], want)
		}
	}
}

func ExampleNewPlan() {
	p, err := NewPlan(Spec{N: 19, Method: Constellations, Depth: 0, Workers: 256})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Depth, len(p.Tasks()) >= 16*256)
	// Output: 0 true
}
