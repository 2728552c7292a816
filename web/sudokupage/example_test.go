package sudokupage_test

import (
	"fmt"

	"github.com/nqcount/nqcount/web/sudokupage"
)

func ExampleFormatGame() {
	text, _ := sudokupage.FormatGame(sudokupage.Game{
		Puzzle:   "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
		Progress: "46..3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........",
		Seconds:  75,
	}, sudokupage.FormatLine)
	fmt.Print(text)
	// Output:
	// # sudoku game saved by 'sudoku play'
	// # 'sudoku solve FILE' solves the puzzle; 'sudoku play' loads the whole game.
	// 4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........
	// # progress: 46..3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........
	// # seconds: 75
}

// The page names a technique in a hint's sentence by its catalogue key,
// and says the hint's answers that are not steps from its templates.
func ExampleTechniqueKey() {
	fmt.Println(sudokupage.TechniqueKey(sudokupage.TechniqueName("Naked Pair", 3.0)))
	fmt.Println(sudokupage.AnswerMessages()["s.ans.solved"])
	// Output:
	// s.tn.naked-pair
	// The puzzle is solved.
}

// ExampleGlossaryKeys lists the catalogue keys of the page's glossary,
// which a translator's catalogue must hold (the tests check every one).
func ExampleGlossaryKeys() {
	keys := sudokupage.GlossaryKeys()
	fmt.Println(len(keys) > 0, keys[0] != "")
	// Output: true true
}
