package kernel

// The oracle: an independent count of a frame's completions and of the
// nodes the kernels must report, written from the definitions in the
// package documentation with none of the kernels' code (no Search, choose,
// Open, Place or Check, no bit tricks): boolean tables for the frame's
// masks, the oracle's own queens checked pair by pair, plain recursion.

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
)

// oracle searches one frame.
type oracle struct {
	n              int
	col, up, down  []bool   // the frame's columns and diagonals, from its masks
	free           []bool   // rows still to fill
	placed         [][2]int // queens the oracle placed: row, column
	nodes, maxNode uint64   // nodes visited; give up past maxNode (0: never)
	stats          *oracleStats
}

// oracleStats records which paths of the kernels a search went through, so
// that a test can demand that its frames cover them.
type oracleStats struct {
	// deadAt[i], minAt[i]: a child's row choice (not the root's, which
	// is Go code shared by every kernel) met the first row with no open
	// square at window position i, or kept position i as the most
	// constrained row.
	deadAt, minAt [Look]int
	// cut counts child row choices that left free rows out of the
	// window; deep those made at depth 5 or more.
	cut, deep int
}

// errTooBig is returned by the oracle when a search passes its node cap.
var errTooBig = fmt.Errorf("oracle: search too big")

// oracleCount returns the completions of f and the nodes a kernel visits,
// or errTooBig when that is more than maxNodes (0: no cap). f must be
// valid by validByDefinition.
func oracleCount(f Frame, maxNodes uint64, st *oracleStats) (solutions, nodes uint64, err error) {
	n := f.N
	o := &oracle{
		n: n, col: make([]bool, n), up: make([]bool, 2*n-1), down: make([]bool, 2*n-1),
		free: make([]bool, n), maxNode: maxNodes, stats: st,
	}
	if o.stats == nil {
		o.stats = new(oracleStats)
	}
	for c := 0; c < n; c++ {
		o.col[c] = f.Cols>>uint(c)&1 == 1
		o.free[c] = f.Rows>>uint(c)&1 == 1
	}
	for k := 0; k < 2*n-1; k++ {
		o.up[k] = f.D1>>uint(k)&1 == 1
		o.down[k] = f.D2>>uint(k)&1 == 1
	}
	s, ok := o.search(0)
	if !ok {
		return 0, 0, errTooBig
	}
	return s, o.nodes, nil
}

// safe reports whether a queen on (r, c) is attacked neither by the
// frame's masks (column c, diagonal r+c down to the left, diagonal c-r+n-1
// down to the right) nor by a queen the oracle placed.
func (o *oracle) safe(r, c int) bool {
	if o.col[c] || o.up[r+c] || o.down[c-r+o.n-1] {
		return false
	}
	for _, q := range o.placed {
		dr, dc := q[0]-r, q[1]-c
		if dc == 0 || dr == dc || dr == -dc {
			return false
		}
	}
	return true
}

func (o *oracle) openSquares(r int) uint64 {
	var k uint64
	for c := 0; c < o.n; c++ {
		if o.safe(r, c) {
			k++
		}
	}
	return k
}

// search counts the completions below the current placement. Following
// the package documentation: with no free row left there is one; with one
// left, its open squares are the completions and each is a node; else the
// first Look free rows are compared, a row without an open square ends the
// branch, and the one with the fewest open squares (the first on a tie)
// is filled next, each queen placed there a node.
func (o *oracle) search(depth int) (sol uint64, ok bool) {
	var rows []int
	for r := 0; r < o.n; r++ {
		if o.free[r] {
			rows = append(rows, r)
		}
	}
	switch len(rows) {
	case 0:
		return 1, true
	case 1:
		k := o.openSquares(rows[0])
		o.nodes += k
		return k, true
	}
	best, bestAt := uint64(0), -1
	for i := 0; i < Look && i < len(rows); i++ {
		k := o.openSquares(rows[i])
		if k == 0 {
			if depth > 0 {
				o.stats.deadAt[i]++
			}
			return 0, true
		}
		if bestAt < 0 || k < best {
			best, bestAt = k, i
		}
	}
	if depth > 0 {
		o.stats.minAt[bestAt]++
		if len(rows) > Look {
			o.stats.cut++
		}
	}
	if depth >= 5 {
		o.stats.deep++
	}
	r := rows[bestAt]
	o.free[r] = false
	defer func() { o.free[r] = true }()
	for c := 0; c < o.n; c++ {
		if !o.safe(r, c) {
			continue
		}
		o.nodes++
		if o.maxNode != 0 && o.nodes > o.maxNode {
			return 0, false
		}
		o.placed = append(o.placed, [2]int{r, c})
		s, ok := o.search(depth + 1)
		o.placed = o.placed[:len(o.placed)-1]
		if !ok {
			return 0, false
		}
		sol += s
	}
	return sol, true
}

// validByDefinition is the frame check written from Frame's field
// comments: a board of 1 to 32 columns, Full with its N low bits set, and
// no bit of a column, row or diagonal mask past the board.
func validByDefinition(f Frame) bool {
	if f.N < 1 || f.N > 32 {
		return false
	}
	for b := 0; b < 64; b++ {
		inBoard := b < f.N
		inDiag := b < 2*f.N-1
		if f.Full>>uint(b)&1 == 1 != inBoard {
			return false
		}
		if !inBoard && (f.Cols>>uint(b)&1 == 1 || f.Rows>>uint(b)&1 == 1) {
			return false
		}
		if !inDiag && (f.D1>>uint(b)&1 == 1 || f.D2>>uint(b)&1 == 1) {
			return false
		}
	}
	return true
}

// The random frames are seeded: -seed or NQCOUNT_TEST_SEED choose the
// seed, fixed by default so that every run tests the same frames; a
// failure names the seed and the frame.
var seedFlag = flag.Uint64("seed", 0, "seed of the random frames (0: $NQCOUNT_TEST_SEED, else 1)")

func testSeed(t testing.TB) uint64 {
	if *seedFlag != 0 {
		return *seedFlag
	}
	if s := os.Getenv("NQCOUNT_TEST_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			t.Fatalf("NQCOUNT_TEST_SEED=%q: %v", s, err)
		}
		return v
	}
	return 1
}

// maxFree is the most free rows a random frame has.
const maxFree = 10

// place marks a queen on (r, c) in f's masks, written out here rather than
// with Frame.Place so that the frames do not depend on the code under test.
func place(f *Frame, r, c int) {
	f.Cols |= 1 << uint(c)
	f.D1 |= 1 << uint(r+c)
	f.D2 |= 1 << uint(c-r+f.N-1)
}

func emptyFrame(n int) Frame {
	full := uint64(1)<<uint(n) - 1
	return Frame{N: n, Full: full}
}

// randomFrame makes a frame of up to maxFree free rows, of one of four
// kinds: a solution with some rows taken out (at least one completion, and
// the deep searches); a partial placement built greedily, the rows it
// could not fill free (mostly no completion, many dead rows); queens
// anywhere, attacking each other or not (masks no plan makes); and a
// small board with every row free (the whole search of a small n).
func randomFrame(r *rand.Rand) Frame {
	n := 1 + r.IntN(MaxN)
	var f Frame
	switch kind := r.IntN(8); {
	case kind < 4 && n >= 4:
		sol := symmetric(construct(n), r.IntN(8))
		f = emptyFrame(n)
		free := r.Perm(n)[:1+r.IntN(min(n, maxFree))]
		isFree := make([]bool, n)
		for _, row := range free {
			isFree[row] = true
			f.Rows |= 1 << uint(row)
		}
		for row, c := range sol {
			if !isFree[row] {
				place(&f, row, c)
			}
		}
	case kind < 6:
		f = emptyFrame(n)
		rows := r.Perm(n)
		for _, row := range rows {
			var open []int
			for c := 0; c < n; c++ {
				if f.Cols>>uint(c)&1 == 0 && f.D1>>uint(row+c)&1 == 0 && f.D2>>uint(c-row+n-1)&1 == 0 {
					open = append(open, c)
				}
			}
			if len(open) == 0 || (r.IntN(4) == 0 && bitsSet(f.Rows) < maxFree) {
				f.Rows |= 1 << uint(row)
				continue
			}
			place(&f, row, open[r.IntN(len(open))])
		}
	case kind < 7:
		f = emptyFrame(n)
		for q := r.IntN(n + 1); q > 0; q-- {
			place(&f, r.IntN(n), r.IntN(n))
		}
		for _, row := range r.Perm(n)[:r.IntN(min(n, maxFree)+1)] {
			f.Rows |= 1 << uint(row)
		}
	default:
		n = 1 + r.IntN(9)
		f = emptyFrame(n)
		f.Rows = f.Full
	}
	for bitsSet(f.Rows) > maxFree {
		f.Rows &^= 1 << uint(r.IntN(n))
	}
	return f
}

func bitsSet(x uint64) int {
	k := 0
	for ; x != 0; x >>= 1 {
		k += int(x & 1)
	}
	return k
}

// construct returns a solution of n >= 4 queens, one column per row, by
// the classical explicit construction (Hoffman, Loessi and Moore, 1969):
// the even columns then the odd ones (numbered from 1), with a fix when n
// mod 6 is 2 or 3. It panics if the result is not a solution, so a mistake
// here cannot weaken the tests in silence.
func construct(n int) []int {
	var cols []int
	add := func(from, to int) {
		for k := from; k <= to; k += 2 {
			cols = append(cols, k)
		}
	}
	switch n % 6 {
	case 2:
		add(2, n)
		cols = append(cols, 3, 1)
		add(7, n)
		cols = append(cols, 5)
	case 3:
		add(4, n)
		cols = append(cols, 2)
		add(5, n)
		cols = append(cols, 1, 3)
	default:
		add(2, n)
		add(1, n)
	}
	for i := range cols {
		cols[i]--
	}
	for r1 := range cols {
		for r2 := r1 + 1; r2 < n; r2++ {
			d := cols[r2] - cols[r1]
			if len(cols) != n || d == 0 || d == r2-r1 || d == r1-r2 {
				panic(fmt.Sprintf("construct(%d) is not a solution: %v", n, cols))
			}
		}
	}
	return cols
}

// symmetric returns one of the 8 symmetries of a solution (one column per
// row).
func symmetric(sol []int, which int) []int {
	n := len(sol)
	out := append([]int(nil), sol...)
	if which&1 == 1 { // mirror left-right
		for r := range out {
			out[r] = n - 1 - out[r]
		}
	}
	if which&2 == 2 { // mirror top-bottom
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	if which&4 == 4 { // transpose
		tr := make([]int, n)
		for r, c := range out {
			tr[c] = r
		}
		out = tr
	}
	return out
}

// oracleCase is one random frame with the oracle's answer.
type oracleCase struct {
	f           Frame
	sol, nodes  uint64
	index       int // the frame's position in the seeded sequence
	description string
}

// oracleCap bounds the oracle's search per frame; bigger frames are
// drawn again, so that the test stays fast while covering every path.
const oracleCap = 200_000

var (
	casesOnce  sync.Once
	casesSeed  uint64
	cases      []oracleCase
	casesStats oracleStats
)

// oracleCases returns the seeded random frames with their oracle counts,
// made once per test binary and shared by every kernel's subtest.
func oracleCases(t testing.TB) ([]oracleCase, uint64, *oracleStats) {
	seed := testSeed(t)
	casesOnce.Do(func() {
		want := 4000
		if testing.Short() {
			want = 800
		}
		casesSeed = seed
		r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
		for i := 0; len(cases) < want; i++ {
			f := randomFrame(r)
			var st oracleStats
			s, nd, err := oracleCount(f, oracleCap, &st)
			if err != nil {
				continue
			}
			for k := range Look {
				casesStats.deadAt[k] += st.deadAt[k]
				casesStats.minAt[k] += st.minAt[k]
			}
			casesStats.deep += st.deep
			casesStats.cut += st.cut
			cases = append(cases, oracleCase{f: f, sol: s, nodes: nd, index: i,
				description: fmt.Sprintf("seed %d, frame #%d %+v", seed, i, f)})
		}
	})
	return cases, casesSeed, &casesStats
}

func TestOracleAgainstSolutions(t *testing.T) {
	// The oracle itself, on whole boards, against the OEIS (A000170).
	want := []uint64{1, 0, 0, 2, 10, 4, 40, 92, 352, 724}
	for n := 1; n <= len(want); n++ {
		f := emptyFrame(n)
		f.Rows = f.Full
		s, _, err := oracleCount(f, 0, nil)
		if err != nil || s != want[n-1] {
			t.Errorf("oracle n=%d: %d, %v; want %d", n, s, err, want[n-1])
		}
	}
	// And on a solution of 32 with a few rows taken out: exactly the
	// completions the construction allows, one or more.
	sol := construct(32)
	f := emptyFrame(32)
	for r, c := range sol {
		if r%5 != 0 {
			place(&f, r, c)
		} else {
			f.Rows |= 1 << uint(r)
		}
	}
	if s, _, err := oracleCount(f, 0, nil); err != nil || s < 1 {
		t.Errorf("oracle on a solution of 32 less 7 rows: %d, %v", s, err)
	}
}

// TestOracleCoverage makes sure the random frames reach the paths the
// kernels must be checked on: every position of the row window found dead
// and kept as the most constrained in a child's choice, with rows beyond
// the window, and searches five levels deep or more.
func TestOracleCoverage(t *testing.T) {
	cs, seed, st := oracleCases(t)
	t.Logf("seed %d: %d frames; in a child's row choice, dead at window position %v, kept at %v; %d choices with rows past the window, %d five levels deep",
		seed, len(cs), st.deadAt, st.minAt, st.cut, st.deep)
	floor := len(cs) / 40
	for i := range Look {
		if st.deadAt[i] < floor || st.minAt[i] < floor {
			t.Errorf("seed %d: window position %d seldom reached (dead %d, kept %d times)", seed, i, st.deadAt[i], st.minAt[i])
		}
	}
	if st.cut < len(cs)/4 || st.deep < len(cs)/4 {
		t.Errorf("seed %d: only %d row choices with rows past the window, %d five levels deep", seed, st.cut, st.deep)
	}
	var nonzero int
	for _, c := range cs {
		if c.sol > 0 {
			nonzero++
		}
	}
	if nonzero < len(cs)/5 {
		t.Errorf("seed %d: only %d of %d frames have completions", seed, nonzero, len(cs))
	}
}
