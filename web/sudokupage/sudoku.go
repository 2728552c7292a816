package sudokupage

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/generate"
	"github.com/nqcount/nqcount/count/sudoku/logic"
	"github.com/nqcount/nqcount/web"
)

// The Sudoku endpoints. A grid is a string of 81 characters, row by row,
// '.' or '0' for an empty cell; cells are numbered 0-80 row by row.

// gridRequest is the body of validate, solve and rate.
type gridRequest struct {
	Grid string `json:"grid"`
}

// parseGrid reads an API grid: exactly 81 characters of '.', '0'-'9'. It
// accepts clashing digits (the answers report them). Characters are
// counted as characters, not bytes: a full-width digit is one character
// (and not a digit).
func parseGrid(field, s string) (sudoku.Grid, *web.Error) {
	var g sudoku.Grid
	if n := utf8.RuneCountInString(s); n != 81 {
		return g, web.BadRequest("%s: %d characters, want 81 (row by row, '.' or '0' for an empty cell)", field, n)
	}
	i := 0
	for _, c := range s {
		switch {
		case c == '.' || c == '0':
		case c >= '1' && c <= '9':
			g[i] = uint8(c - '0')
		default:
			return g, web.BadRequest("%s: character %d is %q, not a digit or '.'", field, i+1, string(c))
		}
		i++
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
			clues := "clues"
			if v.Clues == 1 {
				clues = "clue"
			}
			v.Message += fmt.Sprintf(" (%d %s; a unique puzzle needs at least 17.)", v.Clues, clues)
		}
	}
	return v, sol
}

func (p *page) validate(_ context.Context, req *gridRequest) (Validation, *web.Error) {
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

func (p *page) solve(_ context.Context, req *gridRequest) (Solution, *web.Error) {
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

func (p *page) count(ctx context.Context, req *countRequest) (CountAnswer, *web.Error) {
	g, e := parseGrid("grid", req.Grid)
	if e != nil {
		return CountAnswer{}, e
	}
	limit := req.Limit
	if limit == 0 {
		limit = DefaultCountLimit
	}
	if limit > MaxCountLimit {
		return CountAnswer{}, web.BadRequest("limit %d: at most %d here (the command 'sudoku count' has no limit)", limit, MaxCountLimit)
	}
	out := CountAnswer{Limit: limit, Clashes: []int{}}
	if cs, _ := clashes(g); len(cs) > 0 {
		out.Clashes = cs
		return out, nil
	}
	ctx, cancel := context.WithTimeout(ctx, countTimeout)
	defer cancel()
	res, err := sudoku.Count(ctx, g, sudoku.CountOptions{Limit: limit, Workers: p.opt.Workers})
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return CountAnswer{}, web.Errorf(http.StatusUnprocessableEntity, "the count did not finish within %v: use 'sudoku count' on the command line", countTimeout)
		}
		return CountAnswer{}, web.Errorf(http.StatusUnprocessableEntity, "%s", err)
	}
	out.Count = res.Count.Lo // at most MaxCountLimit
	out.LimitReached = res.LimitReached
	out.Seconds = res.Seconds
	return out, nil
}

// Rating is the answer of rate: logic.Rate's rating (score, level,
// techniques, steps) and a sentence.
type Rating struct {
	logic.Rating
	// Text says the rating in words.
	Text string `json:"text"`
}

// hardTimeout bounds the human-style solver's work for one request: on
// the hardest puzzles a step (a nested forcing chain) takes a second or
// more, and a whole rating many.
const hardTimeout = 20 * time.Second

func (p *page) rate(ctx context.Context, req *gridRequest) (Rating, *web.Error) {
	g, e := parseGrid("grid", req.Grid)
	if e != nil {
		return Rating{}, e
	}
	if _, msg := clashes(g); msg != "" {
		return Rating{}, web.BadRequest("cannot rate: %s", msg)
	}
	ctx, cancel := context.WithTimeout(ctx, hardTimeout)
	defer cancel()
	r, err := logic.RateContext(ctx, g, 0)
	if err != nil {
		return Rating{}, logicError("rate", err)
	}
	names := make([]string, len(r.Techniques))
	for i, t := range r.Techniques {
		names[i] = t.Name
	}
	text := fmt.Sprintf("%s, score %.1f: %d steps, using %s", r.Level, r.Score, r.Steps, strings.Join(names, ", "))
	return Rating{Rating: r, Text: text}, nil
}

// logicError turns an error of package logic into an answer: a puzzle
// without exactly one solution is a bad request, a solve that ran out of
// time cannot be processed.
func logicError(what string, err error) *web.Error {
	var nu *sudoku.ErrNotUnique
	var pe *sudoku.ParseError
	switch {
	case errors.As(err, &nu), errors.As(err, &pe):
		return web.BadRequest("cannot %s: %v", what, err)
	case errors.Is(err, context.DeadlineExceeded):
		return web.Errorf(http.StatusUnprocessableEntity, "cannot %s: the logical solve did not finish within %v (try 'sudoku explain')", what, hardTimeout)
	}
	return web.Errorf(http.StatusUnprocessableEntity, "cannot %s: %v", what, err)
}

// generateRequest is the body of generate.
type generateRequest struct {
	Difficulty string `json:"difficulty"`
	Score      string `json:"score"`
	Symmetry   string `json:"symmetry"`
	Seed       string `json:"seed"`
	Index      int    `json:"index"`
}

// maxIndex bounds generate's index (the command's --first).
const maxIndex = 1 << 30

// generateTries bounds the solution grids tried for one puzzle: a score
// range that few puzzles reach is refused rather than searched for
// without end.
const generateTries = 2000

// Generated is the answer of generate: a puzzle with exactly one
// solution, and what reproduces it.
type Generated struct {
	Puzzle   string  `json:"puzzle"`
	Level    string  `json:"level"`
	Score    float64 `json:"score"`
	Symmetry string  `json:"symmetry"`
	// Drawn is the symmetry the clue pattern has: Symmetry, or for
	// "random" the one drawn from the seed ("rot180", ...).
	Drawn string `json:"drawn"`
	// Seed is a decimal string: browsers read JSON numbers past 2^53
	// inexactly.
	Seed  string `json:"seed"`
	Index int    `json:"index"`
	Clues int    `json:"clues"`
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

func (p *page) generate(ctx context.Context, req *generateRequest) (Generated, *web.Error) {
	opt := generate.Options{MaxTries: generateTries}
	var err error
	if req.Score != "" {
		if req.Difficulty != "" {
			return Generated{}, web.BadRequest("score and difficulty both ask for a difficulty: give one")
		}
		if opt.MinScore, opt.MaxScore, err = generate.ParseScores(req.Score); err != nil {
			return Generated{}, web.BadRequest("%v", err)
		}
	} else if req.Difficulty != "" {
		if opt.Level, err = sudoku.ParseLevel(req.Difficulty); err != nil {
			return Generated{}, web.BadRequest("%v", err)
		}
	}
	if req.Symmetry != "" {
		if opt.Symmetry, err = generate.ParseSymmetry(req.Symmetry); err != nil {
			return Generated{}, web.BadRequest("%v", err)
		}
	}
	if _, _, err := opt.Scores(); err != nil {
		return Generated{}, web.BadRequest("%v", err)
	}
	if req.Seed == "" {
		opt.Seed = randomSeed()
	} else if opt.Seed, err = strconv.ParseUint(req.Seed, 10, 64); err != nil || opt.Seed == 0 {
		return Generated{}, web.BadRequest("seed %q: want a whole number from 1 to %d, as a string", req.Seed, uint64(1<<64-1))
	}
	if req.Index < 0 || req.Index > maxIndex {
		return Generated{}, web.BadRequest("index %d: want 0 to %d", req.Index, maxIndex)
	}
	ctx, cancel := context.WithTimeout(ctx, hardTimeout)
	defer cancel()
	g, err := generate.One(ctx, opt, req.Index)
	if err != nil {
		return Generated{}, web.Errorf(http.StatusUnprocessableEntity, "no puzzle: %v (try a wider score range)", err)
	}
	cmd := "sudoku generate"
	if req.Score != "" {
		cmd += " --score " + req.Score
	} else {
		cmd += " --difficulty " + g.Level.String()
		if opt.Level == 0 {
			cmd = "sudoku generate --difficulty hard"
		}
	}
	cmd += fmt.Sprintf(" --seed %d", opt.Seed)
	if req.Index > 0 {
		cmd += fmt.Sprintf(" --first %d", req.Index)
	}
	if opt.Symmetry != generate.None {
		cmd += " --symmetry " + opt.Symmetry.String()
	}
	return Generated{Puzzle: g.Puzzle.String(), Level: g.Level.String(), Score: g.Score, Symmetry: opt.Symmetry.String(), Drawn: g.Symmetry.String(),
		Seed: strconv.FormatUint(opt.Seed, 10), Index: req.Index, Clues: g.Puzzle.Clues(), Command: cmd}, nil
}

// hintRequest is the body of hint: the board as it stands, the
// candidates the player keeps and, to find mistakes, the puzzle's givens.
type hintRequest struct {
	Puzzle string `json:"puzzle"`
	Grid   string `json:"grid"`
	// Candidates are the digits still allowed in each cell, 81 strings
	// (ignored for filled cells; "" for an empty cell: not noted, every
	// digit its peers allow). Absent: candidates from the digits alone.
	Candidates []string `json:"candidates"`
}

// parseCandidates reads the candidates of a hint request: 81 strings of
// digits 1-9.
func parseCandidates(cs []string) (logic.Candidates, *web.Error) {
	var out logic.Candidates
	if len(cs) != 81 {
		return out, web.BadRequest("candidates: %d entries, want 81 (one string of digits per cell, row by row)", len(cs))
	}
	for i, c := range cs {
		if len(c) > 9 {
			return out, web.BadRequest("candidates: %s has %d characters, want at most the 9 digits", sudoku.CellName(i), len(c))
		}
		for j := 0; j < len(c); j++ {
			d := c[j]
			if d < '1' || d > '9' {
				return out, web.BadRequest("candidates: %s has %q, want digits 1-9", sudoku.CellName(i), c)
			}
			out[i] |= 1 << (d - '1')
		}
	}
	return out, nil
}

// hint answers the hint request with the step in a player's words too.
func (p *page) hint(ctx context.Context, req *hintRequest) (Hint, *web.Error) {
	st, e := p.step(ctx, req)
	if e != nil {
		return Hint{}, e
	}
	return HintOf(st), nil
}

// step finds the next step of a hint request: a solving step, or an
// answer (a clash, a mistake, the end).
func (p *page) step(ctx context.Context, req *hintRequest) (logic.Step, *web.Error) {
	g, e := parseGrid("grid", req.Grid)
	if e != nil {
		return logic.Step{}, e
	}
	var cands logic.Candidates
	if req.Candidates != nil {
		if cands, e = parseCandidates(req.Candidates); e != nil {
			return logic.Step{}, e
		}
	}
	if req.Puzzle != "" {
		p, e := parseGrid("puzzle", req.Puzzle)
		if e != nil {
			return logic.Step{}, e
		}
		for i, v := range p {
			if v != 0 && g[i] != v {
				return logic.Step{}, web.BadRequest("grid: %s is %d in the puzzle but %s on the board", sudoku.CellName(i), v, cellDigit(g[i]))
			}
		}
		if cs, _ := clashes(g); len(cs) > 0 {
			return clashAnswer(g, cs), nil
		}
		v, sol := check(p)
		switch v.Verdict {
		case VerdictNone:
			return logic.Step{}, web.BadRequest("the puzzle has no solution: %s", v.Message)
		case VerdictSeveral:
			return answer("none", nil, "s.ans.several-puzzle"), nil
		}
		var wrong []int
		for i := range g {
			if g[i] != 0 && g[i] != sol[i] {
				wrong = append(wrong, i)
			}
		}
		if len(wrong) > 0 {
			return wrongAnswer(wrong), nil
		}
	} else if cs, _ := clashes(g); len(cs) > 0 {
		return clashAnswer(g, cs), nil
	}
	ctx, cancel := context.WithTimeout(ctx, hardTimeout)
	defer cancel()
	var st logic.Step
	var err error
	if req.Candidates != nil {
		st, err = logic.HintCandidates(ctx, g, cands)
	} else {
		st, err = logic.HintContext(ctx, g)
	}
	var nu *sudoku.ErrNotUnique
	var mc *logic.MissingCandidatesError
	switch {
	case err == nil:
		return st, nil
	case errors.Is(err, logic.ErrSolved):
		return answer("solved", nil, "s.ans.solved"), nil
	case errors.As(err, &nu) && nu.Solutions == 0:
		return answer("mistake", nil, "s.ans.no-solution"), nil
	case errors.As(err, &nu):
		return answer("none", nil, "s.ans.several-digits"), nil
	case errors.As(err, &mc):
		return missingAnswer(mc.Missing), nil
	}
	return logic.Step{}, logicError("find a hint", err)
}

func cellDigit(v uint8) string {
	if v == 0 {
		return "empty"
	}
	return strconv.Itoa(int(v))
}
