package count_test

import (
	"context"
	"fmt"

	"github.com/nqcount/nqcount/count"
)

// Run adds the results of independent tasks exactly, on every core.
func ExampleRun() {
	squares := func(_ context.Context, id int, _ func(nodes uint64)) (count.Result, error) {
		return count.Result{Count: uint64(id * id), Nodes: 1}, nil
	}
	tot, err := count.Run(context.Background(), count.All(100), squares, count.Options{Workers: 4})
	if err != nil {
		panic(err)
	}
	fmt.Println(tot.Count, tot.Tasks)
	// Output: 328350 100
}
