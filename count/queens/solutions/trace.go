package solutions

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// EventKind says what a step of a traced search did.
type EventKind int

// The kinds of Event.
const (
	// Place: a queen was put on a safe square of row Row, column Col.
	Place EventKind = iota
	// Backtrack: every safe column of row Row has been tried; the search
	// goes back to row Row-1 to move its queen.
	Backtrack
	// Found: Cols is a complete solution, the Index-th one.
	Found
)

// Event is one step of Trace.
type Event struct {
	Kind  EventKind
	Row   int   // the row placed in or backtracked from
	Col   int   // the column placed in (Place)
	Cols  []int // the queens on the board, rows 0 to len(Cols)-1; reused, copy to keep
	Index int   // Found: 1 for the first solution, 2 for the second...
}

// String renders the event as a line for a human reader, indented by the
// depth of the search: "place row 2 col 4 → [0 2 4]", "backtrack from row 3
// (no safe column left)", "solution 1: 1 3 0 2".
func (ev Event) String() string {
	var b strings.Builder
	switch ev.Kind {
	case Place:
		b.WriteString(strings.Repeat("  ", ev.Row))
		fmt.Fprintf(&b, "place row %d col %d → [", ev.Row, ev.Col)
		writeInts(&b, ev.Cols)
		b.WriteString("]")
	case Backtrack:
		b.WriteString(strings.Repeat("  ", ev.Row))
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

// Trace runs the search of Enumerator, in the same order, and calls f at
// every step: each placement, each backtrack, each solution found. It stops
// when f returns false, after maxSolutions solutions (0: all) or when the
// search is over. It is meant for teaching on small boards and is not fast.
// n must be 1 to MaxN.
func Trace(n, maxSolutions int, f func(Event) bool) error {
	if n < 1 || n > MaxN {
		return fmt.Errorf("n = %d is out of range: the search handles 1 to %d", n, MaxN)
	}
	full := ^uint64(0) >> (64 - n)
	cols := make([]int, n)
	avail := make([]uint64, n)
	cl, left, right := make([]uint64, n), make([]uint64, n), make([]uint64, n)
	avail[0] = full
	found := 0
	r := 0
	for {
		a := avail[r]
		if a == 0 {
			if !f(Event{Kind: Backtrack, Row: r, Cols: cols[:r]}) || r == 0 {
				return nil
			}
			r--
			continue
		}
		bit := a & -a
		avail[r] = a ^ bit
		c := bits.TrailingZeros64(bit)
		cols[r] = c
		if !f(Event{Kind: Place, Row: r, Col: c, Cols: cols[:r+1]}) {
			return nil
		}
		if r == n-1 {
			found++
			if !f(Event{Kind: Found, Row: r, Col: c, Cols: cols, Index: found}) ||
				found == maxSolutions {
				return nil
			}
			continue
		}
		l, d := (left[r]|bit)<<1, (right[r]|bit)>>1
		cc := cl[r] | bit
		r++
		cl[r], left[r], right[r] = cc, l, d
		avail[r] = full &^ (cc | l | d)
	}
}
