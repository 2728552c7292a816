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
	solutions, _ := k.Count(&f)
	fmt.Println(k.Name, solutions)
	// Output: generic 4
}
