package main

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/nqcount/nqcount/count"
)

// cFlags are the flags the C baseline is compiled with.
var cFlags = []string{"-O3", "-march=native"}

// buildBaseline compiles the C baseline into dir. With no compiler it
// returns no binary and a note saying why; a compiler that fails on the
// source is an error.
func buildBaseline(ctx context.Context, cc, src, dir string) (bin, version, note string, err error) {
	path, err := exec.LookPath(cc)
	if err != nil {
		return "", "", fmt.Sprintf("skipped: no C compiler (%q not found)", cc), nil
	}
	if out, err := exec.CommandContext(ctx, path, "--version").Output(); err == nil {
		version, _, _ = strings.Cut(string(out), "\n")
		version = strings.TrimSpace(version)
	}
	bin = filepath.Join(dir, "baseline")
	args := append(append([]string{}, cFlags...), "-o", bin, src)
	if out, err := exec.CommandContext(ctx, path, args...).CombinedOutput(); err != nil {
		return "", version, "", fmt.Errorf("compiling the C baseline (%s %s): %v\n%s", cc, strings.Join(args, " "), err, out)
	}
	return bin, version, "", nil
}

// runC runs the baseline once and returns its count, wall time and CPU
// time (user + system).
func runC(ctx context.Context, bin string, n int) (got count.Uint128, wall, cpu float64, err error) {
	cmd := exec.CommandContext(ctx, bin, fmt.Sprint(n))
	t0 := time.Now()
	out, err := cmd.Output()
	wall = time.Since(t0).Seconds()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			err = fmt.Errorf("%v: %s", err, ee.Stderr)
		}
		return got, 0, 0, fmt.Errorf("the C baseline, n = %d: %w", n, err)
	}
	cpu = (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	got, err = count.ParseUint128(strings.TrimSpace(string(out)))
	if err != nil {
		return got, 0, 0, fmt.Errorf("the C baseline, n = %d, printed %q: %w", n, out, err)
	}
	return got, wall, cpu, nil
}

// timeC times one run of the baseline, process start included, and checks
// its count.
func timeC(ctx context.Context, bin string, n int) (wall, cpu float64, err error) {
	got, wall, cpu, err := runC(ctx, bin, n)
	if err != nil {
		return 0, 0, err
	}
	if err := checkCount(n, got); err != nil {
		return 0, 0, fmt.Errorf("the C baseline: %w", err)
	}
	return wall, cpu, nil
}

// checkBaseline checks the baseline on every board from 1 to max, odd and
// even, before it is timed.
func checkBaseline(ctx context.Context, bin string, max int) error {
	for n := 1; n <= max; n++ {
		got, _, _, err := runC(ctx, bin, n)
		if err != nil {
			return err
		}
		if err := checkCount(n, got); err != nil {
			return fmt.Errorf("the C baseline: %w", err)
		}
	}
	return nil
}
