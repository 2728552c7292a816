package queens

import (
	"math/bits"

	"github.com/nqcount/nqcount/count/queens/kernel"
)

// MaxPlaced is the most queens a task places ahead of the search.
const MaxPlaced = 12

// Task is one independent piece of a count: a set of queens placed ahead of
// time, whose completions to a full solution a kernel counts. Weight is how
// many solutions each completion stands for (2, 4 or 8 under symmetry, 1
// otherwise), so the total is the weighted sum over the tasks.
//
// A task is a handful of bytes; the kernel's frame is built from it when the
// task runs, so even a long task list stays small in memory.
type Task struct {
	Rows, Cols [MaxPlaced]uint8
	Placed     uint8
	Weight     uint8
}

// Queens returns the pre-placed queens as (row, column) pairs.
func (t *Task) Queens() [][2]int {
	q := make([][2]int, t.Placed)
	for i := range q {
		q[i] = [2]int{int(t.Rows[i]), int(t.Cols[i])}
	}
	return q
}

func (t *Task) place(r, c int) {
	t.Rows[t.Placed] = uint8(r)
	t.Cols[t.Placed] = uint8(c)
	t.Placed++
}

// frame fills f with the search state of task t on an n×n board: its
// queens placed, the rows without a queen free.
func (t *Task) frame(n int, f *kernel.Frame) {
	f.Empty(n)
	for i := 0; i < int(t.Placed); i++ {
		f.Place(int(t.Rows[i]), int(t.Cols[i]))
	}
}

// expand splits t into the tasks that also fill its next `rows` free rows
// in every valid way. The children keep t's weight.
func (t Task) expand(n, rows int, out []Task) []Task {
	if rows == 0 {
		return append(out, t)
	}
	var f kernel.Frame
	t.frame(n, &f)
	if f.Rows == 0 {
		return append(out, t)
	}
	row := bits.TrailingZeros64(f.Rows)
	avail := f.Open(row)
	for c := 0; c < n; c++ {
		if avail>>uint(c)&1 == 1 {
			child := t
			child.place(row, c)
			out = child.expand(n, rows-1, out)
		}
	}
	return out
}

// countExpand returns how many tasks t.expand(n, rows, nil) lists without
// listing them, or a number above limit as soon as it exceeds limit.
func (t Task) countExpand(n, rows, limit int) int {
	if rows == 0 {
		return 1
	}
	var f kernel.Frame
	t.frame(n, &f)
	return countRows(f, rows, limit)
}

func countRows(f kernel.Frame, rows, limit int) int {
	if f.Rows == 0 {
		return 1
	}
	row := bits.TrailingZeros64(f.Rows)
	avail := f.Open(row)
	if rows == 1 {
		return bits.OnesCount64(avail)
	}
	k := 0
	for avail != 0 && k <= limit {
		c := bits.TrailingZeros64(avail)
		avail &= avail - 1
		g := f
		g.Place(row, c)
		k += countRows(g, rows-1, limit-k)
	}
	return k
}

// inCorner reports whether one of t's queens stands in a corner of the
// n×n board.
func (t *Task) inCorner(n int) bool {
	for i := 0; i < int(t.Placed); i++ {
		r, c := int(t.Rows[i]), int(t.Cols[i])
		if (r == 0 || r == n-1) && (c == 0 || c == n-1) {
			return true
		}
	}
	return false
}

// cut is how a backtracking method splits a board of n rows into tasks.
type cut struct {
	n      int
	method Method
}

// autoMaxDepth is the deepest the automatic depth goes.
func (c cut) autoMaxDepth() int {
	if c.method == Halving {
		return min(c.n, 5)
	}
	return max(0, min(c.n-4, 3))
}

// roots are the tasks every plan of the method splits further: the
// first-row placements for Halving, the border classes for
// Constellations.
func (c cut) roots() []Task {
	if c.method == Halving {
		return halvingRoots(c.n)
	}
	return constellationRoots(c.n)
}

// rowsBelow is how many free rows a plan of the given depth fills below
// root t.
func (c cut) rowsBelow(t *Task, depth int) int {
	if c.method == Halving {
		return depth - 1
	}
	if t.inCorner(c.n) {
		depth += cornerSplit
	}
	return min(depth, MaxPlaced-int(t.Placed))
}

// size returns the number of tasks a plan of the given depth has, or a
// number above limit as soon as it exceeds limit.
func (c cut) size(roots []Task, depth, limit int) int {
	k := 0
	for i := range roots {
		if k > limit {
			break
		}
		k += roots[i].countExpand(c.n, c.rowsBelow(&roots[i], depth), limit-k)
	}
	return k
}

// build lists the k tasks of a plan of the given depth.
func (c cut) build(roots []Task, depth, k int) []Task {
	out := make([]Task, 0, k)
	for i := range roots {
		out = roots[i].expand(c.n, c.rowsBelow(&roots[i], depth), out)
	}
	return out
}

// halvingRoots lists the placements of the first row in the left half
// (weight 2) or, on an odd board, the middle column (weight 1: its mirror
// image is a placement of the same kind). A plan of depth d splits each
// over its next d-1 rows.
func halvingRoots(n int) []Task {
	var out []Task
	for c := 0; c < (n+1)/2; c++ {
		t := Task{Weight: 2}
		if n%2 == 1 && c == n/2 {
			t.Weight = 1
		}
		t.place(0, c)
		out = append(out, t)
	}
	return out
}

// border is a placement of the border queens: the column of the top row's
// queen (a), of the bottom row's (b), the row of the left column's (l) and
// of the right column's (q). Corner queens serve two lines.
type border struct{ a, b, l, q int }

func (x border) key(n int) int { return ((x.a*n+x.b)*n+x.l)*n + x.q }

// queens lists the distinct border queens (two to four: a corner queen
// serves two lines) in a fixed array, so that enumerating the n^4
// candidate placements allocates nothing.
func (x border) queens(n int) (qs [4][2]int, k int) {
	add := func(r, c int) {
		for _, p := range qs[:k] {
			if p[0] == r && p[1] == c {
				return
			}
		}
		qs[k] = [2]int{r, c}
		k++
	}
	add(0, x.a)
	add(n-1, x.b)
	add(x.l, 0)
	add(x.q, n-1)
	return qs, k
}

// valid reports whether the border queens are consistent (a corner queen is
// the queen of both its lines) and attack no one.
func (x border) valid(n int) bool {
	if (x.a == 0) != (x.l == 0) || (x.a == n-1) != (x.q == 0) ||
		(x.b == 0) != (x.l == n-1) || (x.b == n-1) != (x.q == n-1) {
		return false
	}
	qs, k := x.queens(n)
	for i := 0; i < k; i++ {
		for j := i + 1; j < k; j++ {
			dr, dc := qs[i][0]-qs[j][0], qs[i][1]-qs[j][1]
			if dr == 0 || dc == 0 || dr == dc || dr == -dc {
				return false
			}
		}
	}
	return true
}

// image returns the border placement that symmetry g (an index into
// symmetries) maps x to. Each symmetry maps the four border lines onto
// each other, so the image's queens are x's, permuted and mirrored; a
// corner queen, the queen of two lines, stays consistent.
func (x border) image(n int, g int) border {
	m := n - 1
	a, b, l, q := x.a, x.b, x.l, x.q
	switch g {
	case 1: // (r, c) -> (c, m-r)
		return border{m - l, m - q, b, a}
	case 2: // (r, c) -> (m-r, m-c)
		return border{m - b, m - a, m - q, m - l}
	case 3: // (r, c) -> (m-c, r)
		return border{q, l, m - a, m - b}
	case 4: // (r, c) -> (r, m-c)
		return border{m - a, m - b, q, l}
	case 5: // (r, c) -> (m-r, c)
		return border{b, a, m - l, m - q}
	case 6: // (r, c) -> (c, r)
		return border{l, q, a, b}
	case 7: // (r, c) -> (m-c, m-r)
		return border{m - q, m - l, m - b, m - a}
	}
	return x
}

// cornerSplit is how many rows deeper than the others the corner classes
// (a queen in a corner, so three border queens instead of four) are
// split. They prune less, and their subtrees are several times the mean
// task (at n = 19 they are 2% of the classes and 13% of the work, each up
// to 11 times the mean): one more row cuts each into pieces near the
// mean, so that they no longer decide when the last worker finishes.
const cornerSplit = 1

// constellationRoots lists one border placement per symmetry class,
// oriented for the kernels and weighted by the size of the class. A plan
// of depth d splits each over its next d free rows (corner classes over
// d+cornerSplit).
func constellationRoots(n int) []Task {
	var out []Task
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			for l := 0; l < n; l++ {
				for q := 0; q < n; q++ {
					x := border{a, b, l, q}
					if !x.valid(n) {
						continue
					}
					k := x.key(n)
					canonical := true
					var seen [8]int
					orbit := 0
					for g := 0; g < 8 && canonical; g++ {
						yk := x.image(n, g).key(n)
						if yk < k {
							canonical = false
						}
						dup := false
						for _, s := range seen[:orbit] {
							dup = dup || s == yk
						}
						if !dup {
							seen[orbit] = yk
							orbit++
						}
					}
					if !canonical {
						continue
					}
					t := Task{Weight: uint8(orbit)}
					qs, k := x.orient(n).queens(n)
					for _, p := range qs[:k] {
						t.place(p[0], p[1])
					}
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// orient returns the image of x that is cheapest to search. Every image
// has the same number of completions, so any one may stand for the class,
// but the work differs by up to 2x: the kernels fill rows from the top
// (the most constrained of the first few free rows), and the search is
// shortest when the bottom queen sits near a corner and the side queens'
// rows lie low. With rows filled strictly top down this static score
// picked, on n = 13..15, an image within 6% of the best of the four
// rotations, against 75% more work for the canonical image itself; with
// the kernels' dynamic row order it still saves time at n = 16 (one
// worker, alternating runs). Mirror images cost the
// same as their rotation: the search is symmetric left to right.
func (x border) orient(n int) border {
	best, bestScore := x, 1<<30
	for g := 0; g < 4; g++ {
		y := x.image(n, g)
		score := 2*min(y.b, n-1-y.b) - max(y.l, y.q)
		if score < bestScore {
			best, bestScore = y, score
		}
	}
	return best
}
