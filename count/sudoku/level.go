package sudoku

import (
	"fmt"
	"math"
	"strings"
)

// Level names a range of difficulty scores on the Sudoku Explainer-like
// scale of package logic (count/sudoku/logic), where a puzzle's score is
// that of the hardest technique its solve needs. The names are those of
// the first, four-level rater, kept so that scripts keep working; on this
// scale a naked single (2.3) rates above a hidden single (1.2-1.5).
type Level int

// The levels, easiest first.
const (
	// Singles: scores 1.0-1.5. Full houses and hidden singles (a digit with
	// one place left in a row, column or box) suffice.
	Singles Level = iota + 1
	// Hidden: scores 1.6-2.5. Singles of both kinds: the solve needs a
	// naked single (a cell with one candidate left, 2.3).
	Hidden
	// Intermediate: scores 2.6-3.4. Needs pointing or claiming (locked
	// candidates), a naked or hidden pair or an X-Wing.
	Intermediate
	// Hard: scores 3.5 and up: triples, quads, fish, wings, coloring,
	// chains, forcing chains, and guessing (12.0) past the scale's end.
	Hard
)

// Levels lists the levels in order.
var Levels = []Level{Singles, Hidden, Intermediate, Hard}

// MinScore and MaxScore bound the difficulty scale: 1.0 is a full house,
// 12.0 a puzzle the logical solver cannot finish without guessing.
const (
	MinScore = 1.0
	MaxScore = 12.0
)

var levelNames = map[Level]string{Singles: "singles", Hidden: "hidden", Intermediate: "intermediate", Hard: "hard"}

// levelTop is the highest score of each level, in tenths.
var levelTop = [...]int{Singles: 15, Hidden: 25, Intermediate: 34, Hard: 120}

// String returns the level's name, as ParseLevel reads it.
func (l Level) String() string {
	if s, ok := levelNames[l]; ok {
		return s
	}
	return fmt.Sprintf("Level(%d)", int(l))
}

// Valid reports whether l is one of Levels.
func (l Level) Valid() bool { return l >= Singles && l <= Hard }

// Scores returns the lowest and the highest score of the level, both
// included (scores have one decimal). It returns 0, 0 for an invalid
// level.
func (l Level) Scores() (lo, hi float64) {
	if !l.Valid() {
		return 0, 0
	}
	lo = MinScore
	if l > Singles {
		lo = float64(levelTop[l-1]+1) / 10
	}
	return lo, float64(levelTop[l]) / 10
}

// LevelOf returns the level whose range holds score (rounded to one
// decimal); scores below the scale are Singles, above it Hard.
func LevelOf(score float64) Level {
	t := int(math.Round(score * 10))
	for _, l := range Levels {
		if t <= levelTop[l] {
			return l
		}
	}
	return Hard
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
	for _, l := range Levels {
		if strings.EqualFold(s, levelNames[l]) {
			return l, nil
		}
	}
	return 0, fmt.Errorf("unknown difficulty %q: choose singles, hidden, intermediate or hard", s)
}

// ErrNotUnique is returned for a puzzle without exactly one solution
// where one is needed (rating, explaining, hints).
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
