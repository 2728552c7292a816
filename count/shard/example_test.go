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

// A Slurm array declared --array=1-8 runs shards 0 to 7: the index is
// SLURM_ARRAY_TASK_ID less SLURM_ARRAY_TASK_MIN.
func ExampleFromEnv() {
	env := map[string]string{
		"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "1",
		"SLURM_ARRAY_TASK_MAX": "8", "SLURM_ARRAY_TASK_COUNT": "8",
	}
	x, err := shard.FromEnv(func(k string) string { return env[k] }, 0)
	fmt.Println(x, err)
	// Output: 2/8 <nil>
}
