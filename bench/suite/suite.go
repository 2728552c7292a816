// Package suite is the fixed benchmark of multicore machines that the
// installed nqueens binary runs (`nqueens bench`): no source tree, no
// compiler. It times fixed n-queens counts on 1, 2, 4, ... P workers and P
// itself (and on one worker per physical core where cpuid tells cores from
// SMT siblings), checks every count against OEIS A000170, and derives
// nodes/s, speed-up, efficiency and a score comparable across machines.
//
// It has two workloads: the join (package count/queens/join), the method
// `nqueens count` uses at the suite's sizes, and the constellation
// backtracker, which count uses below them and whose work scales in a
// different way (no tables, a few KiB a worker); each runs with the
// fastest kernel of its family this CPU has, unless the configuration
// names one, and every run says which.
//
// The score is the geometric mean, over the workloads and their board
// sizes, of the solutions per second counted on P workers, each divided by
// the solutions per second of one worker of the reference machine with the
// same method at the same size (see Reference). It reads as "this machine
// counts as fast as S cores of the reference machine". Scores are
// comparable between machines measured with the same suite (quick or full,
// the same workloads) and the same nqueens version: a faster kernel raises
// every machine's score.
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
	"strings"
	"time"

	"github.com/nqcount/nqcount/bench/internal/meter"
	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/count/queens/kernel"
)

// The fixed workloads: the board sizes each method counts in every run of
// a suite. The join's are sizes where it is count's default method
// (queens.DefaultMethod). How long each takes on one worker of the
// reference machine follows from Reference's rates (RESULTS.md, "Choices
// measured once").
var (
	// QuickSizes are the boards of the quick suite.
	QuickSizes = map[queens.Method][]int{queens.Join: {16, 17}, queens.Constellations: {15, 16}}
	// FullSizes are the boards of the full suite.
	FullSizes = map[queens.Method][]int{queens.Join: {17, 18, 19}, queens.Constellations: {16, 17, 18}}
)

// Methods are the workloads' methods, in the order a suite runs and
// reports them.
var Methods = []queens.Method{queens.Join, queens.Constellations}

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
	// Method selects one workload, queens.Join or queens.Constellations;
	// "" or queens.Auto runs both.
	Method queens.Method
	// Kernel names a kernel: the workloads whose method's family has a
	// kernel of that name (the join's or the backtrackers', both for
	// "generic") count with it, the others, and every workload when Kernel
	// is "" or "auto", with the fastest of their family this CPU runs. A
	// name no workload's family has is an error.
	Kernel string
	// Version is the counter's version as the report gives it; "" means
	// Version().
	Version string
	// OnProgress, if set, is called before the warm-up and after every
	// timed count, from the goroutine that called Measure.
	OnProgress func(Progress)

	// Set by tests only: count replaces queens.Count (to inject wrong
	// counts), sizes the workloads' board sizes (to keep tests short).
	count func(context.Context, int, runOptions) (queens.Result, error)
	sizes map[queens.Method][]int
}

// Progress describes the count that just finished.
type Progress struct {
	Done, Total int  // timed counts finished and planned
	WarmUp      bool // an untimed warm-up count (Done is 0 in the first)
	Method      queens.Method
	N, Workers  int
	Round       int     // 1-based
	Seconds     float64 // wall time of this count
	Matches     bool    // its total equals A000170(N)
}

// Run is one configuration of the suite (board size and worker count) and
// what its rounds measured. Rates are computed from Seconds, the median
// over rounds.
type Run struct {
	Method queens.Method `json:"method"`
	// Kernel is the kernel the counts used (of the method's family).
	Kernel  string `json:"kernel"`
	N       int    `json:"n"`
	Workers int    `json:"workers"`
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
	// Nodes is the work of one count: for the constellations the search
	// nodes (queens placed), for the join its units of work (half boards
	// made and items run through a block of 512 patterns, see
	// join.Counter.Count).
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
	// Workloads are what the suite counted, in order: each method with
	// its kernel and sizes.
	Workloads []Workload `json:"workloads"`
	Rounds    int        `json:"rounds"`
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
	// PeakRSS is the largest resident memory of the process over the
	// suite, in bytes (the join's tables at its largest size; 0 where the
	// system does not say).
	PeakRSS int64 `json:"peak_rss_bytes,omitempty"`
}

// Workload is one method of a suite, the kernel it counts with and the
// board sizes it counts.
type Workload struct {
	Method queens.Method `json:"method"`
	Kernel string        `json:"kernel"`
	Sizes  []int         `json:"sizes"`
}

// Size names one board size of one workload: what a score is taken over.
type Size struct {
	Method queens.Method
	N      int
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

// Find returns the run of board n by method m on w workers, or nil.
func (r *Report) Find(m queens.Method, n, w int) *Run {
	for i := range r.Runs {
		if x := &r.Runs[i]; x.Method == m && x.N == n && x.Workers == w {
			return x
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

// workloads resolves cfg's method and kernel into the workloads to run,
// with the sizes of sizes.
func workloads(cfg Config, sizes map[queens.Method][]int) ([]Workload, error) {
	methods := Methods
	switch cfg.Method {
	case "", queens.Auto:
	case queens.Join, queens.Constellations:
		methods = []queens.Method{cfg.Method}
	default:
		return nil, fmt.Errorf("%w: method %q: choose auto, join or constellations", ErrInvalid, cfg.Method)
	}
	named := cfg.Kernel != "" && cfg.Kernel != "auto"
	var ws []Workload
	found := false
	for _, m := range methods {
		name := ""
		if named && hasKernel(m, cfg.Kernel) {
			name, found = cfg.Kernel, true
		}
		k, err := lookupKernel(m, name)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		ws = append(ws, Workload{Method: m, Kernel: k, Sizes: slices.Clone(sizes[m])})
	}
	if named && !found {
		var fams []string
		for _, m := range methods {
			fams = append(fams, fmt.Sprintf("%s: %s", m, strings.Join(kernelNames(m), ", ")))
		}
		return nil, fmt.Errorf("%w: unknown kernel %q (choose auto, or a kernel of %s)", ErrInvalid, cfg.Kernel, strings.Join(fams, "; "))
	}
	return ws, nil
}

// hasKernel reports whether method m's family registers a kernel named
// name, supported here or not.
func hasKernel(m queens.Method, name string) bool {
	return slices.Contains(kernelNames(m), name)
}

// kernelNames lists the kernels of method m's family.
func kernelNames(m queens.Method) []string {
	var names []string
	if m == queens.Join {
		for _, k := range join.Kernels() {
			names = append(names, k.Name)
		}
		return names
	}
	for _, k := range kernel.All() {
		names = append(names, k.Name)
	}
	return names
}

// lookupKernel returns the name of the kernel of method m named name
// ("": the fastest this CPU runs), or why there is none.
func lookupKernel(m queens.Method, name string) (string, error) {
	if m == queens.Join {
		k, err := join.Lookup(name)
		return k.Name, err
	}
	k, err := kernel.Lookup(name)
	return k.Name, err
}

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
	suite, sizes := "full", FullSizes
	if cfg.Quick {
		suite, sizes = "quick", QuickSizes
	}
	if cfg.sizes != nil {
		sizes = cfg.sizes
	}
	ws, err := workloads(cfg, sizes)
	if err != nil {
		return nil, err
	}
	countFn := cfg.count
	if countFn == nil {
		countFn = countWhole
	}
	rep := &Report{
		Suite: suite, Version: cmp.Or(cfg.Version, Version()), Date: start.UTC(),
		Machine: Describe(p), Workloads: ws, Rounds: rounds, P: p, ScoreReference: Reference.String(),
	}
	rep.Workers = Sweep(p, rep.Machine.smtCores())
	for _, wl := range ws {
		for _, n := range wl.Sizes {
			known, _ := queens.Known(n)
			for _, w := range rep.Workers {
				rep.Runs = append(rep.Runs, Run{Method: wl.Method, Kernel: wl.Kernel, N: n, Workers: w, Known: known, MatchesKnown: true})
			}
		}
	}
	cpus := make([][]float64, len(rep.Runs))

	opt := func(x *Run, w int) runOptions {
		return runOptions{Workers: w, Kernel: x.Kernel, Method: x.Method}
	}
	// One untimed count per workload on all workers, so that the first
	// timed one does not pay for starting threads, faulting pages in and
	// the CPU's clock ramping up. Its count is checked too.
	total := rounds * len(rep.Runs)
	for _, wl := range ws {
		if len(wl.Sizes) == 0 {
			continue
		}
		warm := Run{Method: wl.Method, Kernel: wl.Kernel, N: wl.Sizes[0]}
		if cfg.OnProgress != nil {
			cfg.OnProgress(Progress{Total: total, WarmUp: true, Method: wl.Method, N: warm.N, Workers: p, Round: 1})
		}
		if _, err := countFn(ctx, warm.N, opt(&warm, p)); err != nil {
			return nil, err
		}
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
			c0 := meter.SelfCPU()
			t0 := time.Now()
			res, err := countFn(ctx, run.N, opt(run, run.Workers))
			wall := time.Since(t0).Seconds()
			cpu := 0.0
			if c0 > 0 {
				cpu = meter.SelfCPU() - c0
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
				cfg.OnProgress(Progress{Done: done, Total: total, Method: run.Method, N: run.N, Workers: run.Workers, Round: r + 1, Seconds: wall, Matches: ok})
			}
		}
	}
	rep.derive(cpus)
	if b, ok := meter.SelfPeakRSS(); ok {
		rep.PeakRSS = b
	}
	rep.Seconds = time.Since(start).Seconds()
	return rep, nil
}

// derive computes the medians, rates, speed-ups, the score and the SMT
// gain from the rounds' times.
func (r *Report) derive(cpus [][]float64) {
	r.MatchesKnown = true
	for i := range r.Runs {
		x := &r.Runs[i]
		x.Seconds = meter.Median(x.RoundSeconds)
		if i < len(cpus) {
			x.CPUSeconds = meter.Median(cpus[i])
			x.CoresUsed = meter.Paired(cpus[i], x.RoundSeconds)
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
		if one := r.Find(x.Method, x.N, 1); one != nil {
			x.Speedup = meter.Paired(one.RoundSeconds, x.RoundSeconds)
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

// solutionRates maps each size of each workload to its solutions/s on w
// workers.
func (r *Report) solutionRates(w int) map[Size]float64 {
	m := map[Size]float64{}
	for _, wl := range r.Workloads {
		for _, n := range wl.Sizes {
			if x := r.Find(wl.Method, n, w); x != nil {
				m[Size{wl.Method, n}] = x.SolutionsPerSecond
			}
		}
	}
	return m
}

func geoMeanRatio(num, den map[Size]float64) float64 {
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

// runOptions are what a run asks of a count of n.
type runOptions struct {
	Method  queens.Method
	Kernel  string
	Workers int
}

// countWhole plans n and counts every task of the plan, as nqueens count
// does without a checkpoint.
func countWhole(ctx context.Context, n int, o runOptions) (queens.Result, error) {
	e := queens.Execution{Kernel: o.Kernel, Workers: o.Workers}.Resolve()
	p, err := queens.NewPlan(queens.Spec{N: n, Method: o.Method, Workers: e.Workers, Kernel: e.Kernel})
	if err != nil {
		return queens.Result{}, err
	}
	return queens.Count(ctx, p, e, count.All(p.Len()), queens.Options{})
}
