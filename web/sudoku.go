package web

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/nqcount/nqcount/count/sudoku"
)

// The Sudoku endpoints. A grid is a string of 81 characters, row by row,
// '.' or '0' for an empty cell; cells are numbered 0-80 row by row.

// gridRequest is the body of validate, solve and rate.
type gridRequest struct {
	Grid string `json:"grid"`
}

// parseGrid reads an API grid: exactly 81 characters of '.', '0'-'9'. It
// accepts clashing digits (the answers report them).
func parseGrid(field, s string) (sudoku.Grid, *apiError) {
	var g sudoku.Grid
	if len(s) != 81 {
		return g, badRequest("%s: %d characters, want 81 (row by row, '.' or '0' for an empty cell)", field, len(s))
	}
	for i := 0; i < 81; i++ {
		c := s[i]
		switch {
		case c == '.' || c == '0':
		case c >= '1' && c <= '9':
			g[i] = c - '0'
		default:
			return g, badRequest("%s: character %d is %q, not a digit or '.'", field, i+1, string(rune(c)))
		}
	}
	return g, nil
}

// Verdict is what a grid's solution count means: "none", "unique" or
// "several".
type Verdict string

// The verdicts.
const (
	VerdictNone    Verdict = "none"
	VerdictUnique  Verdict = "unique"
	VerdictSeveral Verdict = "several"
)

// Validation is the answer of validate: whether the digits clash and how
// many solutions the grid has.
type Validation struct {
	// Clues is the number of filled cells.
	Clues int `json:"clues"`
	// Clashes lists the cells whose digit is also in their row, column or
	// box (none: an empty list).
	Clashes []int `json:"clashes"`
	// Solutions is 0, 1, or 2 for two or more.
	Solutions int `json:"solutions"`
	// Verdict says the same in a word.
	Verdict Verdict `json:"verdict"`
	// Message says it in a sentence.
	Message string `json:"message"`
}

// check validates g: clashes first, then the solver, up to 2 solutions.
// It returns the first solution too.
func check(g sudoku.Grid) (Validation, sudoku.Grid) {
	v := Validation{Clues: g.Clues(), Clashes: []int{}}
	var sol sudoku.Grid
	if cs, msg := clashes(g); len(cs) > 0 {
		v.Clashes, v.Verdict = cs, VerdictNone
		v.Message = "No solution: " + msg + "."
		return v, sol
	}
	n, sol := sudoku.Solve(g, 2)
	v.Solutions = int(n)
	switch n {
	case 0:
		v.Verdict, v.Message = VerdictNone, "No solution: these digits cannot all be right."
	case 1:
		v.Verdict, v.Message = VerdictUnique, "Exactly one solution."
	default:
		v.Verdict, v.Message = VerdictSeveral, "Several solutions: a proper puzzle has exactly one."
		if v.Clues <= 16 {
			v.Message += fmt.Sprintf(" (%d clues; a unique puzzle needs at least 17.)", v.Clues)
		}
	}
	return v, sol
}

func (s *Server) validate(_ context.Context, req *gridRequest) (Validation, *apiError) {
	g, e := parseGrid("grid", req.Grid)
	if e != nil {
		return Validation{}, e
	}
	v, _ := check(g)
	return v, nil
}

// Solution is the answer of solve: the validation and the first solution
// found, if any.
type Solution struct {
	Validation
	// Solution is the first solution found; empty when there is none.
	Solution string `json:"solution,omitempty"`
}

func (s *Server) solve(_ context.Context, req *gridRequest) (Solution, *apiError) {
	g, e := parseGrid("grid", req.Grid)
	if e != nil {
		return Solution{}, e
	}
	v, sol := check(g)
	out := Solution{Validation: v}
	if v.Solutions > 0 {
		out.Solution = sol.String()
	}
	return out, nil
}

// countRequest is the body of count.
type countRequest struct {
	Grid  string `json:"grid"`
	Limit uint64 `json:"limit"`
}

// The solution limits of count: the default and the most it accepts.
const (
	DefaultCountLimit = 1000
	MaxCountLimit     = 100000
)

// countTimeout bounds a count; with MaxCountLimit it is never reached on
// this project's machines, but a request must not hold a server forever.
const countTimeout = 10 * time.Second

// CountAnswer is the answer of count.
type CountAnswer struct {
	// Count is the number of solutions, at most Limit.
	Count uint64 `json:"count"`
	// LimitReached says Count stopped at the limit: there may be more.
	LimitReached bool `json:"limit_reached"`
	// Limit is the limit used.
	Limit uint64 `json:"limit"`
	// Clashes lists clashing cells (then Count is 0).
	Clashes []int   `json:"clashes"`
	Seconds float64 `json:"seconds"`
}

func (s *Server) count(ctx context.Context, req *countRequest) (CountAnswer, *apiError) {
	g, e := parseGrid("grid", req.Grid)
	if e != nil {
		return CountAnswer{}, e
	}
	limit := req.Limit
	if limit == 0 {
		limit = DefaultCountLimit
	}
	if limit > MaxCountLimit {
		return CountAnswer{}, badRequest("limit %d: at most %d here (the command 'sudoku count' has no limit)", limit, MaxCountLimit)
	}
	out := CountAnswer{Limit: limit, Clashes: []int{}}
	if cs, _ := clashes(g); len(cs) > 0 {
		out.Clashes = cs
		return out, nil
	}
	ctx, cancel := context.WithTimeout(ctx, countTimeout)
	defer cancel()
	res, err := sudoku.Count(ctx, g, sudoku.CountOptions{Limit: limit, Workers: s.opt.Workers})
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return CountAnswer{}, &apiError{http.StatusUnprocessableEntity, fmt.Sprintf("the count did not finish within %v: use 'sudoku count' on the command line", countTimeout)}
		}
		return CountAnswer{}, &apiError{http.StatusUnprocessableEntity, err.Error()}
	}
	out.Count = res.Count.Lo // at most MaxCountLimit
	out.LimitReached = res.LimitReached
	out.Seconds = res.Seconds
	return out, nil
}

// Rating is the answer of rate.
type Rating struct {
	// Level is singles, hidden, intermediate or hard.
	Level string `json:"level"`
	// Text says what the level means.
	Text string `json:"text"`
}

var levelText = map[sudoku.Level]string{
	sudoku.Singles:      "naked singles alone solve it",
	sudoku.Hidden:       "it needs hidden singles",
	sudoku.Intermediate: "it needs locked candidates or pairs",
	sudoku.Hard:         "singles, locked candidates and pairs get stuck: it needs harder techniques or trial",
}

func (s *Server) rate(_ context.Context, req *gridRequest) (Rating, *apiError) {
	g, e := parseGrid("grid", req.Grid)
	if e != nil {
		return Rating{}, e
	}
	if _, msg := clashes(g); msg != "" {
		return Rating{}, badRequest("cannot rate: %s", msg)
	}
	lv, err := sudoku.Rate(g)
	if err != nil {
		return Rating{}, badRequest("cannot rate: %v", err)
	}
	return Rating{Level: lv.String(), Text: levelText[lv]}, nil
}

// generateRequest is the body of generate.
type generateRequest struct {
	Difficulty string `json:"difficulty"`
	Seed       string `json:"seed"`
	Index      int    `json:"index"`
	Symmetric  bool   `json:"symmetric"`
}

// maxIndex bounds generate's index (the command's --first).
const maxIndex = 1 << 30

// Generated is the answer of generate: a puzzle with exactly one
// solution, and what reproduces it.
type Generated struct {
	Puzzle string `json:"puzzle"`
	Level  string `json:"level"`
	// Seed is a decimal string: browsers read JSON numbers past 2^53
	// inexactly.
	Seed      string `json:"seed"`
	Index     int    `json:"index"`
	Symmetric bool   `json:"symmetric"`
	Clues     int    `json:"clues"`
	// Command is the sudoku command line that prints the same puzzle.
	Command string `json:"command"`
}

// randomSeed returns a seed below 2^53, so that it survives being a
// number in a script too.
func randomSeed() uint64 {
	var b [8]byte
	if _, err := crand.Read(b[:]); err != nil {
		return uint64(time.Now().UnixNano())>>11 | 1
	}
	return binary.LittleEndian.Uint64(b[:])>>11 | 1
}

func (s *Server) generate(_ context.Context, req *generateRequest) (Generated, *apiError) {
	lv := sudoku.Hard
	if req.Difficulty != "" {
		var err error
		if lv, err = sudoku.ParseLevel(req.Difficulty); err != nil {
			return Generated{}, badRequest("%v", err)
		}
	}
	var seed uint64
	if req.Seed == "" {
		seed = randomSeed()
	} else {
		var err error
		if seed, err = strconv.ParseUint(req.Seed, 10, 64); err != nil || seed == 0 {
			return Generated{}, badRequest("seed %q: want a whole number from 1 to %d, as a string", req.Seed, uint64(1<<64-1))
		}
	}
	if req.Index < 0 || req.Index > maxIndex {
		return Generated{}, badRequest("index %d: want 0 to %d", req.Index, maxIndex)
	}
	g := sudoku.Generate(sudoku.GenerateOptions{Level: lv, Seed: seed, Symmetric: req.Symmetric}, req.Index)
	cmd := fmt.Sprintf("sudoku generate --difficulty %s --seed %d", lv, seed)
	if req.Index > 0 {
		cmd += fmt.Sprintf(" --first %d", req.Index)
	}
	if req.Symmetric {
		cmd += " --symmetric"
	}
	return Generated{Puzzle: g.Puzzle.String(), Level: g.Level.String(), Seed: strconv.FormatUint(seed, 10),
		Index: req.Index, Symmetric: req.Symmetric, Clues: g.Puzzle.Clues(), Command: cmd}, nil
}

// hintRequest is the body of hint: the board as it stands and, to find
// mistakes, the puzzle's givens.
type hintRequest struct {
	Puzzle string `json:"puzzle"`
	Grid   string `json:"grid"`
}

func (s *Server) hint(_ context.Context, req *hintRequest) (Step, *apiError) {
	g, e := parseGrid("grid", req.Grid)
	if e != nil {
		return Step{}, e
	}
	var sol sudoku.Grid
	unique := false
	var p sudoku.Grid
	if req.Puzzle != "" {
		if p, e = parseGrid("puzzle", req.Puzzle); e != nil {
			return Step{}, e
		}
		for i, v := range p {
			if v != 0 && g[i] != v {
				return Step{}, badRequest("grid: %s is %d in the puzzle but %s on the board", sudoku.CellName(i), v, cellDigit(g[i]))
			}
		}
	}
	if cs, msg := clashes(g); len(cs) > 0 {
		return Step{Technique: "clash", Text: msg + ": one of them has to change.", Cells: cs}, nil
	}
	if req.Puzzle != "" {
		v, first := check(p)
		if v.Verdict == VerdictNone {
			return Step{}, badRequest("the puzzle has no solution: %s", v.Message)
		}
		if unique = v.Verdict == VerdictUnique; unique {
			sol = first
			var wrong []int
			for i := range g {
				if g[i] != 0 && g[i] != sol[i] {
					wrong = append(wrong, i)
				}
			}
			if len(wrong) > 0 {
				verb := "is wrong"
				if len(wrong) > 1 {
					verb = "are wrong"
				}
				return Step{Technique: "mistake", Text: fmt.Sprintf("%s %s: erase before going on.", cellList(wrong), verb), Cells: wrong}, nil
			}
		}
	}
	if g.Clues() == 81 {
		return Step{Technique: "solved", Text: "The puzzle is solved.", Cells: []int{}}, nil
	}
	st, err := s.hinter.Hint(g)
	if errors.Is(err, ErrNoStep) {
		if !unique {
			return Step{Technique: "none", Text: "No naked or hidden single is left, and without the puzzle's one solution there is no cell to reveal.", Cells: []int{}}, nil
		}
		// Honest fallback: no technique known here, so reveal a cell, the
		// empty one with the fewest candidates.
		best, bestN := -1, 10
		for i := range g {
			if g[i] != 0 {
				continue
			}
			used := map[uint8]bool{}
			for _, p := range peersOf(i) {
				used[g[p]] = true
			}
			if n := 9 - len(used) + btoi(used[0]); n < bestN {
				best, bestN = i, n
			}
		}
		d := int(sol[best])
		return Step{
			Technique:  "reveal",
			Text:       fmt.Sprintf("No naked or hidden single is left: the next step needs a harder technique. From the solution, %s is %d.", sudoku.CellName(best), d),
			Placements: []Move{{best, d}},
			Cells:      []int{best},
		}, nil
	}
	if err != nil {
		return Step{}, &apiError{http.StatusUnprocessableEntity, err.Error()}
	}
	if st.Cells == nil {
		st.Cells = []int{}
	}
	return st, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func cellDigit(v uint8) string {
	if v == 0 {
		return "empty"
	}
	return strconv.Itoa(int(v))
}
