package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nqcount/nqcount/bench/internal/meter"
	"github.com/nqcount/nqcount/bench/internal/report"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/internal/cli"
)

// Bar is one target of the benchmark (the bars bench/README.md lists)
// and how this run fared.
type Bar struct {
	Name     string  `json:"name"`
	Target   string  `json:"target"`
	Measured string  `json:"measured"`
	Value    float64 `json:"value,omitempty"`
	CPU      string  `json:"cpu_time_ratio,omitempty"` // the same ratio in CPU time, as a cross-check
	Result   string  `json:"result"`                   // PASS, FAIL or n/a
}

func judge(ok bool) string {
	if ok {
		return "PASS"
	}
	return "FAIL"
}

func wall(j *Job) []float64 {
	if j == nil {
		return nil
	}
	return j.Seconds
}

func cpu(j *Job) []float64 {
	if j == nil {
		return nil
	}
	return j.CPU
}

// vsC is how many times faster the Go job is than the C baseline at n (C's
// time over Go's, paired by round), or 0 when either is missing.
func (r *Results) vsC(n int, method queens.Method, kern string) float64 {
	return meter.Paired(wall(r.find("c", n, queens.Halving, "", 1)), wall(r.find("go", n, method, kern, 1)))
}

// vsCCPU is vsC in CPU time.
func (r *Results) vsCCPU(n int, method queens.Method, kern string) float64 {
	return meter.Paired(cpu(r.find("c", n, queens.Halving, "", 1)), cpu(r.find("go", n, method, kern, 1)))
}

// coresUsed is the median over rounds of CPU time over wall time: how
// many cores the configuration actually got (0 when unknown).
func coresUsed(j *Job) float64 {
	return meter.Paired(cpu(j), wall(j))
}

// speedup is the time on 1 worker over the time on w workers, paired by
// round.
func (r *Results) speedup(n, w int) float64 {
	return meter.Paired(wall(r.find("go", n, queens.Constellations, r.BestKernel, 1)), wall(r.find("go", n, queens.Constellations, r.BestKernel, w)))
}

// bars evaluates the targets.
func (r *Results) bars() []Bar {
	var bars []Bar
	for _, b := range []struct {
		n      int
		target float64
	}{{17, 3.0}, {16, 2.5}} {
		bar := Bar{
			Name:   fmt.Sprintf("n = %d, 1 worker: Go constellations (%s) vs C halving", b.n, r.BestKernel),
			Target: fmt.Sprintf("≥%.1f×", b.target),
		}
		switch v := r.vsC(b.n, queens.Constellations, r.BestKernel); {
		case r.CNote != "":
			bar.Measured, bar.Result = "C baseline "+r.CNote, "n/a"
		case v == 0:
			bar.Measured, bar.Result = fmt.Sprintf("not measured (needs --max-n ≥ %d)", b.n), "n/a"
		default:
			bar.Measured, bar.Value, bar.Result = fmt.Sprintf("%.2f×", v), v, judge(v >= b.target)
			if c := r.vsCCPU(b.n, queens.Constellations, r.BestKernel); c > 0 {
				bar.CPU = fmt.Sprintf("%.2f×", c)
			}
		}
		bars = append(bars, bar)
	}
	p := r.MaxWorkers
	target := 1.9
	if p != 2 {
		target = 0.95 * float64(p)
	}
	bar := Bar{
		Name:   fmt.Sprintf("n = 17, speed-up on all %d workers (constellations, %s)", p, r.BestKernel),
		Target: fmt.Sprintf("≥%.2g", target),
	}
	if p != 2 {
		bar.Target += " (0.95·P; the bar is 1.9 on 2 cores)"
	}
	switch v := r.speedup(17, p); {
	case p < 2:
		bar.Measured, bar.Result = "one core only", "n/a"
	case v == 0:
		bar.Measured, bar.Result = "not measured (needs --max-n ≥ 17)", "n/a"
	default:
		bar.Measured, bar.Value, bar.Result = fmt.Sprintf("%.2f", v), v, judge(v >= target)
		if c := coresUsed(r.find("go", 17, queens.Constellations, r.BestKernel, p)); c > 0 {
			bar.CPU = fmt.Sprintf("%.2f cores used of %d", c, p)
		}
	}
	bars = append(bars, bar)
	bar = Bar{Name: "peak RSS of nqueens count (constellations)", Target: "<50 MiB"}
	var peak float64
	var where []string
	for _, x := range r.RSS {
		if x.Method != string(queens.Constellations) {
			continue // the join's memory is its price, reported below
		}
		peak = max(peak, x.PeakMiB)
		where = append(where, fmt.Sprint("n = ", x.N))
	}
	if peak == 0 {
		bar.Measured, bar.Result = "not measured on this system", "n/a"
	} else {
		bar.Measured = fmt.Sprintf("%.1f MiB (max over %s)", peak, strings.Join(where, ", "))
		bar.Value, bar.Result = peak, judge(peak < 50)
	}
	return append(bars, bar)
}

func printBars(w io.Writer, bars []Bar) {
	fmt.Fprintln(w, "bars:")
	for _, b := range bars {
		printBar(w, b)
	}
}

// printBar writes one bar's line (the queue mode's too).
func printBar(w io.Writer, b Bar) {
	cpu := ""
	if b.CPU != "" {
		cpu = " (CPU time: " + b.CPU + ")"
	}
	fmt.Fprintf(w, "  %s: bar: %s, measured: %s %s%s\n", b.Name, b.Target, b.Measured, b.Result, cpu)
}

func ratio(v float64) string {
	if v == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f×", v)
}

// spread is the median with the range of the rounds.
func spread(j *Job) (med, rng string) {
	if j == nil {
		return "–", "–"
	}
	lo, hi := j.Seconds[0], j.Seconds[0]
	for _, s := range j.Seconds {
		lo, hi = min(lo, s), max(hi, s)
	}
	return meter.Seconds(j.Median()), meter.Seconds(lo) + "–" + meter.Seconds(hi)
}

func solutionsPerSec(j *Job) float64 {
	k, _ := queens.Known(j.N)
	return float64(k) / j.Median()
}

// stamp is the line under every figure saying how to reproduce it.
func (r *Results) stamp() string {
	return fmt.Sprintf("_Reproduce: `%s` · %s · %s · %s._\n", r.Command, r.Env.CPU, strings.Fields(r.Env.GoVersion)[0], r.Date.Format("2006-01-02"))
}

// markdown is the block between the markers of RESULTS.md.
func (r *Results) markdown(bars []Bar, chartDir string) string {
	var b strings.Builder
	pf := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	pf("_Generated by `%s` on %s UTC in %s; rerun it rather than editing this block._\n\n",
		r.Command, r.Date.Format("2006-01-02 15:04"), r.Took.Round(1e9))
	env := report.Table{Header: []string{"", ""}}
	env.AddRow("CPU", fmt.Sprintf("%s, %d logical CPUs, features %s, x86-64 level v%d",
		r.Env.CPU, r.Env.LogicalCPUs, strings.Join(r.Env.Features, " "), r.Env.X64Level))
	env.AddRow("Go", fmt.Sprintf("%s, GOMAXPROCS %d; counts run in the runner's process (`queens.Count`)", r.Env.GoVersion, r.Env.GOMAXPROCS))
	if r.CNote == "" {
		env.AddRow("C", fmt.Sprintf("%s, `cc %s bench/baseline/baseline.c`; timed as a whole process, compile time excluded", r.Env.CC, strings.Join(cFlags, " ")))
	} else {
		env.AddRow("C", "baseline "+r.CNote)
	}
	env.AddRow("Method", fmt.Sprintf("%d interleaved round(s); configurations grouped by n, groups rotated and reversed from round to round; median wall time and range over rounds; ratios paired within rounds", r.Rounds))
	if r.Env.LoadBefore != "" {
		busy := ""
		if r.busy() {
			busy = fmt.Sprintf(" — **busy machine**: the load exceeded half of the %d logical CPUs, so other processes competed for the cores: absolute times, and the speed-up above all, are pessimistic", r.Env.LogicalCPUs)
		}
		env.AddRow("Load average (1, 5, 15 min)", fmt.Sprintf("%s before, %s after (the runner's own load included)%s", r.Env.LoadBefore, r.Env.LoadAfter, busy))
	}
	env.AddRow("Kernels", fmt.Sprintf("%s timed (best: %s)%s", strings.Join(r.Kernels, ", "), r.BestKernel, unsupported(r.Unsupported)))
	b.WriteString(env.String())
	pf("\nEvery count timed was checked against OEIS A000170; a mismatch stops the run.\n\n")

	pf("### Bars\n\n")
	bt := report.Table{Header: []string{"bar", "target", "measured (wall time)", "result", "cross-check: CPU time"}, Align: "llrlr"}
	for _, x := range bars {
		c := x.CPU
		if c == "" {
			c = "–"
		}
		bt.AddRow(x.Name, x.Target, x.Measured, "**"+x.Result+"**", c)
	}
	b.WriteString(bt.String())
	pf("\nA ratio against C is the C baseline's time over Go's: how many times faster Go is. Ratios and speed-ups are the median over rounds of the ratio within each round, where the two configurations ran one right after the other; the bars are judged on wall time, and the same ratio in CPU time (user + system, which time-sharing with other processes barely affects) is shown as a cross-check. For the speed-up, the cross-check is how many cores the count actually got (CPU time over wall time): well under the number of workers means other processes held the cores.\n\n")
	b.WriteString(r.stamp())

	pf("\n### Kernels (constellations, 1 worker)\n\n")
	kt := report.Table{Header: []string{"n", "kernel", "median s", "range s", "solutions/s", "nodes/s", "vs C halving", "vs C, CPU time"}, Align: "rlrrrrrr"}
	for n := r.MinN; n <= r.MaxN; n++ {
		for _, k := range r.Kernels {
			j := r.find("go", n, queens.Constellations, k, 1)
			med, rng := spread(j)
			kt.AddRow(fmt.Sprint(n), k, med, rng, cli.Rate(solutionsPerSec(j)), cli.Rate(float64(j.Nodes)/j.Median()),
				ratio(r.vsC(n, queens.Constellations, k)), ratio(r.vsCCPU(n, queens.Constellations, k)))
		}
	}
	b.WriteString(kt.String())
	pf("\n![solutions per second against n](%s)\n\n", filepath.ToSlash(filepath.Join(chartDir, "throughput.svg")))
	b.WriteString(r.stamp())

	pf("\n### Symmetry against halving, Go against C (1 worker)\n\n")
	pf("Go with kernel %s; the C baseline is classic mirror halving (`bench/baseline/baseline.c`).\n\n", r.BestKernel)
	mt := report.Table{Header: []string{"n", "Go constellations s", "Go halving s", "C halving s", "constellations vs halving", "Go constellations vs C", "Go halving vs C"}, Align: "rrrrrrr"}
	for n := r.MinN; n <= r.MaxN; n++ {
		c := r.find("go", n, queens.Constellations, r.BestKernel, 1)
		h := r.find("go", n, queens.Halving, r.BestKernel, 1)
		cm, _ := spread(c)
		hm, _ := spread(h)
		cc, _ := spread(r.find("c", n, queens.Halving, "", 1))
		sym := meter.Paired(wall(h), wall(c))
		mt.AddRow(fmt.Sprint(n), cm, hm, cc, ratio(sym), ratio(r.vsC(n, queens.Constellations, r.BestKernel)), ratio(r.vsC(n, queens.Halving, r.BestKernel)))
	}
	b.WriteString(mt.String())
	pf("\n")
	b.WriteString(r.stamp())

	pf("\n### Join against constellations (1 worker)\n\n")
	pf("The join method (package `count/queens/join`, kernel %s) against the constellation backtracker (kernel %s), one worker; beyond n = %d the join alone. The speed-up is constellations' time over the join's (how many times faster the join is), paired within rounds.\n\n", r.JoinKernel, r.BestKernel, r.MaxN)
	jt := report.Table{Header: []string{"n", "join median s", "range s", "constellations median s", "join speed-up", "speed-up, CPU time", "join solutions/s"}, Align: "rrrrrrr"}
	for n := r.MinN; n <= r.JoinMaxN; n++ {
		j := r.find("go", n, queens.Join, r.JoinKernel, 1)
		c := r.find("go", n, queens.Constellations, r.BestKernel, 1)
		jm, jr := spread(j)
		cm, _ := spread(c)
		jt.AddRow(fmt.Sprint(n), jm, jr, cm, ratio(meter.Paired(wall(c), wall(j))), ratio(meter.Paired(cpu(c), cpu(j))), cli.Rate(solutionsPerSec(j)))
	}
	b.WriteString(jt.String())
	pf("\n![time against n, both methods and the published figures](%s)\n\n", filepath.ToSlash(filepath.Join(chartDir, "time.svg")))
	pf("The dashed series are published figures, not measured here: Kluev's quadrant counter on a 2013 4-core desktop, all cores, from its README (n = 20 in 2m53s, 21 in 28m12s, 22 in 3h51m), and NQueensFAF's announced n = 22 in 2h25m on one core of an i5-12600K.\n\n")
	b.WriteString(r.stamp())

	pf("\n### Workers (constellations, %s)\n\n", r.BestKernel)
	wt := report.Table{Header: []string{"n", "workers", "median s", "range s", "speed-up", "efficiency", "cores used"}, Align: "rrrrrrr"}
	for _, n := range r.ScalingN {
		for w := 1; w <= r.MaxWorkers; w++ {
			j := r.find("go", n, queens.Constellations, r.BestKernel, w)
			med, rng := spread(j)
			s := r.speedup(n, w)
			used := "–"
			if c := coresUsed(j); c > 0 {
				used = fmt.Sprintf("%.2f", c)
			}
			wt.AddRow(fmt.Sprint(n), fmt.Sprint(w), med, rng, fmt.Sprintf("%.2f", s), fmt.Sprintf("%.0f%%", 100*s/float64(w)), used)
		}
	}
	b.WriteString(wt.String())
	pf("\n_Cores used_ is CPU time over wall time (median over rounds): how much of the machine the count actually got.\n")
	pf("\n![speed-up against workers](%s)\n\n", filepath.ToSlash(filepath.Join(chartDir, "speedup.svg")))
	b.WriteString(r.stamp())

	pf("\n### Peak memory (`nqueens count N`, all workers)\n\n")
	rt := report.Table{Header: []string{"n", "method", "run", "wall s", "peak RSS MiB"}, Align: "rllrr"}
	for _, x := range r.RSS {
		run := "complete, count checked"
		if !x.Finished {
			run = fmt.Sprintf("interrupted after %.0f s, not finished (the plan and the worker pool are set up at the start)", x.Limit)
		}
		rt.AddRow(fmt.Sprint(x.N), x.Method, run, meter.Seconds(x.Seconds), fmt.Sprintf("%.1f", x.PeakMiB))
	}
	b.WriteString(rt.String())
	pf("\nPeak resident set size from the kernel's rusage of the child process (`ProcessState.SysUsage`).\n\n")
	b.WriteString(r.stamp())
	return b.String()
}

// busy reports whether the run's machine was busy (Env.busy).
func (r *Results) busy() bool { return r.Env.busy() }

// busy reports whether the 1-minute load average before the run exceeded
// half the logical CPUs. (The load after it includes the runner's own.)
func (e Env) busy() bool { return meter.Busy(e.LoadBefore, e.LogicalCPUs) }

func unsupported(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return "; not supported by this CPU: " + strings.Join(names, ", ")
}

// published are figures of other counters, for the time chart: seconds
// per n, from their authors (not measured here).
var published = []struct {
	name string
	pts  map[int]float64
}{
	{"Kluev quadrants, 4 cores, 2013 desktop (published)", map[int]float64{20: 2*60 + 53, 21: 28*60 + 12, 22: 3*3600 + 51*60}},
	{"NQueensFAF new method, 1 core i5-12600K (announced)", map[int]float64{22: 8700}},
}

// timeChart returns the chart of time against n, one worker, for both
// methods, with the published figures.
func (r *Results) timeChart() report.Chart {
	c := report.Chart{
		Title:  fmt.Sprintf("Time to count Q(n), 1 worker (%s)", r.Env.CPU),
		XLabel: "n (board size)", YLabel: "seconds (log scale)", LogY: true,
	}
	add := func(name string, m queens.Method, kern string) {
		s := report.Series{Name: name}
		for n := r.MinN; n <= r.JoinMaxN; n++ {
			if j := r.find("go", n, m, kern, 1); j != nil && j.Median() > 0 {
				s.Points = append(s.Points, report.Point{X: float64(n), Y: j.Median()})
			}
		}
		if len(s.Points) > 0 {
			c.Series = append(c.Series, s)
		}
	}
	add("Go constellations, "+r.BestKernel, queens.Constellations, r.BestKernel)
	add("Go join, "+r.JoinKernel, queens.Join, r.JoinKernel)
	for _, p := range published {
		s := report.Series{Name: p.name, Dashed: true}
		for n := 4; n <= 27; n++ {
			if v, ok := p.pts[n]; ok {
				s.Points = append(s.Points, report.Point{X: float64(n), Y: v})
			}
		}
		c.Series = append(c.Series, s)
	}
	return c
}

// charts returns the throughput and speed-up charts.
func (r *Results) charts() (throughput, speedup report.Chart) {
	throughput = report.Chart{
		Title:  fmt.Sprintf("Solutions per second, 1 worker (%s)", r.Env.CPU),
		XLabel: "n (board size)", YLabel: "solutions/s (log scale)", LogY: true,
	}
	series := func(name, lang string, m queens.Method, kern string) {
		s := report.Series{Name: name}
		for n := r.MinN; n <= r.MaxN; n++ {
			if j := r.find(lang, n, m, kern, 1); j != nil {
				s.Points = append(s.Points, report.Point{X: float64(n), Y: solutionsPerSec(j)})
			}
		}
		if len(s.Points) > 0 {
			throughput.Series = append(throughput.Series, s)
		}
	}
	for _, k := range r.Kernels {
		series("Go constellations, "+k, "go", queens.Constellations, k)
	}
	series("Go halving, "+r.BestKernel, "go", queens.Halving, r.BestKernel)
	series("C halving (cc -O3 -march=native)", "c", queens.Halving, "")

	speedup = report.Chart{
		Title:  fmt.Sprintf("Speed-up against workers, constellations, %s", r.BestKernel),
		XLabel: "workers", YLabel: "speed-up over 1 worker",
	}
	ideal := report.Series{Name: "ideal", Dashed: true}
	for w := 1; w <= r.MaxWorkers; w++ {
		ideal.Points = append(ideal.Points, report.Point{X: float64(w), Y: float64(w)})
	}
	speedup.Series = append(speedup.Series, ideal)
	for _, n := range r.ScalingN {
		s := report.Series{Name: fmt.Sprintf("n = %d", n)}
		for w := 1; w <= r.MaxWorkers; w++ {
			s.Points = append(s.Points, report.Point{X: float64(w), Y: r.speedup(n, w)})
		}
		speedup.Series = append(speedup.Series, s)
	}
	return throughput, speedup
}

// write rewrites the marked block of cfg.out and the charts (unless
// cfg.out is empty) and writes the JSON (if asked for).
func (r *Results) write(cfg config, bars []Bar) error {
	if cfg.out != "" {
		if err := r.writeMarkdown(cfg, bars); err != nil {
			return err
		}
	}
	if cfg.jsonOut != "" {
		b, err := json.MarshalIndent(struct {
			*Results
			Bars []Bar `json:"bars"`
		}{r, bars}, "", "  ")
		if err != nil {
			return err
		}
		return os.WriteFile(cfg.jsonOut, append(b, '\n'), 0o644)
	}
	return nil
}

// writeMarkdown rewrites the marked block of cfg.out and the charts.
func (r *Results) writeMarkdown(cfg config, bars []Bar) error {
	if err := os.MkdirAll(cfg.charts, 0o755); err != nil {
		return err
	}
	tp, sp := r.charts()
	tc := r.timeChart()
	for name, c := range map[string]*report.Chart{"throughput.svg": &tp, "speedup.svg": &sp, "time.svg": &tc} {
		if err := os.WriteFile(filepath.Join(cfg.charts, name), c.SVG(), 0o644); err != nil {
			return err
		}
	}
	rel, err := filepath.Rel(filepath.Dir(cfg.out), cfg.charts)
	if err != nil {
		rel = cfg.charts
	}
	doc, err := os.ReadFile(cfg.out)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	if os.IsNotExist(err) {
		doc = []byte("# Benchmark results\n")
	}
	updated, err := report.ReplaceBlock(string(doc), r.markdown(bars, rel))
	if err != nil {
		return fmt.Errorf("%s: %w", cfg.out, err)
	}
	return os.WriteFile(cfg.out, []byte(updated), 0o644)
}

// knownString is A000170(n) in decimal.
func knownString(n int) (string, bool) {
	k, ok := queens.Known(n)
	return fmt.Sprint(k), ok
}
