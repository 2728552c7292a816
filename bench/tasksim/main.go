// Command tasksim measures what every task of an n-queens plan costs and
// simulates how the engine's workers would share those tasks on a machine
// with more cores than the one at hand. It is a developers' tool for
// choosing how plans are cut (the automatic depth, the splitting of the
// largest task classes), used for RESULTS.md's scale figures.
//
//	go run ./bench/tasksim measure -n 19 -plan-workers 256 -o t19.csv   # counts every task once
//	go run ./bench/tasksim simulate -p 64,256 t19.csv                   # greedy pull, largest first
//
// measure builds the plan the counter would build for -plan-workers
// (queens.NewPlan with the automatic depth, or -depth), counts it on all
// cores through queens.Count and writes one CSV line per task: its
// nodes (search nodes visited: deterministic, unlike times on a shared
// machine), its estimate (Plan.Estimates, the order LargestFirst uses),
// whether it is a corner class (a border queen in a corner) and its
// weight. Comment lines before the header record the plan, the start-up
// time (planning and estimates, before any worker starts) and the nodes
// per CPU second of the count.
//
// simulate replays a file on P workers the way count.Run schedules: the
// tasks in Plan.LargestFirst order (estimate descending, ties by id), each
// idle worker pulling the next one, a task costing its nodes. It prints
// the makespan's efficiency (total work over P times the makespan), the
// lower bound max(work/P, largest task) it is judged against, the largest
// task over the mean, the corner classes' share of the work, and the
// efficiency once the serial start-up is added (converted to nodes at the
// measured rate of one core).
package main

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "tasksim: %v\n", err)
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: tasksim measure|simulate [flags] (see the package documentation)")
	}
	switch args[0] {
	case "measure":
		fs := flag.NewFlagSet("measure", flag.ContinueOnError)
		fs.SetOutput(stderr)
		n := fs.Int("n", 17, "board size")
		planWorkers := fs.Int("plan-workers", 64, "the worker count the plan is cut for (the automatic depth depends on it)")
		depth := fs.Int("depth", 0, "split depth (0: automatic)")
		out := fs.String("o", "", "CSV file to write (default stdout)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		w := stdout
		if *out != "" {
			f, err := os.Create(*out)
			if err != nil {
				return err
			}
			defer f.Close()
			w = f
		}
		bw := bufio.NewWriter(w)
		if err := measure(ctx, bw, stderr, *n, *depth, *planWorkers); err != nil {
			return err
		}
		return bw.Flush()
	case "simulate":
		fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
		fs.SetOutput(stderr)
		ps := fs.String("p", "64,256", "worker counts to simulate, comma-separated")
		startup := fs.Float64("startup", -1, "serial start-up in seconds (default: the one the file records, measured when it was made)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		var workers []int
		for _, s := range strings.Split(*ps, ",") {
			p, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || p < 1 {
				return fmt.Errorf("-p: %q is not a worker count", s)
			}
			workers = append(workers, p)
		}
		for _, file := range fs.Args() {
			m, err := readMeasurement(file)
			if err != nil {
				return err
			}
			if *startup >= 0 {
				m.Startup = *startup
			}
			report(stdout, file, m, workers)
		}
		return nil
	}
	return fmt.Errorf("unknown subcommand %q: measure or simulate", args[0])
}

// Measurement is one plan's per-task costs.
type Measurement struct {
	N, Depth, PlanWorkers int
	Hash                  string
	Startup               float64 // seconds: NewPlan, Estimates and LargestFirst
	NodesPerCPUSecond     float64 // of the count, per core
	Tasks                 []TaskCost
}

// TaskCost is one task's measured cost.
type TaskCost struct {
	ID       int
	Corner   bool
	Weight   int
	Estimate uint64
	Nodes    uint64
}

func measure(ctx context.Context, w, log io.Writer, n, depth, planWorkers int) error {
	t0 := time.Now()
	p, err := queens.NewPlan(queens.Spec{N: n, Method: queens.Constellations, Depth: depth, Workers: planWorkers})
	if err != nil {
		return err
	}
	est := p.Estimates()
	p.LargestFirst(count.All(len(p.Tasks())))
	startup := time.Since(t0).Seconds()
	fmt.Fprintf(log, "tasksim: n = %d, %d tasks (depth %d, planned for %d workers), start-up %.3f s; counting every task\n", n, len(p.Tasks()), p.Depth, planWorkers, startup)

	nodes := make([]uint64, len(p.Tasks()))
	var mu sync.Mutex
	done := 0
	c0 := cpuSeconds()
	t1 := time.Now()
	_, err = queens.Count(ctx, p, queens.Execution{}, count.All(len(p.Tasks())), queens.Options{OnDone: func(id int, r count.Result) error {
		mu.Lock()
		defer mu.Unlock()
		nodes[id] = r.Nodes
		done++
		if done%1000 == 0 {
			fmt.Fprintf(log, "tasksim: %d/%d tasks, %.0f s\n", done, len(p.Tasks()), time.Since(t1).Seconds())
		}
		return nil
	}})
	if err != nil {
		return err
	}
	cpu := cpuSeconds() - c0
	var total uint64
	for _, x := range nodes {
		total += x
	}
	rate := 0.0
	if cpu > 0 {
		rate = float64(total) / cpu
	}
	fmt.Fprintf(w, "# n=%d depth=%d plan_workers=%d hash=%s startup_seconds=%.6f nodes_per_cpu_second=%.0f\n", n, p.Depth, planWorkers, p.Hash(), startup, rate)
	fmt.Fprintln(w, "id,corner,weight,estimate,nodes")
	for id := range p.Tasks() {
		fmt.Fprintf(w, "%d,%t,%d,%d,%d\n", id, corner(n, &p.Tasks()[id]), p.Tasks()[id].Weight, est[id], nodes[id])
	}
	return nil
}

// corner reports whether a task has a queen in a corner of the board: the
// border classes with three border queens instead of four.
func corner(n int, t *queens.Task) bool {
	for _, q := range t.Queens() {
		if (q[0] == 0 || q[0] == n-1) && (q[1] == 0 || q[1] == n-1) {
			return true
		}
	}
	return false
}

func readMeasurement(file string) (*Measurement, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m := &Measurement{}
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() {
		line++
		s := sc.Text()
		if strings.HasPrefix(s, "#") {
			for _, kv := range strings.Fields(s[1:]) {
				k, v, _ := strings.Cut(kv, "=")
				switch k {
				case "n":
					m.N, _ = strconv.Atoi(v)
				case "depth":
					m.Depth, _ = strconv.Atoi(v)
				case "plan_workers":
					m.PlanWorkers, _ = strconv.Atoi(v)
				case "hash":
					m.Hash = v
				case "startup_seconds":
					m.Startup, _ = strconv.ParseFloat(v, 64)
				case "nodes_per_cpu_second":
					m.NodesPerCPUSecond, _ = strconv.ParseFloat(v, 64)
				}
			}
			continue
		}
		if strings.HasPrefix(s, "id,") {
			continue
		}
		f := strings.Split(s, ",")
		if len(f) != 5 {
			return nil, fmt.Errorf("%s:%d: want 5 fields, got %d", file, line, len(f))
		}
		var t TaskCost
		var errs [4]error
		t.ID, errs[0] = strconv.Atoi(f[0])
		t.Corner = f[1] == "true"
		t.Weight, errs[1] = strconv.Atoi(f[2])
		t.Estimate, errs[2] = strconv.ParseUint(f[3], 10, 64)
		t.Nodes, errs[3] = strconv.ParseUint(f[4], 10, 64)
		if err := errors.Join(errs[:]...); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", file, line, err)
		}
		m.Tasks = append(m.Tasks, t)
	}
	return m, sc.Err()
}

func report(w io.Writer, file string, m *Measurement, workers []int) {
	var total, cornerNodes, largest float64
	var cornerMax float64
	corners := 0
	for _, t := range m.Tasks {
		x := float64(t.Nodes)
		total += x
		largest = max(largest, x)
		if t.Corner {
			corners++
			cornerNodes += x
			cornerMax = max(cornerMax, x)
		}
	}
	mean := total / float64(len(m.Tasks))
	fmt.Fprintf(w, "%s: n = %d, depth %d (planned for %d workers), %d tasks, %.4g nodes; largest task %.1f× the mean; %d corner-class tasks, %.1f%% of the work, largest %.1f× the mean; start-up %.3f s\n",
		file, m.N, m.Depth, m.PlanWorkers, len(m.Tasks), total, largest/mean, corners, 100*cornerNodes/total, cornerMax/mean, m.Startup)
	order := largestFirst(m.Tasks)
	costs := make([]float64, len(m.Tasks))
	for i, t := range m.Tasks {
		costs[i] = float64(t.Nodes)
	}
	for _, p := range workers {
		span := simulate(costs, order, p)
		bound := max(total/float64(p), largest)
		line := fmt.Sprintf("  P = %4d: %7.1f tasks/worker, efficiency %.3f (bound %.3f)", p, float64(len(m.Tasks))/float64(p), total/(float64(p)*span), total/(float64(p)*bound))
		if m.NodesPerCPUSecond > 0 && m.Startup > 0 {
			work := total / m.NodesPerCPUSecond // seconds on one core
			wall := m.Startup + span/m.NodesPerCPUSecond
			line += fmt.Sprintf(", with the start-up %.3f (run %.2f s of which start-up %.1f%%)", work/(float64(p)*wall), wall, 100*m.Startup/wall)
		}
		fmt.Fprintln(w, line)
	}
}

// largestFirst is the order Plan.LargestFirst gives: estimate descending,
// ties by id.
func largestFirst(tasks []TaskCost) []int {
	order := make([]int, len(tasks))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(tasks[b].Estimate, tasks[a].Estimate); c != 0 {
			return c
		}
		return cmp.Compare(tasks[a].ID, tasks[b].ID)
	})
	return order
}
