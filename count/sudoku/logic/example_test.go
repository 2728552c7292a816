package logic_test

import (
	"context"
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

	// The whole solve, rated on the default scale (Sudoku Explainer's).
	ex, _ := logic.Explain(g)
	fmt.Println(len(ex.Steps), "steps, solution", ex.Solution)
	r := ex.Rating
	fmt.Println(r)
	for _, u := range r.Techniques {
		fmt.Printf("%s x%d\n", u.Name, u.Count)
	}

	// A harder one, rated on both scales.
	g, _ = sudoku.Parse("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........")
	r, _ = logic.Rate(g)
	fmt.Println(r.Short(), r.Hardest)
	r, _ = logic.RateWith(context.Background(), g, logic.Options{Scale: logic.ScaleClassic})
	fmt.Println(r.Short(), r.Hardest)
	// Output:
	// r2c2 can only be 6: hidden single in box 1, the only place for 6 there
	// [r2c2=6] [box 1]
	// 49 steps, solution 483921657967345821251876493548132976729564138136798245372689514814253769695417382
	// ER 1.2 EP 1.2 ED 1.2 (Hidden Single) [se scale, rater 2.0]
	// Hidden Single x49
	// hard 9.0/1.2/1.2 [se 2.0] Dynamic Contradiction Forcing Chains
	// hard 8.3/1.2/1.2 [classic 2.0] forcing chain
}

// A step as the web app receives it: the first one with a chain's links.
func ExampleStep() {
	g, _ := sudoku.Parse(".1.6...8.3.2..........49.....83...........4.7......5..46..........2...9.7...5....")
	ex, _ := logic.Explain(g)
	for _, st := range ex.Steps {
		if len(st.Links) > 0 {
			b, _ := json.Marshal(st)
			fmt.Println(string(b))
			break
		}
	}
	// Output:
	// {"technique":"3 Skyscrapers 0111","score":5.4,"text":"3 skyscrapers 0111 on 4: r1c3 = r1c9 (row 1) - r8c9 = r8c6 (row 8) - r4c6 = r4c2 (row 4); one of the chain's ends is 4, so r2c2, r6c3 cannot be 4","placements":[],"eliminations":[{"cell":10,"digit":4},{"cell":47,"digit":4}],"cells":[2,8,28,32,68,71],"houses":[{"kind":"row","index":0},{"kind":"row","index":7},{"kind":"row","index":3}],"marks":[{"cell":2,"digit":4,"color":0},{"cell":8,"digit":4,"color":0},{"cell":71,"digit":4,"color":0},{"cell":68,"digit":4,"color":0},{"cell":32,"digit":4,"color":0},{"cell":28,"digit":4,"color":0}],"links":[{"from":{"cell":2,"digit":4},"to":{"cell":8,"digit":4},"strong":true},{"from":{"cell":8,"digit":4},"to":{"cell":71,"digit":4},"strong":false},{"from":{"cell":71,"digit":4},"to":{"cell":68,"digit":4},"strong":true},{"from":{"cell":68,"digit":4},"to":{"cell":32,"digit":4},"strong":false},{"from":{"cell":32,"digit":4},"to":{"cell":28,"digit":4},"strong":true}]}
}

// The techniques of each scale, in the order the solver tries them, with
// their scores.
func ExampleTechniquesOf() {
	for _, sc := range logic.Scales {
		ts := logic.TechniquesOf(sc)
		fmt.Println(sc, len(ts), "techniques, from", ts[0].Name, "to", ts[len(ts)-1].Name)
		for _, t := range ts[:4] {
			fmt.Printf("  %s %.1f-%.1f\n", t.Name, t.Score, t.MaxScore)
		}
	}
	fmt.Println(len(logic.Techniques()) == len(logic.TechniquesOf(logic.ScaleSE)))
	// Output:
	// se 39 techniques, from Hidden Single to Nested Forcing Chains (+ Dynamic Forcing Chains (+ Multiple Forcing Chains))
	//   Hidden Single 1.0-1.5
	//   Direct Pointing 1.7-1.9
	//   Direct Hidden Pair 2.0-2.0
	//   Naked Single 2.3-2.3
	// classic 25 techniques, from full house to guess
	//   full house 1.0-1.0
	//   hidden single 1.2-1.5
	//   naked single 2.3-2.3
	//   pointing 2.6-2.6
	// true
}

// A solve stopped by its context: a deadline past, or a user who gave up.
func ExampleExplainContext() {
	g, _ := sudoku.Parse("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := logic.ExplainContext(ctx, g)
	fmt.Println(err)
	// Output:
	// context canceled
}

// A page says a step in its reader's language from its Message: the key
// of a template in its catalogue, with the same placeholders as the
// English one Messages gives.
func ExampleMessages() {
	tmpl := logic.Messages()["s.step.hidden-single"]
	fmt.Println(tmpl)
	fmt.Println(logic.Placeholders(tmpl))
	// Output:
	// {cell} can only be {digit}: hidden single in {house}, the only place for {digit} there
	// [cell digit house]
}
