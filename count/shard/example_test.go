package shard_test

import (
	"fmt"

	"github.com/nqcount/nqcount/count/shard"
)

// Six tasks of unequal expected cost split into two shards of equal cost.
func ExampleAssign() {
	costs := []uint64{8, 1, 1, 4, 2, 2}
	for i, ids := range shard.Assign(costs, 2) {
		fmt.Println("shard", i, "tasks", ids)
	}
	// Output:
	// shard 0 tasks [0 1]
	// shard 1 tasks [2 3 4 5]
}
