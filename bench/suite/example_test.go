package suite_test

import (
	"fmt"

	"github.com/nqcount/nqcount/bench/suite"
)

// The worker counts a suite measures: powers of two up to P, P itself,
// and on a machine with SMT one worker per physical core.
func ExampleSweep() {
	fmt.Println(suite.Sweep(2, 0))   // 2 CPUs, no SMT
	fmt.Println(suite.Sweep(64, 32)) // 32 cores × 2 threads
	fmt.Println(suite.Sweep(96, 48)) // 48 cores × 2 threads
	// Output:
	// [1 2]
	// [1 2 4 8 16 32 64]
	// [1 2 4 8 16 32 48 64 96]
}

// A machine that counts twice as many solutions per second as one worker
// of the reference machine, with every method at every size of the quick
// suite, scores 2.
func ExampleRef_Score() {
	rates := map[suite.Size]float64{}
	for m, sizes := range suite.QuickSizes {
		for _, n := range sizes {
			sz := suite.Size{Method: m, N: n}
			rates[sz] = 2 * suite.Reference.Rates[sz]
		}
	}
	fmt.Printf("%.2f\n", suite.Reference.Score(rates))
	// Output: 2.00
}
