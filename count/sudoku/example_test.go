package sudoku_test

import (
	"context"
	"fmt"

	"github.com/nqcount/nqcount/count/sudoku"
)

func Example() {
	g, err := sudoku.Parse("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........")
	if err != nil {
		fmt.Println(err)
		return
	}
	n, sol := sudoku.Solve(g, 2) // stop at 2: enough to tell unique
	fmt.Println(n, sol)

	// Blank the first row of the solution: how many ways to refill it?
	for i := 0; i < 9; i++ {
		sol[i] = 0
	}
	res, _ := sudoku.Count(context.Background(), sol, sudoku.CountOptions{})
	fmt.Println(res.Count)

	_, err = sudoku.Parse("1...1" + "............................................................................")
	fmt.Println(err)
	// Output:
	// 1 468931527751624839392578461134756298289413675675289314846192753513867942927345186
	// 1
	// givens clash: r1c1 and r1c5 are both 1 in row 1
}
