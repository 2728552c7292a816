package solutions

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/nqcount/nqcount/count/queens/kernel"
)

// EventKind says what a step of a traced search did.
type EventKind int

// The kinds of Event.
const (
	// Place: a queen was put on a safe square of row Row, column Col.
	Place EventKind = iota
	// Backtrack: row Row has no safe column left (every one has been
	// tried, or none was open when the search came to it); the search goes
	// back to move the queen placed before.
	Backtrack
	// Found: the board is a complete solution, the Index-th one.
	Found
)

// Order is the order in which a traced search fills the rows.
type Order int

// The orders of TraceOrder.
const (
	// TopDown fills rows 0, 1, 2, ... in turn: the textbook search, and
	// the order of Enumerator.
	TopDown Order = iota
	// MostConstrained fills next the free row with the fewest open
	// squares among the first kernel.Look free rows (the first of them on
	// a tie), and gives up on a branch as soon as one of those rows has no
	// open square: the order of the counting kernels (see package kernel).
	MostConstrained
)

// String returns the order's name, as ParseOrder reads it.
func (o Order) String() string {
	switch o {
	case TopDown:
		return "topdown"
	case MostConstrained:
		return "constrained"
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// ParseOrder reads an order's name: topdown (or rows) or constrained.
func ParseOrder(s string) (Order, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "topdown", "rows", "":
		return TopDown, nil
	case "constrained", "kernel":
		return MostConstrained, nil
	}
	return 0, fmt.Errorf("unknown order %q: choose topdown or constrained", s)
}

// Event is one step of Trace or TraceOrder.
type Event struct {
	Kind EventKind
	Row  int // the row placed in or backtracked from
	Col  int // the column placed in (Place, Found)
	// Cols lists the queens on the board when the rows are filled top
	// down: the queen of row r is in column Cols[r], for rows 0 to
	// len(Cols)-1. Found events carry the whole solution in either order;
	// Place and Backtrack events of MostConstrained leave it nil (see
	// Board). The slice is reused: copy it to keep it.
	Cols []int
	// Board has one entry per row: the column of its queen, or -1 for a
	// row without one, after the step. Reused: copy it to keep it.
	Board []int
	// Depth is the number of queens on the board after the step.
	Depth int
	// Index numbers the solutions (Found): 1 for the first, 2 for the
	// second...
	Index int
}

// String renders the event as a line for a human reader, indented by the
// depth of the search: "place row 2 col 4 → [0 2 4]", "backtrack from row 3
// (no safe column left)", "solution 1: 1 3 0 2". Without Cols, a placement
// shows the whole board, '.' for a row without a queen.
func (ev Event) String() string {
	var b strings.Builder
	switch ev.Kind {
	case Place:
		b.WriteString(strings.Repeat("  ", max(ev.Depth-1, 0)))
		fmt.Fprintf(&b, "place row %d col %d → [", ev.Row, ev.Col)
		if ev.Cols != nil || ev.Board == nil {
			writeInts(&b, ev.Cols)
		} else {
			writeBoard(&b, ev.Board)
		}
		b.WriteString("]")
	case Backtrack:
		b.WriteString(strings.Repeat("  ", ev.Depth))
		fmt.Fprintf(&b, "backtrack from row %d (no safe column left)", ev.Row)
	case Found:
		fmt.Fprintf(&b, "solution %d: ", ev.Index)
		writeInts(&b, ev.Cols)
	}
	return b.String()
}

func writeInts(b *strings.Builder, xs []int) {
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(x))
	}
}

func writeBoard(b *strings.Builder, board []int) {
	for i, x := range board {
		if i > 0 {
			b.WriteByte(' ')
		}
		if x < 0 {
			b.WriteByte('.')
		} else {
			b.WriteString(strconv.Itoa(x))
		}
	}
}

// Trace runs the search of Enumerator, in the same order, and calls f at
// every step: each placement, each backtrack, each solution found. It stops
// when f returns false, after maxSolutions solutions (0: all) or when the
// search is over. It is meant for teaching on small boards and is not fast.
// n must be 1 to MaxN. It is TraceOrder with TopDown.
func Trace(n, maxSolutions int, f func(Event) bool) error {
	return TraceOrder(n, TopDown, maxSolutions, f)
}

// TraceOrder runs a backtracking search that fills the rows in the given
// order and calls f at every step, as Trace does. With TopDown it is
// Trace; with MostConstrained it makes the choices of the counting kernels
// on the empty board, so that its placements are exactly the nodes a
// kernel counts (see kernel.Search.Nodes), each queen of the last free row
// included. Both orders find every solution once; they differ in the
// order of the solutions and in the work done.
func TraceOrder(n int, order Order, maxSolutions int, f func(Event) bool) error {
	if n < 1 || n > MaxN {
		return fmt.Errorf("n = %d is out of range: the search handles 1 to %d", n, MaxN)
	}
	if order != TopDown && order != MostConstrained {
		return fmt.Errorf("unknown order %d", int(order))
	}
	t := newTraceState(n, order)
	emit := func(ev Event) bool {
		ev.Board, ev.Depth = t.board, t.depth
		if ev.Kind == Found || order == TopDown {
			ev.Cols = t.board[:t.depth]
		}
		return f(ev)
	}
	// A level is a row being filled: the columns still to try, and the
	// column of its queen (-1: none on the board).
	type level struct {
		row   int
		avail uint64
		col   int
	}
	stack := make([]level, 0, n)
	r, a := t.next()
	if a == 0 {
		emit(Event{Kind: Backtrack, Row: r})
		return nil
	}
	stack = append(stack, level{r, a, -1})
	found := 0
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.col >= 0 {
			t.remove(top.row, top.col)
			top.col = -1
		}
		if top.avail == 0 {
			row := top.row
			stack = stack[:len(stack)-1]
			if !emit(Event{Kind: Backtrack, Row: row}) {
				return nil
			}
			continue
		}
		bit := top.avail & -top.avail
		top.avail ^= bit
		c := bits.TrailingZeros64(bit)
		t.place(top.row, c)
		top.col = c
		if !emit(Event{Kind: Place, Row: top.row, Col: c}) {
			return nil
		}
		if t.depth == n {
			found++
			if !emit(Event{Kind: Found, Row: top.row, Col: c, Index: found}) || found == maxSolutions {
				return nil
			}
			continue
		}
		r, a := t.next()
		if a == 0 {
			if !emit(Event{Kind: Backtrack, Row: r}) {
				return nil
			}
			continue
		}
		stack = append(stack, level{r, a, -1})
	}
	return nil
}

// traceState is the board of a traced search: which columns and
// diagonals hold a queen. It favours plainness over speed, and handles
// any n up to MaxN (the kernels' masks stop at 32).
type traceState struct {
	n      int
	order  Order
	board  []int
	depth  int
	col    []bool
	d1, d2 []bool // diagonals r+c and c-r+n-1
}

func newTraceState(n int, order Order) *traceState {
	t := &traceState{n: n, order: order, board: make([]int, n), col: make([]bool, n),
		d1: make([]bool, 2*n-1), d2: make([]bool, 2*n-1)}
	for i := range t.board {
		t.board[i] = -1
	}
	return t
}

func (t *traceState) place(r, c int) {
	t.board[r] = c
	t.col[c], t.d1[r+c], t.d2[c-r+t.n-1] = true, true, true
	t.depth++
}

func (t *traceState) remove(r, c int) {
	t.board[r] = -1
	t.col[c], t.d1[r+c], t.d2[c-r+t.n-1] = false, false, false
	t.depth--
}

// open returns the safe squares of row r as a mask of columns.
func (t *traceState) open(r int) uint64 {
	var m uint64
	for c := 0; c < t.n; c++ {
		if !t.col[c] && !t.d1[r+c] && !t.d2[c-r+t.n-1] {
			m |= 1 << uint(c)
		}
	}
	return m
}

// next returns the row to fill next and its safe squares; none (a = 0)
// means the branch is dead at row r. There is a free row: the board is not
// full.
func (t *traceState) next() (r int, a uint64) {
	if t.order == TopDown {
		return t.depth, t.open(t.depth)
	}
	best, seen := 99, 0
	for row := 0; row < t.n && seen < kernel.Look; row++ {
		if t.board[row] >= 0 {
			continue
		}
		seen++
		o := t.open(row)
		if o == 0 {
			return row, 0
		}
		if c := bits.OnesCount64(o); c < best {
			best, r, a = c, row, o
		}
	}
	return r, a
}
