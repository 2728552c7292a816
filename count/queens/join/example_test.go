package join_test

import (
	"context"
	"fmt"

	"github.com/nqcount/nqcount/count/queens/join"
)

// Counting the 10-queens solutions by the join: lay out the board's cut
// in tasks, then count every task (in any order, on any goroutine) and
// add; here on the bounded path, which holds only each task's rows.
func Example() {
	l, err := join.NewLayout(join.Cut(10), 0)
	if err != nil {
		panic(err)
	}
	c, err := join.NewCounter(l, join.Best(), join.CounterOptions{Bounded: true})
	if err != nil {
		panic(err)
	}
	var total uint64
	for id := range l.Len() {
		n, _, err := c.Count(context.Background(), id, nil)
		if err != nil {
			panic(err)
		}
		total += n
	}
	fmt.Println(l.Len() > 1, total)
	// Output: true 724
}
