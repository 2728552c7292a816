package queens_test

import (
	"context"
	"fmt"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
)

// A count is a plan (what to count: the same tasks on every machine) and
// an Execution (how this machine counts it), resolved once.
func ExampleCount() {
	e := queens.Execution{Workers: 2}.Resolve() // the kernel, memory and path by default
	p, err := queens.NewPlan(queens.Spec{N: 8, Workers: e.Workers, Kernel: e.Kernel})
	if err != nil {
		panic(err)
	}
	res, err := queens.Count(context.Background(), p, e, count.All(p.Len()), queens.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Total, queens.UniqueFrom(8, res.Total), res.Method)
	// Output: 92 12 constellations
}

func ExampleKnown() {
	q, _ := queens.Known(27)
	fmt.Println(q)
	// Output: 234907967154122528
}
