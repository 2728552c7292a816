package suite

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/nqcount/nqcount/bench/internal/meter"
	"github.com/nqcount/nqcount/internal/cli"
)

// WriteText writes the report as the human table `nqueens bench` prints.
func (r *Report) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	pf := func(format string, a ...any) { fmt.Fprintf(ew, format, a...) }
	m := r.Machine
	rounds := "rounds each, median"
	if r.Rounds == 1 {
		rounds = "round,"
	}
	pf("nqueens bench, %s suite: %s on %s workers, %d %s wall time\n",
		r.Suite, r.workloadSizes(), joinInts(r.Workers), r.Rounds, rounds)
	pf("cpu:     %s; %d logical CPUs for this process, GOMAXPROCS %d; %s/%s\n", m.CPU, m.NumCPU, m.GOMAXPROCS, m.OS, m.Arch)
	threads := "threads"
	if m.CPUIDThreadsPerCore == 1 {
		threads = "thread"
	}
	pf("cpuid:   %s logical, %s physical cores, %d %s per core\n",
		orUnknown(m.CPUIDLogicalCores), orUnknown(m.CPUIDPhysicalCores), m.CPUIDThreadsPerCore, threads)
	pf("SMT:     %s: %s\n", m.SMT, m.Note)
	version := r.Version
	if !strings.Contains(version, m.GoVersion) {
		version += ", " + m.GoVersion
	}
	var kernels []string
	for _, wl := range r.Workloads {
		kernels = append(kernels, fmt.Sprintf("%s with kernel %s", wl.Method, wl.Kernel))
	}
	pf("counter: nqcount %s; %s\n", version, strings.Join(kernels, ", "))
	if m.LoadAverage != "" {
		pf("load:    %s before the run (1, 5, 15 min)", m.LoadAverage)
		if m.Busy() {
			pf(": BUSY, other processes competed for the cores; times and score are pessimistic (see cores used)")
		}
		pf("\n")
	}
	pf("\n")

	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "method\tkernel\tn\tworkers\tseconds\tsolutions/s\tnodes/s\tper core\tspeed-up\tefficiency\tcores used\tOEIS\t")
	for _, x := range r.Runs {
		used := "–"
		if x.CoresUsed > 0 {
			used = fmt.Sprintf("%.2f", x.CoresUsed)
		}
		check := "ok"
		if !x.MatchesKnown {
			check = fmt.Sprintf("MISMATCH: %s, A000170 says %d", x.Total, x.Known)
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t%.2f\t%.0f%%\t%s\t%s\t\n", x.Method, x.Kernel, x.N, x.Workers, meter.Seconds(x.Seconds),
			cli.Rate(x.SolutionsPerSecond), cli.Rate(x.NodesPerSecond), cli.Rate(x.NodesPerSecondPerCore),
			x.Speedup, 100*x.Efficiency, used, check)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	pf("\n")
	if bad := r.Mismatches(); len(bad) > 0 {
		pf("FAILED: %d of %d configurations counted a total that disagrees with OEIS A000170: no score\n", len(bad), len(r.Runs))
	} else {
		pf("score %.2f: geometric mean over %s of the solutions/s on %d workers, each over the reference's\n", r.Score, r.workloadSizes(), r.P)
		pf("  reference: %s\n", r.ScoreReference)
		if r.SMTGain > 0 {
			pf("SMT: %d workers count %.2f× as fast as %d (one a core)\n", r.P, r.SMTGain, r.Machine.Cores)
		}
		if r.PeakRSS > 0 {
			pf("peak memory %.1f MiB; ", float64(r.PeakRSS)/(1<<20))
		}
		pf("every count of every round matches OEIS A000170; took %.1f s\n", r.Seconds)
	}
	return ew.err
}

// WriteJSON writes the report as one indented JSON object; "runs" holds
// one object per configuration (see Run for the fields).
func (r *Report) WriteJSON(w io.Writer) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// CSVHeader is the first line WriteCSV writes: one column per field of
// Run, round times left out.
var CSVHeader = []string{
	"suite", "method", "kernel", "n", "workers", "seconds", "rounds", "cpu_seconds", "cores_used", "nodes", "nodes_per_second",
	"nodes_per_second_per_core", "solutions_per_second", "speedup", "efficiency", "tasks", "depth",
	"total", "known", "matches_known",
}

// WriteCSV writes one line per configuration under CSVHeader. The score
// is not in it (it is not a property of one run): use WriteJSON or
// WriteText for that.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	if err := cw.Write(CSVHeader); err != nil {
		return err
	}
	for _, x := range r.Runs {
		rec := []string{
			r.Suite, string(x.Method), x.Kernel, strconv.Itoa(x.N), strconv.Itoa(x.Workers), f(x.Seconds), strconv.Itoa(len(x.RoundSeconds)),
			f(x.CPUSeconds), f(x.CoresUsed), strconv.FormatUint(x.Nodes, 10), f(x.NodesPerSecond),
			f(x.NodesPerSecondPerCore), f(x.SolutionsPerSecond), f(x.Speedup), f(x.Efficiency),
			strconv.Itoa(x.Tasks), strconv.Itoa(x.Depth), x.Total.String(), strconv.FormatUint(x.Known, 10),
			strconv.FormatBool(x.MatchesKnown),
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// errWriter keeps the first write error, so that a run of Fprintf calls
// can be checked once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

func orUnknown(v int) string {
	if v <= 0 {
		return "?"
	}
	return strconv.Itoa(v)
}

// workloadSizes names the workloads' sizes: "join n = 16, 17 and
// constellations n = 15, 16".
func (r *Report) workloadSizes() string {
	var parts []string
	for _, wl := range r.Workloads {
		parts = append(parts, fmt.Sprintf("%s n = %s", wl.Method, joinInts(wl.Sizes)))
	}
	return strings.Join(parts, " and ")
}
