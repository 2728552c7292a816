package logic

import (
	"context"
	"fmt"
	"strings"

	"github.com/nqcount/nqcount/count/sudoku"
)

// Candidates are the digits a player still allows in each cell, as the
// pencil marks of a board show them: bit d-1 of Candidates[c] for digit d
// in cell c (0x1FF: every digit). Filled cells are ignored. An empty cell
// with no bit set has no marks noted: it allows every digit none of its
// peers holds, as Hint assumes of every cell.
type Candidates [81]uint16

// MissingCandidatesError is returned by HintCandidates when the player's
// candidates have lost digits of the solution: the candidates removed by
// mistake, which no logical step can bring back.
type MissingCandidatesError struct {
	// Missing are the solution's digits absent from their cell's
	// candidates, by cell.
	Missing []Move
}

func (e *MissingCandidatesError) Error() string {
	parts := make([]string, len(e.Missing))
	for i, m := range e.Missing {
		parts[i] = fmt.Sprintf("%d in %s", m.Digit, sudoku.CellName(m.Cell))
	}
	return "the solution needs candidates that were removed: " + strings.Join(parts, ", ")
}

// HintCandidates returns the next step of a logical solve from the board
// g and the candidates the player keeps: the easiest step the techniques
// find on those candidates (where Hint works them out afresh from the
// digits), so that a step's eliminations, once applied to the candidates,
// let the next hint move on. Each cell's candidates are first narrowed to
// the digits none of its peers holds. Candidates that lack a digit of the
// solution give a *MissingCandidatesError; the other errors are Hint's.
// Applying step after step to g and cands (a placement fills its cell and
// removes its digit from the peers' candidates, an elimination removes a
// candidate) always reaches the solution: every step changes the board,
// and the solver's last resort places a digit of the solution.
func HintCandidates(ctx context.Context, g sudoku.Grid, cands Candidates) (Step, error) {
	s, b, err := start(ctx, g)
	if err != nil {
		return Step{}, err
	}
	if b.left() == 0 {
		return Step{}, ErrSolved
	}
	var missing []Move
	for c := 0; c < 81; c++ {
		m := cands[c] & 0x1FF
		if b.val[c] != 0 || m == 0 {
			continue
		}
		if d := int(s.sol[c]); m>>(d-1)&1 == 0 {
			missing = append(missing, Move{c, d})
			continue
		}
		b.cand[c] &= m
	}
	if len(missing) > 0 {
		return Step{}, &MissingCandidatesError{Missing: missing}
	}
	return s.next(&b, 1<<30)
}
