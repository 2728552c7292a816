package join

import "math/bits"

// The diagonal symmetry of the even cut. On an even board cut into four
// q×q quadrants (no band), a completion has four sets:
//
//	X: the north rows whose queen is east, Y: the south rows likewise
//	   (the row set (rt, rb) a task counts);
//	U: the west columns whose queen is south, V: the east ones likewise
//	   (the columns of the west and east half boards' south parts).
//
// Reflecting the board in its main diagonal, (r, c) -> (c, r), maps a
// completion with sets (X, Y, U, V) to one with (U, V, X, Y), each set
// read in its quadrant's coordinates. So the completions of row set P
// with column sets Q are as many as those of row set Q with column sets
// P: M(P, Q) = M(Q, P). For any key K of such pairs of sets, the sum of
// M over all (P, Q) is the sum over K(Q) > K(P) twice plus the sum over
// K(Q) = K(P) once: each row set needs only the half boards whose
// column sets have a key at least its own, about half of its pairs.
//
// The mirrors already count each class of row sets once (canonical), so
// K must give a row set and its mirror images the same key, and so for
// column sets: K(A, B) is the pair, least first, of c(A) and c(rev B),
// where c(A) is the lesser of A and its complement (the left-right
// mirror takes a row set to its complement, the top-bottom one takes
// (A, B) to (rev B, rev A), and on the column sets they act the other
// way round). Comparing K(Q) = (min(u, v), max(u, v)), u = c(U) and
// v = c(rev V), with K(P) = (p1, p2) splits each side's column sets into
// five classes by their own value x (diagClass); the pairs of classes
// with a weight are diagJoins.

// diagClass numbers the classes of a column set's value x against a row
// set's key (p1, p2).
const (
	dBelow = iota // x < p1: no weight with any
	dEq1          // x = p1
	dMid          // p1 < x < p2
	dEq2          // x = p2 > p1
	dAbove        // x > p2
)

// diagJoin is one join a row set's count takes under the diagonal
// symmetry: the west column sets of the classes in mask west with the
// east ones of the classes in east, counted weight times.
type diagJoin struct {
	west, east uint8
	weight     uint64
}

// diagJoins lists the joins of a row set with key (p1, p2):
//
//	min(u, v) > p1: weight 2;
//	min(u, v) = p1: weight 2 when max(u, v) > p2, 1 when it is p2, else 0;
//	min(u, v) < p1: weight 0.
func diagJoins(p1, p2 uint32) []diagJoin {
	const above = 1<<dMid | 1<<dEq2 | 1<<dAbove
	js := []diagJoin{
		{above, above, 2},
		{1 << dEq1, 1 << dAbove, 2},
		{1 << dAbove, 1 << dEq1, 2},
	}
	if p1 == p2 {
		return append(js, diagJoin{1 << dEq1, 1 << dEq1, 1})
	}
	return append(js, diagJoin{1 << dEq1, 1 << dEq2, 1}, diagJoin{1 << dEq2, 1 << dEq1, 1})
}

// diagEqual and diagLess are diagJoins for p1 = p2 and p1 < p2, made
// once.
var diagEqual, diagLess = diagJoins(0, 0), diagJoins(0, 1)

// diagFor returns the joins of row set key (p1, p2).
func diagFor(p1, p2 uint32) []diagJoin {
	if p1 == p2 {
		return diagEqual
	}
	return diagLess
}

// classOf returns the class of value x against key (p1, p2).
func classOf(x, p1, p2 uint32) uint8 {
	switch {
	case x < p1:
		return dBelow
	case x == p1:
		return dEq1
	case x < p2:
		return dMid
	case x == p2:
		return dEq2
	}
	return dAbove
}

// diagOK reports whether f's count may use the diagonal symmetry: an
// even cut with no band and no queen placed, so that the reflection maps
// the cut, and every row set's completions, onto themselves.
func (f *frame) diagOK() bool {
	g := f.g
	full := uint32(1)<<uint(f.q) - 1
	return g.WC == 0 && g.WR == 0 && g.square() && f.q > 0 &&
		f.ft == full && f.fb == full && f.cw == full && f.ce == full
}

// half c of a set of q rows or columns: the lesser of a and its
// complement.
func (f *frame) halfClass(a uint32) uint32 {
	full := uint32(1)<<uint(f.q) - 1
	return min(a, full^a)
}

// revClass is halfClass of b reversed (a south row set or an east column
// set, read as its mirror image in the north or west).
func (f *frame) revClass(b uint32) uint32 {
	return f.halfClass(bits.Reverse32(b) >> uint(32-f.q))
}

// diagKey returns the key (p1, p2) of row set (rt, rb).
func (f *frame) diagKey(rt, rb uint32) (p1, p2 uint32) {
	a, b := f.halfClass(rt), f.revClass(rb)
	return min(a, b), max(a, b)
}

// colValue is the value of the half boards of side (0 west, 1 east)
// whose north entries take the columns c: that of their south columns.
func (f *frame) colValue(side int, c uint32) uint32 {
	south := f.sides[side].cols &^ c
	if side == 0 {
		return f.halfClass(south)
	}
	return f.revClass(south)
}
