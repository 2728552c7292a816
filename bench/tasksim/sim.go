package main

import "container/heap"

// simulate returns the makespan of greedy pull scheduling: p workers take
// the tasks in the given order, each idle worker the next one, as
// count.Run's workers do with their shared atomic counter; a task takes
// costs[id]. Overheads between tasks are left out (they are nanoseconds
// against tasks of milliseconds).
func simulate(costs []float64, order []int, p int) float64 {
	free := make(freeAt, p) // when each worker is next idle
	var span float64
	for _, id := range order {
		t := free[0] + costs[id]
		free[0] = t
		heap.Fix(&free, 0)
		span = max(span, t)
	}
	return span
}

// freeAt is a min-heap of the times workers become idle.
type freeAt []float64

func (h freeAt) Len() int           { return len(h) }
func (h freeAt) Less(i, j int) bool { return h[i] < h[j] }
func (h freeAt) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *freeAt) Push(x any)        { *h = append(*h, x.(float64)) }
func (h *freeAt) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
