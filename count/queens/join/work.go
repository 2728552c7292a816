package join

import (
	"math"
	"time"
)

// Work is what counting did, in units that are the same on every machine
// and under any load: the estimator measures a sample's Work, which a
// seed fixes, and prices it with this machine's Prices, which a short
// reference run (Calibrate) measures beside the sample. So a cost figure
// moves with the machine's speed only through the prices, and says so.
type Work struct {
	// Rows is the quadrant row-list entries built (bounded path).
	Rows float64 `json:"row_entries"`
	// Halves is the half boards made, every pass's.
	Halves float64 `json:"half_boards"`
	// Sorted is the half boards bucketed by index key.
	Sorted float64 `json:"sorted"`
	// Small and Large are the table lookups of full blocks (an item run
	// through a block: one lookup per chunk of its layout) with small
	// (level 1) and large (level 2) tables; Half those of blocks of at
	// most half a block, by the half kernel.
	Small float64 `json:"small_lookups"`
	Large float64 `json:"large_lookups"`
	Half  float64 `json:"half_lookups"`
	// Builds is the blocks' table entries built (64 bytes each).
	Builds float64 `json:"built_entries"`
	// Direct is the pairs tested one by one (buckets of a few patterns).
	Direct float64 `json:"direct_pairs"`
	// Steps is the pairs of buckets visited.
	Steps float64 `json:"bucket_steps"`
	// Weighed is the choice of index keys (chooseKeys, deepKeys): the
	// sample patterns read for each bit or depth weighed, and the buckets
	// weighed.
	Weighed float64 `json:"key_choice"`
}

// Prices are what a unit of each kind of Work costs on this machine, in
// nanoseconds of one core.
type Prices Work

// Add adds x to w.
func (w *Work) Add(x Work) {
	w.Rows += x.Rows
	w.Halves += x.Halves
	w.Sorted += x.Sorted
	w.Small += x.Small
	w.Large += x.Large
	w.Half += x.Half
	w.Builds += x.Builds
	w.Direct += x.Direct
	w.Steps += x.Steps
	w.Weighed += x.Weighed
}

// Scale returns w times f.
func (w Work) Scale(f float64) Work {
	return Work{w.Rows * f, w.Halves * f, w.Sorted * f, w.Small * f, w.Large * f, w.Half * f, w.Builds * f, w.Direct * f, w.Steps * f, w.Weighed * f}
}

// Cost is w at prices p.
func (p Prices) Cost(w Work) time.Duration {
	ns := w.Rows*p.Rows + w.Halves*p.Halves + w.Sorted*p.Sorted + w.Small*p.Small + w.Large*p.Large +
		w.Half*p.Half + w.Builds*p.Builds + w.Direct*p.Direct + w.Steps*p.Steps + w.Weighed*p.Weighed
	return time.Duration(math.Round(ns))
}

// Least returns the least of each price of p and q (the reference run's
// least contended measure of each).
func (p Prices) Least(q Prices) Prices {
	return Prices{min(p.Rows, q.Rows), min(p.Halves, q.Halves), min(p.Sorted, q.Sorted), min(p.Small, q.Small),
		min(p.Large, q.Large), min(p.Half, q.Half), min(p.Builds, q.Builds), min(p.Direct, q.Direct), min(p.Steps, q.Steps),
		min(p.Weighed, q.Weighed)}
}
