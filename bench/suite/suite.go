// Package suite is the fixed benchmark of multicore machines that the
// installed nqueens binary runs (`nqueens bench`): no source tree, no
// compiler. It times fixed n-queens counts on 1, 2, 4, ... P workers and P
// itself (and on one worker per physical core where cpuid tells cores from
// SMT siblings), checks every count against OEIS A000170, and derives
// nodes/s, speed-up, efficiency and a score comparable across machines.
//
// The score is the geometric mean, over the suite's board sizes, of the
// solutions per second counted on P workers, each divided by the solutions
// per second of one worker of the reference machine at the same size (see
// Reference). It reads as "this machine counts as fast as S cores of the
// reference machine". Scores are comparable between machines measured with
// the same suite (quick or full) and the same nqueens version: a faster
// kernel raises every machine's score.
//
// The developers' runner in the parent folder (go run ./bench) is a
// different tool: it compares kernels and methods against a C baseline and
// rewrites RESULTS.md.
package suite

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/kernel"
)

// The fixed workloads: board sizes counted by every run of a suite.
var (
	// QuickSizes are the boards of the quick suite: on one worker of the
	// reference machine they take 0.14 s and 0.81 s.
	QuickSizes = []int{15, 16}
	// FullSizes are the boards of the full suite: on one worker of the
	// reference machine they take 0.81 s, 5.2 s and 35 s.
	FullSizes = []int{16, 17, 18}
)

// DefaultRounds is how many times each configuration is timed; its median
// is reported.
const DefaultRounds = 3

// MaxWorkers bounds the largest worker count a suite accepts.
const MaxWorkers = 1 << 16

// Config says what to measure. The zero value runs the full suite on
// runtime.GOMAXPROCS(0) workers with the fastest kernel.
type Config struct {
	// Quick selects the quick suite (QuickSizes) instead of the full one.
	Quick bool
	// Workers is P, the largest worker count of the sweep; 0 means
	// runtime.GOMAXPROCS(0).
	Workers int
	// Rounds is how many times each configuration is timed; 0 means
	// DefaultRounds.
	Rounds int
	// Kernel names the kernel ("" or "auto": the fastest this CPU runs).
	Kernel string
	// Version is the counter's version as the report gives it; "" means
	// Version().
	Version string
	// OnProgress, if set, is called before the warm-up and after every
	// timed count, from the goroutine that called Measure.
	OnProgress func(Progress)

	// Set by tests only: count replaces queens.Count (to inject wrong
	// counts), sizes the suite's board sizes (to keep tests short).
	count func(context.Context, int, queens.Options) (queens.Result, error)
	sizes []int
}

// Progress describes the count that just finished.
type Progress struct {
	Done, Total int  // timed counts finished and planned
	WarmUp      bool // the untimed warm-up count (Done is 0)
	N, Workers  int
	Round       int     // 1-based
	Seconds     float64 // wall time of this count
	Matches     bool    // its total equals A000170(N)
}

// Run is one configuration of the suite (board size and worker count) and
// what its rounds measured. Rates are computed from Seconds, the median
// over rounds.
type Run struct {
	N       int `json:"n"`
	Workers int `json:"workers"`
	// Seconds is the median wall time over the rounds, planning included.
	Seconds float64 `json:"seconds"`
	// RoundSeconds are the wall times of the rounds, in order.
	RoundSeconds []float64 `json:"round_seconds"`
	// CPUSeconds is the median user+system CPU time of the process over
	// the count (0 where the system does not say).
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	// CoresUsed is the median over rounds of CPU time over wall time: how
	// much of the machine the count actually got (0 when unknown).
	CoresUsed float64 `json:"cores_used,omitempty"`
	// Nodes is the number of search nodes (queens placed) one count
	// visits.
	Nodes          uint64  `json:"nodes"`
	NodesPerSecond float64 `json:"nodes_per_second"`
	// NodesPerSecondPerCore is NodesPerSecond over the cores the workers
	// ran on: the workers themselves up to the physical cores, the
	// physical cores beyond (SMT siblings share a core).
	NodesPerSecondPerCore float64 `json:"nodes_per_second_per_core"`
	SolutionsPerSecond    float64 `json:"solutions_per_second"`
	// Speedup is the median over rounds of the 1-worker time over this
	// time, both taken in the same round; Efficiency is Speedup/Workers.
	Speedup    float64 `json:"speedup"`
	Efficiency float64 `json:"efficiency"`
	Tasks      int     `json:"tasks"`
	Depth      int     `json:"depth"`
	// Total is the count (the same every round when MatchesKnown), Known
	// the OEIS value it is checked against.
	Total        count.Uint128 `json:"total"`
	Known        uint64        `json:"known"`
	MatchesKnown bool          `json:"matches_known"`
}

// Report is a finished suite.
type Report struct {
	Suite   string    `json:"suite"` // "quick" or "full"
	Version string    `json:"version"`
	Date    time.Time `json:"date"`
	// Seconds is the wall time of the whole benchmark, warm-up included.
	Seconds float64 `json:"seconds"`
	Machine Machine `json:"machine"`
	Kernel  string  `json:"kernel"`
	Method  string  `json:"method"`
	Rounds  int     `json:"rounds"`
	Sizes   []int   `json:"sizes"`
	// Workers is the sweep: 1, 2, 4, ... below P, the physical-core point
	// where there is one, and P.
	Workers []int `json:"workers"`
	// P is the largest worker count, the one the score is taken at.
	P    int   `json:"p"`
	Runs []Run `json:"runs"`
	// Score is defined in the package documentation; 0 when a count
	// disagreed with the OEIS (such a run has no score).
	Score          float64 `json:"score"`
	ScoreReference string  `json:"score_reference"`
	// SMTGain is the geometric mean over the sizes of the rate on P
	// workers over the rate on one worker per physical core (0 when there
	// is no such point).
	SMTGain float64 `json:"smt_gain,omitempty"`
	// MatchesKnown is true when every count of every round equalled
	// A000170(n).
	MatchesKnown bool `json:"matches_known"`
}

// Mismatches returns the runs with a round whose count disagreed with the
// OEIS.
func (r *Report) Mismatches() []Run {
	var bad []Run
	for _, x := range r.Runs {
		if !x.MatchesKnown {
			bad = append(bad, x)
		}
	}
	return bad
}

// Find returns the run of board n on w workers, or nil.
func (r *Report) Find(n, w int) *Run {
	for i := range r.Runs {
		if r.Runs[i].N == n && r.Runs[i].Workers == w {
			return &r.Runs[i]
		}
	}
	return nil
}

// Sweep returns the worker counts measured up to p: the powers of two
// below p, the physical-core point cores (when 1 < cores < p) and p.
func Sweep(p, cores int) []int {
	var ws []int
	for w := 1; w < p; w *= 2 {
		ws = append(ws, w)
	}
	if cores > 1 && cores < p && !slices.Contains(ws, cores) {
		ws = append(ws, cores)
	}
	ws = append(ws, p)
	slices.Sort(ws)
	return ws
}

// ErrInvalid marks a configuration out of range.
var ErrInvalid = errors.New("invalid benchmark configuration")

// Measure runs the suite. Every count is checked against OEIS A000170; a
// count that disagrees makes its run's MatchesKnown false and the report's
// score 0, and the suite goes on so that the report shows every failure.
//
// If ctx is cancelled, Measure stops after the running count and returns
// ctx's error with no report: a partial suite has no score.
func Measure(ctx context.Context, cfg Config) (*Report, error) {
	start := time.Now()
	p := cfg.Workers
	if p == 0 {
		p = runtime.GOMAXPROCS(0)
	}
	if p < 1 || p > MaxWorkers {
		return nil, fmt.Errorf("%w: %d workers: choose 1 to %d", ErrInvalid, p, MaxWorkers)
	}
	rounds := cfg.Rounds
	if rounds == 0 {
		rounds = DefaultRounds
	}
	if rounds < 1 || rounds > 1000 {
		return nil, fmt.Errorf("%w: %d rounds: choose 1 to 1000", ErrInvalid, rounds)
	}
	k, err := kernel.Lookup(cfg.Kernel)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	countFn := cfg.count
	if countFn == nil {
		countFn = queens.Count
	}
	rep := &Report{
		Suite: "full", Sizes: FullSizes, Version: cmp.Or(cfg.Version, Version()), Date: start.UTC(),
		Machine: Describe(p), Kernel: k.Name, Method: string(queens.Constellations),
		Rounds: rounds, P: p, ScoreReference: Reference.String(),
	}
	if cfg.Quick {
		rep.Suite, rep.Sizes = "quick", QuickSizes
	}
	if cfg.sizes != nil {
		rep.Sizes = cfg.sizes
	}
	rep.Sizes = slices.Clone(rep.Sizes)
	rep.Workers = Sweep(p, rep.Machine.smtCores())
	for _, n := range rep.Sizes {
		known, _ := queens.Known(n)
		for _, w := range rep.Workers {
			rep.Runs = append(rep.Runs, Run{N: n, Workers: w, Known: known, MatchesKnown: true})
		}
	}
	cpus := make([][]float64, len(rep.Runs))

	opt := func(w int) queens.Options {
		return queens.Options{Workers: w, Kernel: k.Name, Method: queens.Constellations}
	}
	// One untimed count on all workers, so that the first timed one does
	// not pay for starting threads, faulting pages in and the CPU's clock
	// ramping up. Its count is checked too.
	warm := rep.Sizes[0]
	if cfg.OnProgress != nil {
		cfg.OnProgress(Progress{Total: rounds * len(rep.Runs), WarmUp: true, N: warm, Workers: p, Round: 1})
	}
	if _, err := countFn(ctx, warm, opt(p)); err != nil {
		return nil, err
	}

	done := 0
	order := make([]int, len(rep.Runs))
	for r := 0; r < rounds; r++ {
		// Every other round runs the configurations backwards, so that
		// none of them always runs first, right after the warm-up or
		// after the biggest count.
		for i := range order {
			order[i] = i
		}
		if r%2 == 1 {
			slices.Reverse(order)
		}
		for _, i := range order {
			run := &rep.Runs[i]
			runtime.GC()
			c0 := selfCPU()
			t0 := time.Now()
			res, err := countFn(ctx, run.N, opt(run.Workers))
			wall := time.Since(t0).Seconds()
			cpu := 0.0
			if c0 > 0 {
				cpu = selfCPU() - c0
			}
			if err != nil {
				return nil, err
			}
			done++
			ok := res.Total.Cmp(count.U128(run.Known)) == 0
			if !ok || r == 0 {
				// The first round's total, or the wrong one.
				run.Total = res.Total
			}
			run.MatchesKnown = run.MatchesKnown && ok
			run.RoundSeconds = append(run.RoundSeconds, wall)
			if cpu > 0 {
				cpus[i] = append(cpus[i], cpu)
			}
			run.Nodes = res.Nodes.Lo
			run.Tasks, run.Depth = res.Tasks, res.Depth
			if cfg.OnProgress != nil {
				cfg.OnProgress(Progress{Done: done, Total: rounds * len(rep.Runs), N: run.N, Workers: run.Workers, Round: r + 1, Seconds: wall, Matches: ok})
			}
		}
	}
	rep.derive(cpus)
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// derive computes the medians, rates, speed-ups, the score and the SMT
// gain from the rounds' times.
func (r *Report) derive(cpus [][]float64) {
	r.MatchesKnown = true
	for i := range r.Runs {
		x := &r.Runs[i]
		x.Seconds = median(x.RoundSeconds)
		if i < len(cpus) {
			x.CPUSeconds = median(cpus[i])
			x.CoresUsed = pairedMedian(cpus[i], x.RoundSeconds)
		}
		if x.Seconds > 0 {
			x.NodesPerSecond = float64(x.Nodes) / x.Seconds
			x.SolutionsPerSecond = float64(x.Known) / x.Seconds
		}
		x.NodesPerSecondPerCore = x.NodesPerSecond / float64(r.Machine.coresFor(x.Workers))
		r.MatchesKnown = r.MatchesKnown && x.MatchesKnown
	}
	for i := range r.Runs {
		x := &r.Runs[i]
		if one := r.Find(x.N, 1); one != nil {
			x.Speedup = pairedMedian(one.RoundSeconds, x.RoundSeconds)
			x.Efficiency = x.Speedup / float64(x.Workers)
		}
	}
	r.Score = 0
	if r.MatchesKnown {
		r.Score = Reference.Score(r.solutionRates(r.P))
	}
	if c := r.Machine.smtCores(); c > 1 && c < r.P {
		r.SMTGain = geoMeanRatio(r.solutionRates(r.P), r.solutionRates(c))
	}
}

// solutionRates maps each size to its solutions/s on w workers.
func (r *Report) solutionRates(w int) map[int]float64 {
	m := map[int]float64{}
	for _, n := range r.Sizes {
		if x := r.Find(n, w); x != nil {
			m[n] = x.SolutionsPerSecond
		}
	}
	return m
}

func geoMeanRatio(num, den map[int]float64) float64 {
	var sum float64
	k := 0
	for n, a := range num {
		b, ok := den[n]
		if !ok || a <= 0 || b <= 0 {
			return 0
		}
		sum += math.Log(a / b)
		k++
	}
	if k == 0 {
		return 0
	}
	return math.Exp(sum / float64(k))
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// pairedMedian is the median over rounds of num[i]/den[i]: a ratio of two
// counts taken close together in time, which cancels most of the load
// other processes put on a shared machine.
func pairedMedian(num, den []float64) float64 {
	var q []float64
	for i := range min(len(num), len(den)) {
		if den[i] > 0 {
			q = append(q, num[i]/den[i])
		}
	}
	return median(q)
}

// Version is the nqcount module's version as built into this binary, with
// its VCS revision when the build recorded one.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev != "" {
		v += " " + rev[:min(12, len(rev))] + dirty
	}
	return v
}
