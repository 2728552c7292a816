// Package estimate predicts what an n-queens count costs before anyone
// spends a cluster-week on it: it counts a random sample of the plan's
// work, exactly as the count would (the same plan, path and kernel), and
// extrapolates the whole count's CPU time and total, with 95% intervals.
//
// The design is a stratified sample with probability proportional to
// size, in stages:
//
//  1. The plan's tasks are sorted by the plan's own cost estimates
//     (queens.Plan.Estimates) and cut into strata of equal estimated
//     work; in each, tasks are drawn with replacement, each with a chance
//     proportional to its estimate.
//  2. In a drawn join task, a few of its row sets (a south row set with
//     the task's north rows) are drawn without replacement.
//  3. On the join's bounded path, a row set too long for the draw's share
//     makes only a random share g of its north entries' half boards
//     (join.Counter.Sample): their pairs estimate g² of its count, and
//     their buckets, under the keys and passes the count would take,
//     project the Work of counting it whole.
//
// The join's CPU time is its Work priced: the Work is in units that do
// not depend on the machine or its load (half boards made, keys sorted,
// table lookups, table entries built, pairs tested one by one, bucket
// steps), and the prices, in nanoseconds of one core, come from short
// reference runs of each kind (join.Calibrate) taken beside the sample on
// every thread, the least of each kept: on a shared machine the least is
// the one its neighbours disturbed least. The backtracking methods' tasks
// are timed whole.
//
// Each stage's estimate is unbiased, so each drawn task gives an unbiased
// estimate of its task's count and Work, and the classic estimator of
// sampling with replacement (Hansen and Hurwitz) gives the totals and
// their variance, stratum by stratum, from those alone. The intervals are
// the totals ± t·σ (Student's t at 95%, with the sample's degrees of
// freedom): they cover the sampling error, not a machine that is slower
// than the one measured (Result.PriceSpread says how much the reference
// runs' prices moved).
//
// The sample is a function of the plan, the seed and the options: the
// same seed draws the same tasks, row sets and keys, and so the same
// count estimate on every machine; the CPU times are measured on this
// one, thread by thread.
package estimate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/count/shard"
	"github.com/nqcount/nqcount/internal/cputime"
	"github.com/nqcount/nqcount/internal/sysmem"
)

// Options tune an estimate. The zero value is a sample of about 8
// minutes of CPU on every core.
type Options struct {
	// Seed chooses the sample; the same seed gives the same sample.
	Seed uint64
	// Samples is the number of tasks drawn (0: 240), Strata the number of
	// strata they are drawn from (0: 12; at most Samples/2).
	Samples, Strata int
	// Budget is the CPU time the sample aims at, spread evenly over the
	// tasks drawn (0: 8 minutes). The plan's estimates decide how many
	// row sets of a task, and what share of a row set's keys, fit in a
	// task's share: the sample does not depend on this machine's speed.
	Budget time.Duration
	// OnProgress, if set, is called after each task drawn is counted,
	// with the number done and drawn.
	OnProgress func(done, total int)
	// Shard, when K > 0, estimates only shard I of K: the tasks that
	// nqueens count --shard I/K counts (shard.Select on the plan's
	// estimates), drawn from them alone.
	Shard shard.Index
}

// Interval is an estimate with its 95% interval.
type Interval struct {
	Estimate float64 `json:"estimate"`
	Low      float64 `json:"low"`
	High     float64 `json:"high"`
}

// Contains reports whether x is in the interval.
func (i Interval) Contains(x float64) bool { return i.Low <= x && x <= i.High }

// Result is an estimate of a count.
type Result struct {
	N      int           `json:"n"`
	Method queens.Method `json:"method"`
	Depth  int           `json:"depth"`
	Hash   string        `json:"hash"`
	Tasks  int           `json:"tasks"`
	// Shard and ShardTasks, for an estimate of one shard (Options.Shard):
	// which, and how many of the Tasks it holds. Count and CPU are then
	// the shard's, and Known is not given.
	Shard      string `json:"shard,omitempty"`
	ShardTasks int    `json:"shard_tasks,omitempty"`
	Path       string `json:"path,omitempty"`
	Kernel     string `json:"kernel"`
	// CPUSeconds is the whole count's CPU time on this machine, in
	// seconds of one core: its tasks, its tables and its planning.
	// CoreHours is the same in hours.
	CPUSeconds Interval `json:"cpu_seconds"`
	CoreHours  Interval `json:"core_hours"`
	// Count is the number of solutions, Q(N).
	Count Interval `json:"count"`
	// Known is OEIS A000170's value when there is one, and Covered whether
	// the count's interval holds it: an honest check of the estimator.
	Known   *uint64 `json:"known,omitempty"`
	Covered *bool   `json:"known_in_interval,omitempty"`
	// LargestTaskSeconds is the estimated CPU time of the largest task
	// (by the plan's estimates, scaled by what the sample measured).
	LargestTaskSeconds float64 `json:"largest_task_seconds"`
	// FixedSeconds is the CPU time of what the count does once: its
	// planning and, on the table path, building the tables (measured).
	FixedSeconds float64 `json:"fixed_seconds"`
	// MemoryPerWorker is what each worker of the count holds (its share of
	// the memory budget), MemoryLimit the budget, and PeakMemory the peak
	// resident memory of this estimate.
	MemoryPerWorker uint64 `json:"memory_per_worker_bytes"`
	MemoryLimit     uint64 `json:"memory_limit_bytes"`
	PeakMemory      uint64 `json:"peak_memory_bytes,omitempty"`
	// The sample: tasks drawn, row sets counted, seed, strata, and its
	// own CPU and wall time.
	Samples       int     `json:"samples"`
	RowSets       int     `json:"row_sets"`
	Seed          uint64  `json:"seed"`
	Strata        int     `json:"strata"`
	Workers       int     `json:"workers"`
	SampleSeconds float64 `json:"sample_cpu_seconds"`
	Seconds       float64 `json:"seconds"`
	// ThreadTimes says whether the CPU times are the threads' own (false:
	// wall clock, on a system that does not report them).
	ThreadTimes bool `json:"thread_cpu_times"`
	// For the join: Work is the whole count's work, in units that do not
	// depend on the machine or its load (the sample's, extrapolated), and
	// Prices what a unit costs here, in nanoseconds of one core: the least
	// of each over PriceRuns short reference runs taken beside the sample
	// (join.Calibrate); PriceSpread is how much dearer the count comes out
	// at the dearest run's prices than at the least (1.10: 10%), and
	// PriceMedian at the median run's: the least is this machine at its
	// quietest, which a figure that must hold still needs; a count run
	// under the load the estimate ran under costs about PriceMedian times
	// more. The CPU time is Work at Prices; its interval is the sampling
	// error's.
	Work        *join.Work   `json:"work,omitempty"`
	Prices      *join.Prices `json:"prices_ns,omitempty"`
	PriceRuns   int          `json:"price_runs,omitempty"`
	PriceSpread float64      `json:"price_spread,omitempty"`
	PriceMedian float64      `json:"price_median,omitempty"`
	// TaskHours are quantiles of the tasks' CPU time in core-hours (the
	// median, 90th and 99th percentiles and the largest), from the
	// sample: what a worker lost in a campaign costs.
	TaskHours *Quantiles `json:"task_core_hours,omitempty"`
	// Interval says how the intervals were made.
	Interval string `json:"interval"`
}

// Quantiles are a distribution's median, 90th and 99th percentiles and
// largest value.
type Quantiles struct {
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// draw is one task drawn, and what its sample gave.
type draw struct {
	stratum int
	task    int
	p       float64 // its chance of being drawn, within its stratum
	// The estimates of the task's count and CPU seconds.
	y, t float64
	rows int
	// work is the estimate of the task's Work (join plans), which the
	// prices turn into t once the sample is done.
	work join.Work
}

// Run estimates the count of spec as e says: the plan the count would
// make (spec's Workers and Kernel are e's), sampled on the path, with the
// kernel and on the workers that the count would use.
func Run(ctx context.Context, spec queens.Spec, e queens.Execution, opt Options) (*Result, error) {
	start := time.Now()
	cpu0, _ := cputime.Process()
	if opt.Samples <= 0 {
		opt.Samples = 240
	}
	if opt.Strata <= 0 {
		opt.Strata = 12
	}
	opt.Strata = max(1, min(opt.Strata, opt.Samples/2))
	if opt.Samples < 2 {
		return nil, queens.Usage(errors.New("an estimate needs at least 2 samples"))
	}
	if opt.Budget <= 0 {
		opt.Budget = 8 * time.Minute
	}
	e = e.Resolve()
	spec.Workers, spec.Kernel = e.Workers, e.Kernel
	p, err := queens.NewPlan(spec)
	if err != nil {
		return nil, err
	}
	est, err := p.EstimatesContext(ctx)
	if err != nil {
		return nil, err
	}
	planned, _ := cputime.Process()
	res := &Result{N: p.N, Method: p.Method, Depth: p.Depth, Hash: p.Hash(), Tasks: p.Len(), Seed: opt.Seed, Samples: opt.Samples, Strata: opt.Strata, Workers: e.Workers}
	s, err := newSampler(ctx, p, e, res)
	if err != nil {
		return nil, err
	}
	fixed := (planned - cpu0) + s.tables
	ids := make([]int, len(est))
	for i := range ids {
		ids[i] = i
	}
	if opt.Shard.K > 0 {
		if ids, err = shard.Select(est, opt.Shard); err != nil {
			return nil, queens.Usage(err)
		}
		if len(ids) < 2 {
			return nil, queens.Usage(fmt.Errorf("shard %s holds %d task: an estimate needs at least 2", opt.Shard, len(ids)))
		}
		res.Shard, res.ShardTasks = opt.Shard.String(), len(ids)
	}
	s.batches(ids)
	draws := design(est, ids, opt)
	if err := s.run(ctx, draws, est, e.Workers, opt); err != nil {
		return nil, err
	}
	for _, d := range draws {
		res.RowSets += d.rows
	}
	res.Interval = "95%, sampling error only: tasks drawn with chance proportional to the plan's estimates in strata, row sets and north entries sampled within them (Hansen-Hurwitz, Student's t)"
	if s.join != nil {
		s.price(draws, opt.Strata, res)
	}
	y, t := combine(draws, opt.Strata)
	res.Count = y
	res.CPUSeconds = Interval{t.Estimate + fixed.Seconds(), t.Low + fixed.Seconds(), t.High + fixed.Seconds()}
	res.CoreHours = Interval{res.CPUSeconds.Estimate / 3600, res.CPUSeconds.Low / 3600, res.CPUSeconds.High / 3600}
	res.FixedSeconds = fixed.Seconds()
	// The largest task: its estimate, at the rate the sample measured.
	var sumEst float64
	var maxEst uint64
	for _, id := range ids {
		sumEst += float64(est[id])
		maxEst = max(maxEst, est[id])
	}
	if sumEst > 0 {
		res.LargestTaskSeconds = t.Estimate / sumEst * float64(maxEst)
	}
	res.TaskHours = quantiles(draws, opt.Strata)
	if k, ok := queens.Known(p.N); ok && opt.Shard.K == 0 {
		res.Known = &k
		c := res.Count.Contains(float64(k))
		res.Covered = &c
	}
	if peak, ok := sysmem.Peak(); ok {
		res.PeakMemory = peak
	}
	res.ThreadTimes = s.thread
	cpu1, _ := cputime.Process()
	res.SampleSeconds = (cpu1 - planned).Seconds()
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// design draws the sample of the tasks ids (which it reorders):
// opt.Samples tasks over opt.Strata strata of equal estimated work, with
// probability proportional to the estimates within each, from a generator
// seeded with opt.Seed.
func design(est []uint64, ids []int, opt Options) []draw {
	slices.SortFunc(ids, func(a, b int) int {
		if c := cmp.Compare(est[a], est[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	var total float64
	for _, id := range ids {
		total += float64(est[id])
	}
	// Strata: runs of the sorted tasks, each about total/H of the work.
	h := opt.Strata
	bounds := []int{0}
	var acc float64
	for i, id := range ids {
		acc += float64(est[id])
		if len(bounds) < h && acc >= total*float64(len(bounds))/float64(h) && i+1 < len(ids) {
			bounds = append(bounds, i+1)
		}
	}
	bounds = append(bounds, len(ids))
	strata := len(bounds) - 1
	rng := rand.New(rand.NewPCG(opt.Seed, 0x6e71756565e5))
	var out []draw
	for st := range strata {
		lo, hi := bounds[st], bounds[st+1]
		cum := make([]float64, hi-lo)
		var sum float64
		for i, id := range ids[lo:hi] {
			sum += float64(est[id])
			cum[i] = sum
		}
		n := opt.Samples / strata
		if st < opt.Samples%strata {
			n++
		}
		for range max(n, 2) {
			u := rng.Float64() * sum
			i, _ := slices.BinarySearch(cum, u)
			i = min(i, len(cum)-1)
			id := ids[lo+i]
			out = append(out, draw{stratum: st, task: id, p: float64(est[id]) / sum})
		}
	}
	return out
}

// combine gives the totals of the count and of the CPU seconds, with 95%
// intervals, from the draws (Hansen–Hurwitz, stratum by stratum).
func combine(draws []draw, strata int) (y, t Interval) {
	type acc struct{ n, sy, sy2, st, st2 float64 }
	a := make([]acc, strata)
	for _, d := range draws {
		x := &a[d.stratum]
		yi, ti := d.y/d.p, d.t/d.p
		x.n++
		x.sy += yi
		x.sy2 += yi * yi
		x.st += ti
		x.st2 += ti * ti
	}
	var ey, vy, et, vt, df float64
	for _, x := range a {
		if x.n == 0 {
			continue
		}
		my, mt := x.sy/x.n, x.st/x.n
		ey += my
		et += mt
		if x.n > 1 {
			vy += max(0, x.sy2-x.n*my*my) / (x.n - 1) / x.n
			vt += max(0, x.st2-x.n*mt*mt) / (x.n - 1) / x.n
			df += x.n - 1
		}
	}
	z := tQuantile(df)
	dy, dt := z*math.Sqrt(vy), z*math.Sqrt(vt)
	return Interval{ey, max(0, ey-dy), ey + dy}, Interval{et, max(0, et-dt), et + dt}
}

// tQuantile is the 97.5% quantile of Student's t with df degrees of
// freedom (1.96 for large df), by the Cornish–Fisher expansion (within
// 0.1% from 5 degrees of freedom, 1% at 3).
func tQuantile(df float64) float64 {
	const z = 1.959963984540054
	if df < 1 {
		return math.Inf(1)
	}
	z3, z5, z7 := z*z*z, math.Pow(z, 5), math.Pow(z, 7)
	return z + (z3+z)/(4*df) + (5*z5+16*z3+3*z)/(96*df*df) + (3*z7+19*z5+17*z3-15*z)/(384*df*df*df)
}

// sampler counts the draws of one plan.
type sampler struct {
	p      *queens.Plan
	join   *join.Counter
	kernel join.Kernel
	task   count.TaskFunc // the backtracking methods' tasks, counted whole
	tables time.Duration  // CPU time of building the tables
	thread bool
	// The prices measured by the reference runs (join plans).
	mu     sync.Mutex
	prices []join.Prices
	// batch is the most tasks the count counts together (its budget's),
	// shared[id] the size of task id's batch where that is more than 1:
	// its south row lists are built once for all of the batch's tasks.
	batch  int
	shared map[int]int
}

func newSampler(ctx context.Context, p *queens.Plan, e queens.Execution, res *Result) (*sampler, error) {
	s := &sampler{p: p}
	if p.Layout() == nil {
		do, name, b, err := p.TaskFunc(e)
		if err != nil {
			return nil, err
		}
		s.task, res.Kernel, res.MemoryPerWorker, res.MemoryLimit = do, name, b.PerWorker, b.Memory
		return s, nil
	}
	c, b, err := p.JoinCounter(e)
	if err != nil {
		return nil, err
	}
	s.join, res.Kernel, res.Path, res.MemoryPerWorker, res.MemoryLimit = c, b.Kernel, b.Path, b.PerWorker, b.Memory
	s.batch = b.Batch
	if s.kernel, err = join.Lookup(b.Kernel); err != nil {
		return nil, err
	}
	t0, _ := cputime.Process()
	if err := c.Prepare(ctx, nil); err != nil {
		return nil, err
	}
	t1, _ := cputime.Process()
	s.tables = t1 - t0
	return s, nil
}

// run counts every draw on workers threads, each timed by its own CPU
// clock.
func (s *sampler) run(ctx context.Context, draws []draw, est []uint64, workers int, opt Options) error {
	per := opt.Budget.Seconds() * 1e9 / float64(len(draws)) // the model's nanoseconds a draw may take
	next := make(chan int)
	errs := make([]error, workers)
	var mu sync.Mutex
	done := 0
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			_, thread := cputime.Thread()
			clock := func() time.Duration { d, _ := cputime.Thread(); return d }
			// The reference runs: before the first draw and every
			// calibrateEvery draws of this thread, so that the prices
			// are taken beside the sample, whatever the load does.
			mine := 0
			for i := range next {
				if s.join != nil && mine%calibrateEvery == 0 {
					p := join.Calibrate(s.kernel, clock)
					s.mu.Lock()
					s.prices = append(s.prices, p)
					s.mu.Unlock()
				}
				mine++
				if errs[w] != nil {
					continue
				}
				if err := s.count(ctx, &draws[i], mixSeed(opt.Seed, uint64(i)), est, per, clock); err != nil {
					errs[w] = err
					continue
				}
				mu.Lock()
				done++
				s.thread = thread
				if opt.OnProgress != nil {
					opt.OnProgress(done, len(draws))
				}
				mu.Unlock()
			}
		})
	}
	for i := range draws {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// count counts draw d with its seed: a backtracking task whole; a join
// task's row sets,
// as many as fit in per of the model's nanoseconds, each joining the
// share of its keys that fits.
func (s *sampler) count(ctx context.Context, d *draw, seed uint64, est []uint64, per float64, clock func() time.Duration) error {
	if s.join == nil {
		t0 := clock()
		r, err := s.task(ctx, d.task, func(uint64) {})
		if err != nil {
			return err
		}
		d.y, d.t, d.rows = float64(r.Count), (clock() - t0).Seconds(), 1
		return nil
	}
	// Each draw has a seed of its own: the same task drawn twice samples
	// other row sets and keys.
	ds := seed
	info, err := s.join.Sample(ctx, d.task, join.SampleOptions{})
	if err != nil {
		return err
	}
	rows := info.Rows
	if rows == 0 {
		t0 := clock()
		if _, _, err := s.join.Count(ctx, d.task, nil); err != nil {
			return err
		}
		d.t = (clock() - t0).Seconds()
		return nil
	}
	perRow := float64(est[d.task]) / float64(rows)
	m, entries := rows, 1.0
	if float64(est[d.task]) > per {
		m = min(rows, max(1, int(per/perRow)))
		if m == 1 && perRow > per {
			// A row set too long for the draw's share: a sample of its
			// north entries, whose join costs about their share squared.
			entries = max(math.Sqrt(per/perRow), 1.0/4096)
		}
	}
	rng := rand.New(rand.NewPCG(ds, 1))
	pick := rng.Perm(rows)[:m]
	slices.Sort(pick)
	ts, err := s.join.Sample(ctx, d.task, join.SampleOptions{Rows: pick, EntryFraction: entries, Seed: ds, Clock: clock})
	if err != nil {
		return err
	}
	var y float64
	var w join.Work
	for _, r := range ts.Each {
		y += r.Estimate()
		w.Add(r.Work)
	}
	// A task counted in a batch shares its south row lists (its row
	// sets' row entries) with the batch's other tasks.
	if g := s.shared[d.task]; g > 1 {
		w.Rows /= float64(g)
	}
	scale := float64(rows) / float64(m)
	d.y = y * scale
	d.work = w.Scale(scale)
	d.work.Add(ts.FixedWork)
	d.rows = m
	return nil
}

// batches records, for the count of tasks ids, the size of each task's
// batch where the count counts tasks together (see queens.Budget.Batch).
func (s *sampler) batches(ids []int) {
	if s.join == nil || s.batch < 2 {
		return
	}
	s.shared = map[int]int{}
	for _, b := range s.join.Batches(ids, s.batch) {
		if len(b) > 1 {
			for _, id := range b {
				s.shared[id] = len(b)
			}
		}
	}
}

// calibrateEvery is how many draws a thread counts between two reference
// runs.
const calibrateEvery = 16

// price turns each draw's Work into CPU seconds at the least prices the
// reference runs measured, and records the prices, their spread and the
// whole count's Work in res.
func (s *sampler) price(draws []draw, strata int, res *Result) {
	if len(s.prices) == 0 {
		return
	}
	least := s.prices[0]
	for _, p := range s.prices[1:] {
		least = least.Least(p)
	}
	var work join.Work
	for i := range draws {
		d := &draws[i]
		d.t += least.Cost(d.work).Seconds()
	}
	// The whole count's Work: each draw's, weighted as combine weighs it.
	n := make([]float64, strata)
	for _, d := range draws {
		n[d.stratum]++
	}
	for _, d := range draws {
		work.Add(d.work.Scale(1 / (d.p * n[d.stratum])))
	}
	costs := make([]float64, len(s.prices))
	for i, p := range s.prices {
		costs[i] = p.Cost(work).Seconds()
	}
	slices.Sort(costs)
	res.Work, res.Prices, res.PriceRuns = &work, &least, len(s.prices)
	if lo := least.Cost(work).Seconds(); lo > 0 {
		res.PriceSpread = costs[len(costs)-1] / lo
		res.PriceMedian = costs[len(costs)/2] / lo
	}
	res.Interval += fmt.Sprintf("; the join's work priced at the least of %d reference runs' prices on this machine (the median run's would add %.0f%%, the dearest run's %.0f%%)", len(s.prices), 100*(res.PriceMedian-1), 100*(res.PriceSpread-1))
}

// quantiles estimates the quantiles of the tasks' CPU time in core-hours
// from the draws, each standing for 1/(n·p) tasks of its stratum.
func quantiles(draws []draw, strata int) *Quantiles {
	n := make([]float64, strata)
	for _, d := range draws {
		n[d.stratum]++
	}
	type pt struct{ t, w float64 }
	var pts []pt
	var total float64
	for _, d := range draws {
		w := 1 / (d.p * n[d.stratum])
		pts = append(pts, pt{d.t / 3600, w})
		total += w
	}
	if total == 0 {
		return nil
	}
	slices.SortFunc(pts, func(a, b pt) int { return cmp.Compare(a.t, b.t) })
	at := func(q float64) float64 {
		var acc float64
		for _, p := range pts {
			acc += p.w
			if acc >= q*total {
				return p.t
			}
		}
		return pts[len(pts)-1].t
	}
	return &Quantiles{P50: at(0.5), P90: at(0.9), P99: at(0.99), Max: pts[len(pts)-1].t}
}

func mixSeed(xs ...uint64) uint64 {
	h := uint64(0x9E3779B97F4A7C15)
	for _, x := range xs {
		h ^= x + 0x9E3779B97F4A7C15 + h<<6 + h>>2
		h = (h ^ h>>31) * 0xBF58476D1CE4E5B9
	}
	return h
}

// String describes r in a few lines, as nqueens estimate prints it.
func (r *Result) String() string {
	s := fmt.Sprintf("n = %d: %s tasks (%s, depth %d", r.N, group(float64(r.Tasks)), r.Method, r.Depth)
	if r.Path != "" {
		s += ", " + r.Path + " path"
	}
	s += ")"
	if r.Shard != "" {
		s += fmt.Sprintf("; shard %s: %s of them", r.Shard, group(float64(r.ShardTasks)))
	}
	s += "\n"
	s += fmt.Sprintf("CPU time: %s core-hours (95%%: %s to %s) on this machine, kernel %s\n",
		sig(r.CoreHours.Estimate), sig(r.CoreHours.Low), sig(r.CoreHours.High), r.Kernel)
	s += fmt.Sprintf("count: %s (95%%: %s to %s)", sci(r.Count.Estimate), sci(r.Count.Low), sci(r.Count.High))
	if r.Known != nil {
		verdict := "inside"
		if !*r.Covered {
			verdict = "OUTSIDE"
		}
		s += fmt.Sprintf("; OEIS A000170: %s, %s the interval", group(float64(*r.Known)), verdict)
	}
	s += "\n"
	s += fmt.Sprintf("largest task: about %s of one core; memory: %s a worker (%s allowed)\n",
		duration(r.LargestTaskSeconds), mib(r.MemoryPerWorker), mib(r.MemoryLimit))
	if q := r.TaskHours; q != nil {
		s += fmt.Sprintf("tasks: median %s, 90%% %s, 99%% %s of one core\n", duration(q.P50*3600), duration(q.P90*3600), duration(q.P99*3600))
	}
	if r.Prices != nil {
		s += fmt.Sprintf("the join's work priced at the least of %d reference runs' prices (the median run's: %+.0f%%, the dearest run's: %+.0f%%)\n", r.PriceRuns, 100*(r.PriceMedian-1), 100*(r.PriceSpread-1))
	}
	s += fmt.Sprintf("sample: %d tasks, %d row sets, seed %d, %s of CPU in %s", r.Samples, r.RowSets, r.Seed, duration(r.SampleSeconds), duration(r.Seconds))
	return s
}

func sig(x float64) string {
	switch {
	case x >= 100:
		return group(math.Round(x))
	case x >= 1:
		return fmt.Sprintf("%.1f", x)
	default:
		return fmt.Sprintf("%.3g", x)
	}
}

func sci(x float64) string {
	if x < 1e7 {
		return group(math.Round(x))
	}
	return fmt.Sprintf("%.4e", x)
}

// group writes a whole number with thousands separators.
func group(x float64) string {
	s := fmt.Sprintf("%.0f", x)
	var out []byte
	for i, c := range []byte(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, c)
	}
	return string(out)
}

func duration(sec float64) string {
	switch {
	case sec >= 2*86400:
		return fmt.Sprintf("%.1f days", sec/86400)
	case sec >= 2*3600:
		return fmt.Sprintf("%.1f h", sec/3600)
	case sec >= 120:
		return fmt.Sprintf("%.1f min", sec/60)
	default:
		return fmt.Sprintf("%.1f s", sec)
	}
}

func mib(b uint64) string {
	if b >= 10<<30 {
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%d MiB", b>>20)
}
