package sudoku

import (
	"fmt"
	"math/bits"
	"strings"
)

// Level is a difficulty level: the hardest solving technique a puzzle
// needs, for a solver that always uses the easiest technique that helps.
type Level int

// The levels, easiest first.
const (
	// Singles: naked singles (a cell with one candidate) suffice.
	Singles Level = iota + 1
	// Hidden: hidden singles (a digit with one place in a row, column or
	// box) are needed too.
	Hidden
	// Intermediate: locked candidates (pointing, box/line reduction) or
	// naked/hidden pairs are needed.
	Intermediate
	// Hard: the techniques above get stuck; solving needs guessing.
	Hard
)

// Levels lists the levels in order.
var Levels = []Level{Singles, Hidden, Intermediate, Hard}

var levelNames = map[Level]string{Singles: "singles", Hidden: "hidden", Intermediate: "intermediate", Hard: "hard"}

// String returns the level's name, as ParseLevel reads it.
func (l Level) String() string {
	if s, ok := levelNames[l]; ok {
		return s
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// MarshalText writes the level's name.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText reads a level's name with ParseLevel.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// ParseLevel reads a level name: singles, hidden, intermediate or hard.
func ParseLevel(s string) (Level, error) {
	for l, n := range levelNames {
		if strings.EqualFold(s, n) {
			return l, nil
		}
	}
	return 0, fmt.Errorf("unknown difficulty %q: choose singles, hidden, intermediate or hard", s)
}

// units lists the 27 houses (9 rows, 9 columns, 9 boxes) by cell index.
var units [27][9]uint8

// unitsOf lists the 3 houses of each cell: row, column, box.
var unitsOf [81][3]uint8

// peers lists the 20 other cells that share a house with each cell.
var peers [81][20]uint8

func init() {
	for i := 0; i < 9; i++ {
		for j := 0; j < 9; j++ {
			units[i][j] = uint8(i*9 + j)
			units[9+i][j] = uint8(j*9 + i)
			units[18+i][j] = uint8((i/3*3+j/3)*9 + i%3*3 + j%3)
		}
	}
	for c := 0; c < 81; c++ {
		unitsOf[c] = [3]uint8{uint8(c / 9), uint8(9 + c%9), uint8(18 + c/27*3 + c%9/3)}
	}
	for c := 0; c < 81; c++ {
		n := 0
		for d := 0; d < 81; d++ {
			if d != c && (d/9 == c/9 || d%9 == c%9 || (d/27 == c/27 && d%9/3 == c%9/3)) {
				peers[c][n] = uint8(d)
				n++
			}
		}
	}
}

// logic is the human-style solver's state: a candidate mask per cell (bit
// d-1 for digit d) and the grid.
type logic struct {
	g    Grid
	cand [81]uint16
	left int
}

func (l *logic) init(g *Grid) bool {
	l.g = Grid{}
	l.left = 81
	for i := range l.cand {
		l.cand[i] = 0x1FF
	}
	for i, v := range g {
		if v != 0 {
			if l.cand[i]&(1<<(v-1)) == 0 {
				return false
			}
			l.place(i, v)
		}
	}
	return true
}

func (l *logic) place(i int, v uint8) {
	l.g[i] = v
	l.cand[i] = 0
	l.left--
	m := ^uint16(1 << (v - 1))
	for _, p := range peers[i] {
		l.cand[p] &= m
	}
}

// nakedSingle places one cell with a single candidate. It returns false if
// there is none; ok is false if an empty cell has no candidate.
func (l *logic) nakedSingle() (placed, ok bool) {
	for i := 0; i < 81; i++ {
		if l.g[i] != 0 {
			continue
		}
		c := l.cand[i]
		if c == 0 {
			return false, false
		}
		if c&(c-1) == 0 {
			l.place(i, uint8(bits.TrailingZeros16(c)+1))
			return true, true
		}
	}
	return false, true
}

// hiddenSingle places a digit that has one place left in some house.
func (l *logic) hiddenSingle() bool {
	for u := range units {
		var once, twice, have uint16
		for _, c := range units[u] {
			if v := l.g[c]; v != 0 {
				have |= 1 << (v - 1)
			}
			x := l.cand[c]
			twice |= once & x
			once |= x
		}
		single := once &^ twice &^ have
		if single == 0 {
			continue
		}
		d := uint16(1) << bits.TrailingZeros16(single)
		for _, c := range units[u] {
			if l.cand[c]&d != 0 {
				l.place(int(c), uint8(bits.TrailingZeros16(d)+1))
				return true
			}
		}
	}
	return false
}

// eliminate removes mask from the candidates of every cell of house u not
// in keep (a 81-bit set as a bool array); it returns true if it removed any.
func (l *logic) eliminate(u int, mask uint16, keep func(c uint8) bool) bool {
	changed := false
	for _, c := range units[u] {
		if l.cand[c]&mask != 0 && !keep(c) {
			l.cand[c] &^= mask
			changed = true
		}
	}
	return changed
}

// lockedCandidates applies pointing (a digit confined to one row or column
// inside a box) and box/line reduction (a digit of a row or column confined
// to one box).
func (l *logic) lockedCandidates() bool {
	for u := 0; u < 27; u++ {
		for d := uint16(1); d < 1<<9; d <<= 1 {
			// Which houses of each kind hold the digit's candidates in u.
			where := [3]int{-2, -2, -2} // common house per kind, or -1
			n := 0
			for _, c := range units[u] {
				if l.cand[c]&d == 0 {
					continue
				}
				n++
				for k := 0; k < 3; k++ {
					h := int(unitsOf[c][k])
					if where[k] == -2 {
						where[k] = h
					} else if where[k] != h {
						where[k] = -1
					}
				}
			}
			if n < 2 {
				continue
			}
			for k := 0; k < 3; k++ {
				h := where[k]
				if h < 0 || h == u {
					continue
				}
				if l.eliminate(h, d, func(c uint8) bool {
					for _, x := range unitsOf[c] {
						if int(x) == u {
							return true
						}
					}
					return false
				}) {
					return true
				}
			}
		}
	}
	return false
}

// pairs applies naked pairs (two cells of a house with the same two
// candidates) and hidden pairs (two digits with the same two places).
func (l *logic) pairs() bool {
	for u := 0; u < 27; u++ {
		cs := &units[u]
		for i := 0; i < 9; i++ {
			a := l.cand[cs[i]]
			if bits.OnesCount16(a) != 2 {
				continue
			}
			for j := i + 1; j < 9; j++ {
				if l.cand[cs[j]] != a {
					continue
				}
				ci, cj := cs[i], cs[j]
				if l.eliminate(u, a, func(c uint8) bool { return c == ci || c == cj }) {
					return true
				}
			}
		}
		// Hidden pairs: place masks (bit = position in the house) per digit.
		var pos [9]uint16
		for p, c := range cs {
			x := l.cand[c]
			for x != 0 {
				d := bits.TrailingZeros16(x)
				x &= x - 1
				pos[d] |= 1 << p
			}
		}
		for d1 := 0; d1 < 9; d1++ {
			if bits.OnesCount16(pos[d1]) != 2 {
				continue
			}
			for d2 := d1 + 1; d2 < 9; d2++ {
				if pos[d2] != pos[d1] {
					continue
				}
				keep := uint16(1)<<d1 | 1<<d2
				changed := false
				m := pos[d1]
				for m != 0 {
					p := bits.TrailingZeros16(m)
					m &= m - 1
					if c := cs[p]; l.cand[c]&^keep != 0 {
						l.cand[c] &= keep
						changed = true
					}
				}
				if changed {
					return true
				}
			}
		}
	}
	return false
}

// run solves as far as the techniques allow and returns the hardest level
// used, and whether the grid got solved. ok is false on a contradiction.
func (l *logic) run() (lv Level, solved, ok bool) {
	lv = Singles
	for l.left > 0 {
		placed, good := l.nakedSingle()
		if !good {
			return lv, false, false
		}
		if placed {
			continue
		}
		if l.hiddenSingle() {
			lv = max(lv, Hidden)
			continue
		}
		if l.lockedCandidates() || l.pairs() {
			lv = max(lv, Intermediate)
			continue
		}
		return Hard, false, true
	}
	return lv, true, true
}

// ErrNotUnique is returned by Rate for a puzzle without exactly one
// solution.
type ErrNotUnique struct {
	// Solutions is 0 or 2 (at least two).
	Solutions uint64
}

// Error says whether there is no solution or more than one.
func (e *ErrNotUnique) Error() string {
	if e.Solutions == 0 {
		return "puzzle has no solution"
	}
	return "puzzle has more than one solution"
}

// Rate returns the difficulty of a puzzle with exactly one solution: the
// hardest technique that a solver applying the easiest helpful technique
// first (naked singles, then hidden singles, then locked candidates and
// pairs) needs, or Hard if those do not solve it. Puzzles without exactly
// one solution give an *ErrNotUnique; clashing givens a *ParseError.
func Rate(g Grid) (Level, error) {
	if err := g.Check(); err != nil {
		return 0, err
	}
	if n, _ := Solve(g, 2); n != 1 {
		return 0, &ErrNotUnique{Solutions: n}
	}
	return rateUnique(&g), nil
}

// rateUnique rates a puzzle known to have one solution.
func rateUnique(g *Grid) Level {
	var l logic
	if !l.init(g) {
		return Hard
	}
	lv, _, _ := l.run()
	return lv
}
