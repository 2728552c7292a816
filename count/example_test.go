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

// RunBatches hands each worker a batch of tasks that share work: here
// each batch computes its base once for all of its tasks.
func ExampleRunBatches() {
	batches := [][]int{{0, 1, 2}, {3, 4}, {5}}
	offsets := func(_ context.Context, ids []int, _ func(nodes uint64)) ([]count.Result, error) {
		base := uint64(100 * len(ids)) // what the batch's tasks share
		rs := make([]count.Result, len(ids))
		for i, id := range ids {
			rs[i] = count.Result{Count: base + uint64(id), Nodes: 1}
		}
		return rs, nil
	}
	tot, err := count.RunBatches(context.Background(), batches, offsets, count.Options{Workers: 2})
	if err != nil {
		panic(err)
	}
	fmt.Println(tot.Count, tot.Tasks)
	// Output: 1415 6
}
