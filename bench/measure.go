package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/klauspost/cpuid/v2"

	"github.com/nqcount/nqcount/bench/internal/meter"
	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/count/queens/kernel"
)

// Job is one configuration timed once per round.
type Job struct {
	Lang    string    `json:"lang"` // "go" or "c"
	N       int       `json:"n"`
	Method  string    `json:"method"`
	Kernel  string    `json:"kernel,omitempty"`
	Workers int       `json:"workers"`
	Seconds []float64 `json:"seconds"`               // wall time, one per round
	CPU     []float64 `json:"cpu_seconds,omitempty"` // user+system CPU time, one per round (where the system says)
	Nodes   uint64    `json:"nodes,omitempty"`
}

func (j *Job) key() string {
	if j.Lang == "c" {
		return fmt.Sprintf("c/n=%d/method=%s", j.N, j.Method)
	}
	return fmt.Sprintf("%s/n=%d/method=%s/kernel=%s/workers=%d", j.Lang, j.N, j.Method, j.Kernel, j.Workers)
}

// Median is the median wall time in seconds (0 before any round).
func (j *Job) Median() float64 { return meter.Median(j.Seconds) }

// Env describes the machine and tools.
type Env struct {
	CPU         string   `json:"cpu"`
	LogicalCPUs int      `json:"logical_cpus"`
	Features    []string `json:"features"`
	X64Level    int      `json:"x64_level,omitempty"`
	GoVersion   string   `json:"go_version"`
	GOMAXPROCS  int      `json:"gomaxprocs"`
	CC          string   `json:"cc,omitempty"` // first line of cc --version
	LoadBefore  string   `json:"load_before,omitempty"`
	LoadAfter   string   `json:"load_after,omitempty"`
}

// Results is everything one run measured.
type Results struct {
	Date        time.Time     `json:"date"`
	Took        time.Duration `json:"took_ns"`
	Command     string        `json:"command"`
	Env         Env           `json:"env"`
	Rounds      int           `json:"rounds"`
	MinN        int           `json:"min_n"`
	MaxN        int           `json:"max_n"`
	JoinMaxN    int           `json:"join_max_n"`
	BestKernel  string        `json:"best_kernel"`
	JoinKernel  string        `json:"join_kernel"`           // the join's fastest kernel here
	Kernels     []string      `json:"kernels"`               // supported, timed
	Unsupported []string      `json:"unsupported,omitempty"` // registered, not runnable here
	ScalingN    []int         `json:"scaling_n"`
	MaxWorkers  int           `json:"max_workers"`
	CNote       string        `json:"c_note,omitempty"` // why the C baseline is missing
	Jobs        []*Job        `json:"jobs"`
	RSS         []RSSRun      `json:"rss"`
}

// find returns the job with these parameters, or nil.
func (r *Results) find(lang string, n int, method queens.Method, kern string, workers int) *Job {
	for _, j := range r.Jobs {
		if j.Lang == lang && j.N == n && j.Method == string(method) && j.Kernel == kern && j.Workers == workers {
			return j
		}
	}
	return nil
}

// measure runs the whole benchmark.
func measure(ctx context.Context, cfg config, log io.Writer) (*Results, error) {
	start := time.Now()
	res := &Results{
		Date: start.UTC(), Command: cfg.commandLine(), Rounds: cfg.rounds, MinN: cfg.minN, MaxN: cfg.maxN, JoinMaxN: cfg.joinMaxN,
		Env: environment(), BestKernel: kernel.Best().Name, JoinKernel: join.Best().Name, MaxWorkers: runtime.GOMAXPROCS(0),
	}
	res.Env.LoadBefore = meter.LoadAverage()
	for _, k := range kernel.All() {
		if k.Supported() {
			res.Kernels = append(res.Kernels, k.Name)
		} else {
			res.Unsupported = append(res.Unsupported, k.Name)
		}
	}
	for _, n := range []int{16, 17} {
		if n >= cfg.minN && n <= cfg.maxN {
			res.ScalingN = append(res.ScalingN, n)
		}
	}
	if len(res.ScalingN) == 0 {
		res.ScalingN = []int{cfg.maxN}
	}
	fmt.Fprintf(log, "bench: %s, %d logical CPUs, GOMAXPROCS %d, %s; kernels %s (best %s)\n",
		res.Env.CPU, res.Env.LogicalCPUs, res.Env.GOMAXPROCS, res.Env.GoVersion, strings.Join(res.Kernels, ", "), res.BestKernel)
	if res.busy() {
		fmt.Fprintf(log, "bench: warning: load average %s on %d logical CPUs; other processes will compete for the cores\n", res.Env.LoadBefore, res.Env.LogicalCPUs)
	}

	tmp, err := os.MkdirTemp("", "nqbench")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	root, err := moduleRoot(ctx)
	if err != nil {
		return nil, err
	}

	// The C baseline, compiled before any timing.
	var cbin string
	if cfg.noC {
		res.CNote = "skipped (--no-c)"
	} else {
		cbin, res.Env.CC, res.CNote, err = buildBaseline(ctx, cfg.cc, filepath.Join(root, "bench", "baseline", "baseline.c"), tmp)
		if err != nil {
			return nil, err
		}
		if cbin != "" {
			if err := checkBaseline(ctx, cbin, min(cfg.minN, 11)); err != nil {
				return nil, err
			}
		} else {
			fmt.Fprintf(log, "bench: C baseline %s\n", res.CNote)
		}
	}

	// The configurations, each listed once.
	seen := map[string]bool{}
	add := func(j *Job) {
		if !seen[j.key()] {
			seen[j.key()] = true
			res.Jobs = append(res.Jobs, j)
		}
	}
	// Grouped by board size, so that the configurations compared with
	// each other (kernels, halving, C, more workers) run one right after
	// the other and see the same load on the machine.
	cons, half, jn := string(queens.Constellations), string(queens.Halving), string(queens.Join)
	var groups [][]*Job
	for n := cfg.minN; n <= cfg.joinMaxN; n++ {
		before := len(res.Jobs)
		add(&Job{Lang: "go", N: n, Method: jn, Kernel: res.JoinKernel, Workers: 1})
		if n > cfg.maxN {
			groups = append(groups, res.Jobs[before:])
			continue
		}
		for _, k := range res.Kernels {
			add(&Job{Lang: "go", N: n, Method: cons, Kernel: k, Workers: 1})
		}
		add(&Job{Lang: "go", N: n, Method: half, Kernel: res.BestKernel, Workers: 1})
		if cbin != "" {
			add(&Job{Lang: "c", N: n, Method: half, Workers: 1})
		}
		if slices.Contains(res.ScalingN, n) {
			for w := 2; w <= res.MaxWorkers; w++ {
				add(&Job{Lang: "go", N: n, Method: cons, Kernel: res.BestKernel, Workers: w})
			}
		}
		groups = append(groups, res.Jobs[before:])
	}

	// One untimed count per Go configuration at the smallest n, so that
	// the first timed round does not pay for cold code and caches.
	for _, j := range res.Jobs {
		if j.Lang == "go" && j.N == cfg.minN {
			if _, _, err := timeGo(ctx, &Job{N: j.N, Method: j.Method, Kernel: j.Kernel, Workers: j.Workers}); err != nil {
				return nil, fmt.Errorf("warm-up %s: %w", j.key(), err)
			}
		}
	}

	// Interleaved rounds: every configuration once per round. From round
	// to round the groups are rotated, so that no size always runs first,
	// and every other round runs each group backwards, so that neither
	// side of a comparison always goes first.
	total := len(res.Jobs) * cfg.rounds
	done := 0
	for r := 0; r < cfg.rounds; r++ {
		for g := range groups {
			group := slices.Clone(groups[(g+r*len(groups)/cfg.rounds)%len(groups)])
			if r%2 == 1 {
				slices.Reverse(group)
			}
			for _, j := range group {
				done++
				var wall, cpu float64
				if j.Lang == "c" {
					wall, cpu, err = timeC(ctx, cbin, j.N)
				} else {
					wall, cpu, err = timeGo(ctx, j)
				}
				if err != nil {
					return nil, fmt.Errorf("%s: %w", j.key(), err)
				}
				j.Seconds = append(j.Seconds, wall)
				if cpu > 0 {
					j.CPU = append(j.CPU, cpu)
				}
				fmt.Fprintf(log, "round %d/%d [%d/%d] %-55s %9.4f s wall %9.4f s cpu\n", r+1, cfg.rounds, done, total, j.key(), wall, cpu)
			}
		}
	}

	// Peak memory of the command-line counter.
	res.RSS, err = measureRSS(ctx, root, tmp, cfg, log)
	if err != nil {
		return nil, err
	}
	res.Env.LoadAfter = meter.LoadAverage()
	res.Took = time.Since(start)
	return res, nil
}

// timeGo counts once in this process and checks the total. It returns the
// wall time and the process's CPU time over the count (0 where unknown).
func timeGo(ctx context.Context, j *Job) (wall, cpu float64, err error) {
	runtime.GC()
	c0 := meter.SelfCPU()
	t0 := time.Now()
	e := queens.Execution{Kernel: j.Kernel, Workers: j.Workers}.Resolve()
	var r queens.Result
	p, err := queens.NewPlan(queens.Spec{N: j.N, Method: queens.Method(j.Method), Workers: e.Workers, Kernel: e.Kernel})
	if err == nil {
		r, err = queens.Count(ctx, p, e, count.All(p.Len()), queens.Options{})
	}
	wall = time.Since(t0).Seconds()
	if c0 > 0 {
		cpu = meter.SelfCPU() - c0
	}
	if err != nil {
		return 0, 0, err
	}
	if err := checkCount(j.N, r.Total); err != nil {
		return 0, 0, err
	}
	j.Nodes = r.Nodes.Lo
	return wall, cpu, nil
}

// checkCount fails loudly when a total disagrees with OEIS A000170.
func checkCount(n int, got count.Uint128) error {
	want, ok := queens.Known(n)
	if !ok {
		return fmt.Errorf("n = %d: no known value to check the count against", n)
	}
	if got.Cmp(count.U128(want)) != 0 {
		return fmt.Errorf("WRONG COUNT: n = %d gave %s, OEIS A000170 says %d", n, got, want)
	}
	return nil
}

func environment() Env {
	c := cpuid.CPU
	e := Env{
		CPU: strings.TrimSpace(c.BrandName), LogicalCPUs: runtime.NumCPU(),
		GoVersion: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH, GOMAXPROCS: runtime.GOMAXPROCS(0),
		X64Level: c.X64Level(),
	}
	if e.CPU == "" {
		e.CPU = "unknown CPU"
	}
	for _, f := range []cpuid.FeatureID{cpuid.POPCNT, cpuid.BMI1, cpuid.BMI2, cpuid.LZCNT, cpuid.AVX2, cpuid.AVX512F, cpuid.AVX512VL, cpuid.AVX512BW, cpuid.ASIMD, cpuid.SVE} {
		if c.Supports(f) {
			e.Features = append(e.Features, f.String())
		}
	}
	return e
}

// moduleRoot is the folder of the module's go.mod.
func moduleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("run the benchmark inside the nqcount module (go run ./bench)")
	}
	return filepath.Dir(mod), nil
}
