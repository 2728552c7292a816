package sudoku

import (
	"context"
	"math/bits"
	"sync/atomic"
)

// The solver kernels (the variants of variant.go) share one layout: for
// every digit and every band (three rows), a 27-bit mask of the cells of
// that band where the digit may still go. A cell's bit inside its band is
// (row%3)*9 + column, so cell i of the grid is bit i%27 of band i/27.
//
// A digit goes exactly once in each row, column and box, so within one band
// its three placements are in three different rows and three different
// boxes: a permutation of the 3x3 row/box matrix. Both kernels work a whole
// band of one digit at a time with table lookups: they shrink each 9-bit
// row to the three boxes it can still use, keep only the row/box pairs
// that belong to some permutation (which does pointing, box/line reduction
// and hidden singles in boxes and rows within the band at once), and mark
// rows left with one cell as solved; a solved cell is removed from the
// other eight digits and its column from the digit's other two bands.
// kernel_band.go and kernel_triad.go say what each adds.

const bandMask = 1<<27 - 1

var (
	// shrinkTab maps a 9-bit row to the 3 boxes in which it has candidates.
	shrinkTab [512]uint8
	// complexTab maps a 3x3 row/box presence matrix (bit row*3+box) to
	// the 27-bit mask of the mini-rows that lie on some permutation inside
	// the matrix; 0 if there is none.
	complexTab [512]uint32
	// singleTab is 1 for a 9-bit row with exactly one cell.
	singleTab [512]uint8
	// rowsTab maps a 3-bit set of rows to their 27-bit mask.
	rowsTab [8]uint32
	// rowOf is the 27-bit mask of the row of each band bit.
	rowOf [27]uint32

	// permList holds the six permutations of three rows over three boxes
	// as 3x3 matrices (bit row*3+box).
	permList [6]uint32
	// permCountTab is the number of permutations a 3x3 matrix holds.
	permCountTab [512]uint8
	// permSupTab maps a 3x3 matrix to its entries that lie on some
	// permutation inside it.
	permSupTab [512]uint16
	// permIdxTab lists the permutations a 3x3 matrix holds (their
	// indices in permList, lowest first, four bits each).
	permIdxTab [512]uint32
	// miniRowCells maps a 3x3 row/box matrix to the 27-bit mask of the
	// cells of its mini-rows.
	miniRowCells [512]uint32
	// rowInfo describes a 9-bit row of a band word: bits 0-2 are the
	// boxes where it has cells (shrinkTab), bit 9 is set if it has exactly
	// one cell (singleTab).
	rowInfo [512]uint16
)

func init() {
	perms := [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for i, p := range perms {
		for r := 0; r < 3; r++ {
			permList[i] |= 1 << (r*3 + p[r])
		}
	}
	for m := 0; m < 512; m++ {
		var s uint8
		for x := 0; x < 3; x++ {
			if m>>(3*x)&7 != 0 {
				s |= 1 << x
			}
		}
		shrinkTab[m] = s
		if bits.OnesCount(uint(m)) == 1 {
			singleTab[m] = 1
		}
		rowInfo[m] = uint16(s) | uint16(singleTab[m])<<9
		for e := 0; e < 9; e++ {
			if m>>e&1 != 0 {
				miniRowCells[m] |= 7 << (9*(e/3) + 3*(e%3))
			}
		}
	}
	for m := 0; m < 512; m++ {
		for i, p := range permList {
			if uint32(m)&p == p {
				permIdxTab[m] |= uint32(i) << (4 * permCountTab[m])
				permCountTab[m]++
				permSupTab[m] |= uint16(p)
			}
		}
		complexTab[m] = miniRowCells[permSupTab[m]]
	}
	for m := 0; m < 8; m++ {
		for r := 0; r < 3; r++ {
			if m>>r&1 != 0 {
				rowsTab[m] |= 511 << (9 * r)
			}
		}
	}
	for p := 0; p < 27; p++ {
		rowOf[p] = 511 << (9 * (p / 9))
	}
}

// engine is what every solver variant implements. It is driven by its
// embedded ctl: limit, counts, and the checks made every sliceNodes nodes.
type engine interface {
	// control returns the engine's search control.
	control() *ctl
	// load sets up the root of the search for the givens of g; false if
	// two givens clash (the parser rejects those first).
	load(g *Grid) bool
	// run searches below the root, counting solutions into the control
	// until it halts or the search is done.
	run()
	// solution returns the first solution found (valid when count > 0).
	solution() Grid
}

// ctl is the search control every kernel embeds: the solution limit, what
// was found, and the look-ups made every sliceNodes nodes (cancellation, a
// node budget, totals shared with parallel searches).
type ctl struct {
	limit   uint64
	count   uint64
	nodes   uint64
	guesses uint64 // branches tried: a guess copies the state (tdoku's count)
	halt    bool   // the search stopped: limit reached, stop set or budget spent

	stop     *atomic.Bool    // if set and true, the search halts
	ctx      context.Context // if set and ended, the search halts
	shared   *atomic.Uint64  // if set, a total shared with parallel searches, held to limit
	flushed  uint64          // part of count already added to shared
	maxNodes uint64          // if not 0, halt after about this many nodes
	// progress, if set, receives the nodes and solutions not yet reported,
	// at every look-up and when the search ends (see publish).
	progress        *progressSink
	reportedNodes   uint64
	reportedCount   uint64
	reportedGuesses uint64
	// slice, if set, receives the nodes run since the last call, at every
	// look-up: the count engine's progress function (count.TaskFunc).
	slice  func(nodes uint64)
	sliced uint64 // nodes already handed to slice
}

// sliceNodes is how often (in nodes, a power of two) a search looks up:
// a fraction of a millisecond of work.
const sliceNodes = 1024

// reset prepares for a new search up to limit solutions (nodes and
// guesses keep adding up across searches).
func (c *ctl) reset(limit uint64) {
	c.limit = limit
	c.count = 0
	c.flushed = 0
	c.halt = false
	c.reportedCount = 0
}

// tick counts a node and reports whether the search must stop.
func (c *ctl) tick() bool {
	c.nodes++
	if c.nodes&(sliceNodes-1) == 0 {
		c.look()
	}
	return c.halt
}

func (c *ctl) look() {
	if (c.stop != nil && c.stop.Load()) || (c.maxNodes != 0 && c.nodes >= c.maxNodes) || (c.ctx != nil && c.ctx.Err() != nil) {
		c.halt = true
	}
	c.flush()
	if c.progress != nil {
		c.report()
	}
	if c.slice != nil {
		c.slice(c.nodes - c.sliced)
		c.sliced = c.nodes
	}
}

// found counts a solution.
func (c *ctl) found() {
	c.count++
	if c.count >= c.limit {
		c.halt = true
	} else if c.shared != nil && c.count-c.flushed >= 1024 {
		c.flush()
	}
}

// flush adds the solutions not yet published to the shared total, and
// halts if that reached the limit: parallel tasks stop at a shared limit.
func (c *ctl) flush() {
	if c.shared != nil && c.count > c.flushed {
		if c.shared.Add(c.count-c.flushed) >= c.limit {
			c.halt = true
		}
		c.flushed = c.count
	}
}

// report hands the work done since the last report to the progress sink.
func (c *ctl) report() {
	p := c.progress
	p.nodes.Add(c.nodes - c.reportedNodes)
	p.solutions.Add(c.count - c.reportedCount)
	p.guesses.Add(c.guesses - c.reportedGuesses)
	c.reportedNodes, c.reportedCount, c.reportedGuesses = c.nodes, c.count, c.guesses
}

// progressSink collects the work of parallel searches as it happens, for
// progress reports.
type progressSink struct {
	nodes, solutions, guesses atomic.Uint64
}
