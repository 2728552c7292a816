package logic_test

import (
	"encoding/json"
	"fmt"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/logic"
)

func Example() {
	g, err := sudoku.Parse("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
	if err != nil {
		fmt.Println(err)
		return
	}
	// The next step, as a board shows it.
	h, _ := logic.Hint(g)
	fmt.Println(h.Text)
	fmt.Println(h.Placements, h.Houses)

	// The whole solve.
	ex, _ := logic.Explain(g)
	fmt.Println(len(ex.Steps), "steps, solution", ex.Solution)
	r := ex.Rating
	fmt.Printf("score %.1f (%s)\n", r.Score, r.Level)
	for _, u := range r.Techniques {
		fmt.Printf("%s x%d\n", u.Name, u.Count)
	}

	// A harder one, rated.
	g, _ = sudoku.Parse("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........")
	r, _ = logic.Rate(g)
	fmt.Printf("score %.1f (%s), hardest: %s\n", r.Score, r.Level, r.Techniques[len(r.Techniques)-1].Name)
	// Output:
	// r2c2 can only be 6: hidden single in box 1, the only place for 6 there
	// [r2c2=6] [box 1]
	// 49 steps, solution 483921657967345821251876493548132976729564138136798245372689514814253769695417382
	// score 1.2 (singles)
	// full house x20
	// hidden single x29
	// score 8.3 (hard), hardest: forcing chain
}

// A step as the web app receives it.
func ExampleStep() {
	g, _ := sudoku.Parse(".1.6...8.3.2..........49.....83...........4.7......5..46..........2...9.7...5....")
	ex, _ := logic.Explain(g)
	for _, st := range ex.Steps {
		if st.Technique == "x-chain" {
			b, _ := json.Marshal(st)
			fmt.Println(string(b))
			break
		}
	}
	// Output:
	// {"technique":"x-chain","score":6.6,"text":"x-chain on 4: (4)r1c3 = (4)r1c9 - (4)r2c8 = (4)r9c8 - (4)r9c4 = (4)r6c4: r1c3 or r6c4 is 4, so r6c3 cannot be 4","placements":[],"eliminations":[{"cell":47,"digit":4}],"cells":[2,8,16,48,75,79],"houses":[],"marks":[{"cell":2,"digit":4,"color":1},{"cell":8,"digit":4,"color":0},{"cell":16,"digit":4,"color":1},{"cell":79,"digit":4,"color":0},{"cell":75,"digit":4,"color":1},{"cell":48,"digit":4,"color":0}],"links":[{"from":{"cell":2,"digit":4},"to":{"cell":8,"digit":4},"strong":true},{"from":{"cell":8,"digit":4},"to":{"cell":16,"digit":4},"strong":false},{"from":{"cell":16,"digit":4},"to":{"cell":79,"digit":4},"strong":true},{"from":{"cell":79,"digit":4},"to":{"cell":75,"digit":4},"strong":false},{"from":{"cell":75,"digit":4},"to":{"cell":48,"digit":4},"strong":true}]}
}
