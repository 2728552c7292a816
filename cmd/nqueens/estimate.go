package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/estimate"
	"github.com/nqcount/nqcount/count/shard"
	"github.com/nqcount/nqcount/internal/cli"
)

func init() {
	app.Register(&cli.Command{Name: "estimate", Summary: "predict a count's CPU time and total from a random sample of its work", Run: runEstimate})
}

func runEstimate(ctx context.Context, e *cli.Env, args []string) int {
	fs := cli.NewFlags(e, "estimate", "N [flags]",
		fmt.Sprintf("Counts a random sample of the work of 'nqueens count N' (N from 1 to %d), exactly as the count\n"+
			"would, and predicts with 95%% intervals the whole count's CPU time on this machine and its total,\n"+
			"Q(N), checked against OEIS A000170 where it is known. The same --seed draws the same sample.", queens.MaxN))
	var (
		ef      engineFlags
		depth   int
		jsonOut bool
		seed    uint64
		samples int
		strata  int
		budget  time.Duration
		every   time.Duration
		sh      string
	)
	ef.add(fs)
	fs.IntVar(&depth, "depth", 0, fmt.Sprintf("the count's split depth, 1 to %d (0: automatic, as count)", queens.MaxDepth))
	fs.Uint64Var(&seed, "seed", 1, "seed of the sample")
	fs.IntVar(&samples, "samples", 240, "tasks drawn")
	fs.IntVar(&strata, "strata", 12, "strata of equal estimated work the tasks are drawn from")
	fs.DurationVar(&budget, "budget", 8*time.Minute, "CPU time the sample aims at, over all workers (the plan's own estimates share it out, so the sample does not depend on the machine)")
	fs.DurationVar(&every, "progress-every", 10*time.Second, "interval of the progress lines on stderr (0: none)")
	fs.BoolVar(&jsonOut, "json", false, "print the estimate as one JSON object")
	fs.StringVar(&sh, "shard", "", "estimate only shard I/K of the count, the tasks 'nqueens count N --shard I/K' counts")
	pos, err := cli.ParseFlags(e, fs, args)
	if err != nil {
		return cli.FlagExit(err)
	}
	n, ok := boardArg(e, pos, "estimate", "nqueens estimate N")
	if !ok {
		return cli.ExitUsage
	}
	if !ef.check(e) {
		return cli.ExitUsage
	}
	switch {
	case samples < 2 || samples > 1<<20:
		e.Errorf("--samples %d: choose 2 to %d", samples, 1<<20)
		return cli.ExitUsage
	case strata < 1 || strata > samples/2:
		e.Errorf("--strata %d: choose 1 to %d (at least 2 samples a stratum)", strata, samples/2)
		return cli.ExitUsage
	case budget <= 0 || budget > 1000*time.Hour:
		e.Errorf("--budget %s: choose a positive duration up to 1000h", budget)
		return cli.ExitUsage
	case every < 0:
		e.Errorf("--progress-every %s: want 0 or more", every)
		return cli.ExitUsage
	}
	var idx shard.Index
	if sh != "" {
		if idx, err = shard.Parse(sh); err != nil {
			e.Errorf("--shard: %v", err)
			return cli.ExitUsage
		}
	}
	ef.setMemoryLimit()
	start := time.Now()
	var mu sync.Mutex
	last := start
	progress := func(done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if every > 0 && time.Since(last) >= every {
			last = time.Now()
			e.Errorf("sampling: %d/%d tasks, %s", done, total, time.Since(start).Round(time.Second))
		}
	}
	r, err := estimate.Run(ctx, queens.Spec{N: n, Method: ef.method, Depth: depth}, ef.exec, estimate.Options{
		Seed: seed, Samples: samples, Strata: strata, Budget: budget, OnProgress: progress, Shard: idx,
	})
	if err != nil {
		if ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			e.Errorf("interrupted: the estimate stopped, nothing to report")
			return cli.ExitInterrupted
		}
		e.Errorf("%v", err)
		return errExit(err)
	}
	if jsonOut {
		b, err := json.Marshal(r)
		if err != nil {
			e.Errorf("%v", err)
			return cli.ExitFail
		}
		e.Stdout.Write(append(b, '\n')) // a write error is App.Run's to report
		return cli.ExitOK
	}
	fmt.Fprintln(e.Stdout, r.String())
	return cli.ExitOK
}
