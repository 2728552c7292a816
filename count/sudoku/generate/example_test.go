package generate_test

import (
	"context"
	"fmt"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/generate"
)

// A puzzle with a symmetric clue pattern, and the check of its symmetry.
func ExampleSymmetric() {
	p, err := generate.One(context.Background(), generate.Options{Level: sudoku.Intermediate, Symmetry: generate.Random, Seed: 42}, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p.Puzzle, p.Score, p.Symmetry)
	fmt.Println(generate.Symmetric(p.Puzzle, p.Symmetry), generate.Symmetric(p.Puzzle, generate.Random))
	// Output:
	// .4.1.6.82....4.1.3.....8.....58....6..93674..7....18.....5.....3.1.8....85.7.3.1. 2.6 rot180
	// true true
}
