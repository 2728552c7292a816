// Command workcheck checks the join's Work accounting, on which nqueens
// estimate prices a count: it counts some tasks of a plan whole, one
// thread, and sets each task's CPU time beside its Work priced by
// reference runs (join.Calibrate) taken just before and just after it.
// Work that misses a part of the counting shows as a ratio above 1 at
// both; a machine whose speed moves under its neighbours shows as the
// two prices apart.
//
//	go run ./scripts/workcheck -n 24 -memory-mib 1024 -path bounded -shard 1/64 -tasks 6
//
// The tasks are spread evenly over the plan's (or the shard's) tasks in
// the order of the plan; -workers is the count's, which sets each
// worker's share of the memory.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/count/shard"
	"github.com/nqcount/nqcount/internal/cputime"
)

func main() {
	n := flag.Int("n", 20, "board size")
	mem := flag.Uint64("memory-mib", 1024, "the count's memory budget, MiB")
	path := flag.String("path", "bounded", "the join's path: tables or bounded")
	workers := flag.Int("workers", 2, "the count's workers (each holds its share of -memory)")
	sh := flag.String("shard", "", "only the tasks of shard I/K")
	tasks := flag.Int("tasks", 6, "tasks counted")
	flag.Parse()
	if err := run(*n, *mem, *path, *workers, *sh, *tasks); err != nil {
		fmt.Fprintln(os.Stderr, "workcheck:", err)
		os.Exit(1)
	}
}

func run(n int, mem uint64, path string, workers int, sh string, picks int) error {
	ctx := context.Background()
	e := queens.Execution{Memory: mem << 20, Workers: workers, Path: path}.Resolve()
	p, err := queens.NewPlan(queens.Spec{N: n, Method: queens.Join, Workers: e.Workers, Kernel: e.Kernel})
	if err != nil {
		return err
	}
	est, err := p.EstimatesContext(ctx)
	if err != nil {
		return err
	}
	ids := make([]int, len(est))
	for i := range ids {
		ids[i] = i
	}
	if sh != "" {
		x, err := shard.Parse(sh)
		if err != nil {
			return err
		}
		if ids, err = shard.Select(est, x); err != nil {
			return err
		}
	}
	c, b, err := p.JoinCounter(e)
	if err != nil {
		return err
	}
	k, err := join.Lookup(b.Kernel)
	if err != nil {
		return err
	}
	if err := c.Prepare(ctx, nil); err != nil {
		return err
	}
	runtime.LockOSThread()
	clock := func() time.Duration { d, _ := cputime.Thread(); return d }
	fmt.Printf("n = %d, %s path, kernel %s, %d tasks of %d\n", n, b.Path, b.Kernel, min(picks, len(ids)), len(ids))
	fmt.Printf("%8s %10s %10s %10s %7s %7s\n", "task", "cpu s", "before s", "after s", "ratio", "ratio")
	var cpu, before, after float64
	for j := range min(picks, len(ids)) {
		id := ids[(2*j+1)*len(ids)/(2*picks)]
		pb := join.Calibrate(k, clock)
		t0 := clock()
		if _, _, err := c.Count(ctx, id, nil); err != nil {
			return err
		}
		d := (clock() - t0).Seconds()
		pa := join.Calibrate(k, clock)
		// The same task again, its Work read as it counts (Sample of
		// every row set, every entry).
		info, err := c.Sample(ctx, id, join.SampleOptions{})
		if err != nil {
			return err
		}
		rows := make([]int, info.Rows)
		for i := range rows {
			rows[i] = i
		}
		ts, err := c.Sample(ctx, id, join.SampleOptions{Rows: rows, EntryFraction: 1})
		if err != nil {
			return err
		}
		w := ts.FixedWork
		for _, r := range ts.Each {
			w.Add(r.Work)
		}
		wb, wa := pb.Cost(w).Seconds(), pa.Cost(w).Seconds()
		fmt.Printf("%8d %10.2f %10.2f %10.2f %7.3f %7.3f\n", id, d, wb, wa, d/wb, d/wa)
		cpu, before, after = cpu+d, before+wb, after+wa
	}
	fmt.Printf("%8s %10.2f %10.2f %10.2f %7.3f %7.3f\n", "all", cpu, before, after, cpu/before, cpu/after)
	return nil
}
