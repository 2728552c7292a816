// Command bench is the benchmark runner of nqcount. It times, side by side
// in one run (interleaved rounds, medians), every supported kernel, the
// symmetry method against plain mirror halving, 1..P workers, and a classic
// C bitboard baseline; measures the counter's peak memory; checks every
// count against OEIS A000170; and rewrites the marked block of RESULTS.md
// with tables and SVG charts. With --queue N it times only a count through
// the work queue against nqueens count (bench/queue.go).
//
//	go run ./bench                 # n = 12..17, 3 rounds: several minutes
//	go run ./bench --quick         # n = 12..14, 1 round: a few seconds, writes no file
//	go run ./bench --queue 17      # only the work queue against nqueens count
//
// See bench/README.md.
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/nqcount/nqcount/count/queens"
)

// config is what the flags set.
type config struct {
	minN, maxN int
	joinMaxN   int // the join method is timed up to here
	rounds     int
	quick      bool
	out        string        // markdown file whose marked block is rewritten ("": none)
	charts     string        // folder for the SVG charts
	jsonOut    string        // optional raw measurements
	noC        bool          // skip the C baseline
	cc         string        // C compiler
	rssProbe   time.Duration // how long to watch the n = 20 counter (0: not at all)
	rssProbeN  int
	strict     bool     // exit 1 when a bar fails
	args       []string // the command line, for the reproduce lines

	// The queue-against-count mode (bench/queue.go): with queueN > 0 the
	// runner times only that comparison.
	queueN       int
	queueWorkers int
	queueMethod  queens.Method
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process: it returns the exit status (0 done, 1 a
// failure such as a wrong count, 2 a usage error).
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if cfg.queueN > 0 {
		return runQueue(ctx, cfg, stdout, stderr)
	}
	res, err := measure(ctx, cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 1
	}
	bars := res.bars()
	printBars(stdout, bars)
	if err := res.write(cfg, bars); err != nil {
		fmt.Fprintf(stderr, "bench: %v\n", err)
		return 1
	}
	if cfg.out == "" {
		fmt.Fprintf(stdout, "quick run: RESULTS.md and the charts left alone (name --out FILE to write a results file) (%s)\n", res.Took.Round(time.Second))
	} else {
		fmt.Fprintf(stdout, "wrote %s and charts in %s (%s)\n", cfg.out, cfg.charts, res.Took.Round(time.Second))
	}
	if cfg.strict {
		for _, b := range bars {
			if b.Result == "FAIL" {
				return 1
			}
		}
	}
	return 0
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg config
	var n18 bool
	fs.IntVar(&cfg.minN, "min-n", 12, "smallest board size timed")
	fs.IntVar(&cfg.maxN, "max-n", 17, "largest board size timed (18 takes minutes per configuration)")
	fs.IntVar(&cfg.joinMaxN, "join-max-n", 0, "time the join method alone beyond --max-n up to this n (20: about 2 minutes a round on a Zen 4 core; 0: --max-n)")
	fs.BoolVar(&n18, "n18", false, "same as --max-n 18")
	fs.IntVar(&cfg.rounds, "rounds", 3, "interleaved rounds; each configuration's median is reported")
	fs.BoolVar(&cfg.quick, "quick", false, "smoke run for CI: n ≤ 14, 1 round, no n = 20 memory probe")
	fs.StringVar(&cfg.out, "out", "", "markdown file whose block between the bench markers is rewritten (default RESULTS.md; none with --quick)")
	fs.StringVar(&cfg.charts, "charts", "", "folder the SVG charts are written to (default docs, or docs beside --out with --quick)")
	fs.StringVar(&cfg.jsonOut, "json", "", "also write every measurement to this JSON file")
	fs.BoolVar(&cfg.noC, "no-c", false, "skip the C baseline")
	fs.StringVar(&cfg.cc, "cc", "cc", "C compiler for the baseline")
	fs.DurationVar(&cfg.rssProbe, "rss-probe", 20*time.Second, "watch the memory of an n = --rss-probe-n count this long, then stop it (0: skip)")
	fs.IntVar(&cfg.rssProbeN, "rss-probe-n", 20, "board size of the memory probe")
	fs.BoolVar(&cfg.strict, "strict", false, "exit with status 1 when a bar is not met")
	fs.IntVar(&cfg.queueN, "queue", 0, "time only n = `N` through the work queue (serve, work, submit --wait) against nqueens count N (0: off)")
	fs.IntVar(&cfg.queueWorkers, "queue-workers", runtime.GOMAXPROCS(0), "with --queue: tasks counted at once, by the queue's worker and by count")
	method := fs.String("queue-method", string(queens.Auto), "with --queue: counting method of both (auto, constellations, halving or join)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: go run ./bench [flags]\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "bench: unexpected arguments %q\n", fs.Args())
		return cfg, errors.New("usage")
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if cfg.queueN != 0 || set["queue-workers"] || set["queue-method"] {
		return parseQueueFlags(cfg, *method, set, args, stderr)
	}
	if n18 && cfg.maxN < 18 {
		cfg.maxN = 18
	}
	// A quick run's numbers are a smoke test, not results: it writes
	// RESULTS.md and the charts only where it is told to.
	switch {
	case !cfg.quick:
		cfg.out = cmp.Or(cfg.out, "RESULTS.md")
		cfg.charts = cmp.Or(cfg.charts, "docs")
	case cfg.out != "":
		cfg.charts = cmp.Or(cfg.charts, filepath.Join(filepath.Dir(cfg.out), "docs"))
	}
	if cfg.quick {
		cfg.rounds = 1
		cfg.maxN = min(cfg.maxN, 14)
		cfg.minN = min(cfg.minN, cfg.maxN)
		cfg.joinMaxN = min(cfg.joinMaxN, cfg.maxN)
		cfg.rssProbe = 0
	}
	cfg.joinMaxN = max(cfg.joinMaxN, cfg.maxN)
	switch {
	case cfg.minN < 4 || cfg.maxN > queens.MaxKnown || cfg.minN > cfg.maxN:
		fmt.Fprintf(stderr, "bench: board sizes %d..%d: choose 4 ≤ --min-n ≤ --max-n ≤ %d\n", cfg.minN, cfg.maxN, queens.MaxKnown)
		return cfg, errors.New("usage")
	case cfg.joinMaxN > queens.MaxKnown:
		fmt.Fprintf(stderr, "bench: --join-max-n %d: choose at most %d\n", cfg.joinMaxN, queens.MaxKnown)
		return cfg, errors.New("usage")
	case cfg.rounds < 1:
		fmt.Fprintf(stderr, "bench: --rounds %d: need at least 1\n", cfg.rounds)
		return cfg, errors.New("usage")
	case cfg.rssProbe > 0 && (cfg.rssProbeN < 1 || cfg.rssProbeN > queens.MaxN):
		fmt.Fprintf(stderr, "bench: --rss-probe-n %d out of range\n", cfg.rssProbeN)
		return cfg, errors.New("usage")
	}
	cfg.args = args
	return cfg, nil
}

// commandLine is how to reproduce this run.
func (cfg config) commandLine() string {
	s := "go run ./bench"
	for _, a := range cfg.args {
		if strings.ContainsAny(a, " \t'\"$") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		s += " " + a
	}
	return s
}
