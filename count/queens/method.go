package queens

import (
	"fmt"
	"strings"

	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/count/queens/kernel"
)

// Method is a way of cutting the search into weighted tasks.
type Method string

const (
	// Constellations pre-places the queens of the four border lines (top
	// and bottom row, left and right column), keeps one placement per
	// class under the 8 symmetries of the square and weights it by the
	// size of its class. Every solution has exactly one border placement,
	// so the weighted sum is exact with no test at the leaves, and the
	// border queens below the current row prune the search from its first
	// row on. The default, and the fastest.
	Constellations Method = "constellations"
	// Halving is the classic method: the first row's queen in the left
	// half, counted twice by mirror symmetry (the middle column of an odd
	// board once), and the first rows enumerated as prefix tasks. Kept as
	// the baseline the benchmarks compare against.
	Halving Method = "halving"
	// Join counts without walking the search tree to its leaves: it lists
	// the partial solutions of the board's quadrants once, pairs them into
	// half boards, and counts the pairs of half boards with no diagonal in
	// common (meet in the middle; package join). Its work grows more
	// slowly with n than any backtracker's, at the price of memory for
	// the quadrant tables, or for bounded memory its bounded path (see
	// Execution.Memory). The fastest from n = 12 but 13; see
	// DefaultMethod.
	Join Method = "join"
	// Auto is not a method: it asks for the fastest method for n (see
	// DefaultMethod).
	Auto Method = "auto"
)

// Methods lists the methods.
var Methods = []Method{Constellations, Halving, Join}

// joinFrom is the smallest n counted by Join when no method is asked for.
// Measured side by side in one process, one worker, paired within rounds
// (go run ./bench, RESULTS.md, and a 7-round run of n = 9..13 at a quiet
// moment): the join was faster at n = 12 in every run (2.0-2.6x) and at
// every n from 14 (1.6-7x), slower at n = 13 in every run (0.74-0.80x);
// at n = 10 and 11, where both take about a millisecond, the verdict
// flipped with the machine's load, so the backtracker, which builds no
// tables, keeps them.
const joinFrom = 12

// joinSlower lists the n from joinFrom to joinTo where the join was
// measured slower than constellations.
var joinSlower = map[int]bool{13: true}

// DefaultMethod returns the method Count uses for n when none is asked
// for: the join from n = 12 but 13, constellations below. The join plans
// every n up to MaxN, in any memory that holds its bounded path.
func DefaultMethod(n int) Method {
	if n >= joinFrom && !joinSlower[n] {
		return Join
	}
	return Constellations
}

// resolve returns the method to count n with: m, or DefaultMethod(n) for
// "" and Auto.
func resolve(m Method, n int) Method {
	if m == "" || m == Auto {
		return DefaultMethod(n)
	}
	return m
}

// ResolveMethod returns the method a count of n with method m and the
// kernel named uses: m itself, or for "" and Auto DefaultMethod(n),
// unless the kernel named is one of the backtracking methods' (such as
// bmi2): then Constellations, which runs it. This is the one place a
// front end resolves "auto"; NewPlan resolves what is left with n alone.
func ResolveMethod(m Method, n int, kernelName string) Method {
	r := resolve(m, n)
	if (m == "" || m == Auto) && r == Join && isBacktrackKernel(kernelName) && !isJoinKernel(kernelName) {
		return Constellations
	}
	return r
}

// isJoinKernel reports whether name is registered among the join
// kernels, supported by this CPU or not.
func isJoinKernel(name string) bool {
	for _, k := range join.Kernels() {
		if k.Name == name {
			return true
		}
	}
	return false
}

// isBacktrackKernel reports whether name is registered among the
// backtracking kernels, supported by this CPU or not.
func isBacktrackKernel(name string) bool {
	for _, k := range kernel.All() {
		if k.Name == name {
			return true
		}
	}
	return false
}

func joinNames() []string {
	var out []string
	for _, k := range join.Kernels() {
		out = append(out, k.Name)
	}
	return out
}

func backtrackNames() []string {
	var out []string
	for _, k := range kernel.All() {
		out = append(out, k.Name)
	}
	return out
}

// kernelNames lists names for a message: "a, b or c".
func kernelNames(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// ParseMethod checks a method name; "auto" gives Auto.
func ParseMethod(s string) (Method, error) {
	if s == string(Auto) {
		return Auto, nil
	}
	for _, m := range Methods {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown method %q (choose auto, %s, %s or %s)", s, Constellations, Halving, Join)
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
// the kernels' dynamic row order it still saves 1.24x at n = 16 (0.82 s
// against 1.02 s, one worker, 3 alternating runs). Mirror images cost the
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
