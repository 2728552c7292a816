package join_test

import (
	"context"
	"fmt"

	"github.com/nqcount/nqcount/count/queens/join"
)

// Counting the 10-queens solutions by the join: plan the board's cut,
// then count every task (in any order, on any goroutine) and add.
func Example() {
	p, err := join.NewPlan(join.Geometries(10)[0])
	if err != nil {
		panic(err)
	}
	c, err := join.NewCounter(p, join.Best())
	if err != nil {
		panic(err)
	}
	var total uint64
	for id := range p.Tasks {
		n, _, err := c.Count(context.Background(), id, nil)
		if err != nil {
			panic(err)
		}
		total += n
	}
	fmt.Println(len(p.Tasks) > 1, total)
	// Output: true 724
}
