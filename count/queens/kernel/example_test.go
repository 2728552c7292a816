package kernel_test

import (
	"fmt"

	"github.com/nqcount/nqcount/count/queens/kernel"
)

// A frame for the whole 6×6 board, counted by the portable kernel: every
// row free, nothing attacked yet.
func ExampleLookup() {
	k, err := kernel.Lookup("generic")
	if err != nil {
		panic(err)
	}
	var f kernel.Frame
	f.Empty(6)
	solutions, _, err := k.Count(&f)
	if err != nil {
		panic(err)
	}
	fmt.Println(k.Name, solutions)
	// Output: generic 4
}

// A long search counted in slices: Run returns after about the budget,
// with the search's stack kept in s, and the next Run resumes it. Between
// slices a caller checks for cancellation and reports progress.
func ExampleKernel_Run() {
	k := kernel.Best()
	var f kernel.Frame
	f.Empty(10)
	var s kernel.Search
	if err := s.Reset(&f); err != nil {
		panic(err)
	}
	slices := 0
	for !k.Run(&s, 1000) {
		slices++ // here: if ctx.Err() != nil { return ctx.Err() }
	}
	fmt.Println(s.Solutions(), slices > 10)
	// Output: 724 true
}
