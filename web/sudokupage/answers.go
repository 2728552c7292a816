package sudokupage

import (
	"maps"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/logic"
)

// answerMessages are the English templates of the hint's answers that
// are not steps (a clash, mistakes, the end), by their keys in the
// page's catalogues: the answer's Text is its message in English, and the
// page says it in the player's language, as it does a step's.
var answerMessages = map[string]string{
	"s.ans.clash":          "{cell1} and {cell2} are both {digit} in {house}: one of them has to change.",
	"s.ans.several-puzzle": "The puzzle has several solutions: logic cannot tell which digit goes where.",
	"s.ans.wrong-one":      "{cells} is wrong: erase before going on.",
	"s.ans.wrong":          "{cells} are wrong: erase before going on.",
	"s.ans.solved":         "The puzzle is solved.",
	"s.ans.no-solution":    "These digits have no solution: one of them is wrong.",
	"s.ans.several-digits": "These digits have several solutions: logic cannot tell which digit goes where.",
	"s.ans.missing-one":    "Mistake: a candidate the solution needs was removed ({missing}): put it back.",
	"s.ans.missing":        "Mistake: candidates the solution needs were removed ({missing}): put them back.",
}

// AnswerMessages returns the English templates of the hint's answers that
// are not steps, by key (as logic.Messages does the steps'): the page's
// catalogues have these keys too, with the same placeholders.
func AnswerMessages() map[string]string { return maps.Clone(answerMessages) }

// answer is a hint that is not a solving step: a clash, mistakes, the
// end; its text is the message key with args, in English.
func answer(technique string, cells []int, key string, args ...logic.Arg) logic.Step {
	if cells == nil {
		cells = []int{}
	}
	st := logic.Step{Technique: technique, Cells: cells, Placements: []logic.Move{},
		Eliminations: []logic.Move{}, Houses: []logic.House{}, Marks: []logic.Mark{}, Links: []logic.Link{}}
	st.Message = logic.Message{Key: key, Args: args}
	st.Text = st.Message.Render(answerMessages)
	return st
}

// clashAnswer is the answer for a grid with clashing digits cs: the first
// clash named.
func clashAnswer(g sudoku.Grid, cs []int) logic.Step {
	a, b := firstClash(g)
	return answer("clash", cs, "s.ans.clash",
		logic.Arg{Name: "cell1", Kind: "cell", Cells: []int{a}}, logic.Arg{Name: "cell2", Kind: "cell", Cells: []int{b}},
		logic.Arg{Name: "digit", Kind: "digit", Digits: []int{int(g[a])}}, logic.Arg{Name: "house", Kind: "house", Houses: []logic.House{sharedHouseOf(a, b)}})
}

// wrongAnswer is the mistake of digits that differ from the solution.
func wrongAnswer(wrong []int) logic.Step {
	key := "s.ans.wrong"
	if len(wrong) == 1 {
		key = "s.ans.wrong-one"
	}
	return answer("mistake", wrong, key, logic.Arg{Name: "cells", Kind: "cells", Cells: wrong, And: true})
}

// missingAnswer is the mistake of candidates removed that the solution
// needs: the cells, and the candidates to put back as the step's marks.
func missingAnswer(missing []logic.Move) logic.Step {
	cells := make([]int, len(missing))
	var marks []logic.Mark
	for i, m := range missing {
		cells[i] = m.Cell
		marks = append(marks, logic.Mark{Cell: m.Cell, Digit: m.Digit, Color: 1})
	}
	key := "s.ans.missing"
	if len(missing) == 1 {
		key = "s.ans.missing-one"
	}
	st := answer("mistake", cells, key, logic.Arg{Name: "missing", Kind: "candidates", Moves: missing})
	st.Marks = marks
	return st
}
