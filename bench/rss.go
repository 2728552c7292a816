package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/nqcount/nqcount/bench/internal/meter"
	"github.com/nqcount/nqcount/internal/sysmem"
)

// RSSRun is the peak resident memory of one nqueens count process.
type RSSRun struct {
	N        int     `json:"n"`
	Method   string  `json:"method"`
	Workers  int     `json:"workers"`
	Seconds  float64 `json:"seconds"`
	Finished bool    `json:"finished"`        // false: stopped by the probe's time limit
	Limit    float64 `json:"limit,omitempty"` // the probe's time limit in seconds
	PeakMiB  float64 `json:"peak_mib"`        // 0 when the system does not say
}

// measureRSS builds the nqueens command and reads the peak RSS of a full
// count at the largest benchmarked n, then of a count at cfg.rssProbeN
// stopped after cfg.rssProbe (plan and worker pool are set up in the first
// instants, so the peak is reached long before).
func measureRSS(ctx context.Context, root, tmp string, cfg config, log io.Writer) ([]RSSRun, error) {
	bin, err := buildNqueens(ctx, root, tmp)
	if err != nil {
		return nil, err
	}
	// The backtracker's memory (a bar), then the join's, whose
	// quadrant tables and lists of half boards are its price.
	var runs []RSSRun
	for _, m := range []string{"constellations", "join"} {
		r, err := rssRun(ctx, bin, m, cfg.maxN, 0)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
		fmt.Fprintf(log, "peak RSS of nqueens count %d --method %s: %.1f MiB (%.2f s)\n", r.N, m, r.PeakMiB, r.Seconds)
		if cfg.rssProbe > 0 && cfg.rssProbeN > cfg.maxN {
			r, err := rssRun(ctx, bin, m, cfg.rssProbeN, cfg.rssProbe)
			if err != nil {
				return nil, err
			}
			runs = append(runs, r)
			fmt.Fprintf(log, "peak RSS of nqueens count %d --method %s (stopped after %s): %.1f MiB\n", r.N, m, cfg.rssProbe, r.PeakMiB)
		}
	}
	return runs, nil
}

// buildNqueens builds the module's ./cmd/nqueens into folder tmp and
// returns the binary's path. The runner times whole nqueens processes
// (memory probe, queue against count), so it builds the command of the
// tree it runs in rather than trusting whatever nqueens is on the PATH.
func buildNqueens(ctx context.Context, root, tmp string) (string, error) {
	bin := filepath.Join(tmp, "nqueens")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/nqueens")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building nqueens: %v\n%s", err, out)
	}
	return bin, nil
}

// rssRun runs "nqueens count n --method method --json" on every core. With limit > 0 the
// process is interrupted after that long if still running; otherwise it
// must finish and its count must match the OEIS.
func rssRun(ctx context.Context, bin, method string, n int, limit time.Duration) (RSSRun, error) {
	cmd := exec.CommandContext(ctx, bin, "count", fmt.Sprint(n), "--method", method, "--json")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return RSSRun{}, err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// The child's own high-water mark, read while it runs (Linux): its
	// ru_maxrss would take in this process's resident size, inherited
	// through vfork and exec (internal/sysmem.Peak).
	hwm := make(chan uint64, 1)
	stopPoll := make(chan struct{})
	go func() {
		var top uint64
		pid := strconv.Itoa(cmd.Process.Pid)
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			if b, ok := sysmem.PeakOf(pid); ok {
				top = max(top, b)
			}
			select {
			case <-stopPoll:
				hwm <- top
				return
			case <-t.C:
			}
		}
	}()
	var err error
	stopped := false
	if limit > 0 {
		select {
		case err = <-done:
		case <-time.After(limit):
			stopped = true
			if interrupt(cmd.Process) != nil {
				_ = cmd.Process.Kill()
			}
			err = <-done
		}
	} else {
		err = <-done
	}
	close(stopPoll)
	polled := <-hwm
	r := RSSRun{N: n, Method: method, Seconds: time.Since(t0).Seconds(), Finished: !stopped, Limit: limit.Seconds()}
	if polled > 0 {
		r.PeakMiB = float64(polled) / (1 << 20)
	} else if cmd.ProcessState != nil {
		if b, ok := meter.PeakRSS(cmd.ProcessState); ok {
			r.PeakMiB = float64(b) / (1 << 20)
		}
	}
	if stopped {
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("nqueens count %d: %v\n%s", n, err, errb.Bytes())
	}
	var rep struct {
		Total   json.Number `json:"total"`
		Workers int         `json:"workers"`
		Peak    uint64      `json:"peak_memory_bytes"` // the count's own, at its end
	}
	d := json.NewDecoder(&out)
	d.UseNumber()
	if err := d.Decode(&rep); err != nil {
		return r, fmt.Errorf("nqueens count %d --json: %v", n, err)
	}
	r.Workers = rep.Workers
	if p := float64(rep.Peak) / (1 << 20); p > r.PeakMiB {
		r.PeakMiB = p
	}
	want, _ := knownString(n)
	if rep.Total.String() != want {
		return r, fmt.Errorf("WRONG COUNT: nqueens count %d printed %s, OEIS A000170 says %s", n, rep.Total, want)
	}
	return r, nil
}

func interrupt(p *os.Process) error { return p.Signal(os.Interrupt) }
