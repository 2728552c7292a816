package main

import (
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/internal/cli"
	"github.com/nqcount/nqcount/internal/sysmem"
)

// engineFlags are the flags that say how to count, shared by count,
// estimate and verify: --method (the plan's) and --workers, --kernel,
// --memory and --path (the Execution, resolved once by check).
type engineFlags struct {
	exec   queens.Execution
	method queens.Method
	// The flags' text, parsed by check.
	methodFlag string
	memory     string
}

// memoryHelp is the help of every --memory flag.
const memoryHelp = "memory the whole count may hold (tables, lists, the plan), e.g. 8GiB or 512MiB (default: half the smallest of the physical memory, the cgroup's limit and Slurm's allocation, see 'nqueens cpu'); the join takes its bounded path when its tables do not fit, and a count that fits in neither is refused before any work"

func (f *engineFlags) add(fs *flag.FlagSet) {
	fs.IntVar(&f.exec.Workers, "workers", runtime.GOMAXPROCS(0), "number of tasks counted at once")
	fs.StringVar(&f.methodFlag, "method", string(queens.Auto), "counting method: auto (the fastest for N), constellations, halving or join")
	fs.StringVar(&f.exec.Kernel, "kernel", "auto", "kernel to count with, of the method's family (see 'nqueens cpu')")
	fs.StringVar(&f.memory, "memory", "", memoryHelp)
	fs.StringVar(&f.exec.Path, "path", "auto", "the join's path: auto (its tables when they fit in --memory), tables, or bounded (only each task's rows: any n in little memory); the same counts either way")
}

// check validates the flags, reporting the first bad one, and resolves
// the Execution: the one place a command defaults it.
func (f *engineFlags) check(e *cli.Env) bool {
	if f.exec.Workers < 1 || f.exec.Workers > cli.MaxWorkers {
		e.Errorf("--workers %d is out of range: choose 1 to %d", f.exec.Workers, cli.MaxWorkers)
		return false
	}
	m, err := queens.ParseMethod(f.methodFlag)
	if err != nil {
		e.Errorf("--method: %v", err)
		return false
	}
	f.method = m
	if !slices.Contains(queens.Paths, f.exec.Path) {
		e.Errorf("--path %q: choose auto, tables or bounded", f.exec.Path)
		return false
	}
	if f.memory != "" {
		b, err := parseBytes(f.memory)
		if err != nil {
			e.Errorf("--memory: %v", err)
			return false
		}
		// A budget the machine cannot give would be planned for and
		// then fail (or be killed) hours in: refused now.
		if l, ok := sysmem.Smallest(); ok && b > l.Bytes {
			e.Errorf("--memory %s is more than this machine can give: its %s is %s (give at most that, or leave --memory out for half of it)", strings.TrimSpace(f.memory), l.Source, mib(l.Bytes))
			return false
		}
		f.exec.Memory = b
	}
	f.exec = f.exec.Resolve()
	return true
}

// setMemoryLimit tells the Go runtime the memory the count may hold
// (the resolved --memory, less what the runtime does not manage: see
// sysmem.RuntimeLimit), so that its collector works harder near it
// rather than letting garbage take the process past it.
func (f *engineFlags) setMemoryLimit() {
	debug.SetMemoryLimit(int64(sysmem.RuntimeLimit(f.exec.Memory)))
}

// parseBytes reads a memory size: a whole number of bytes, or a number
// with a unit, KiB, MiB, GiB, TiB (powers of 1024; K, M, G, T and KB, MB,
// GB, TB are read the same way), in any case.
func parseBytes(s string) (uint64, error) {
	t := strings.TrimSpace(s)
	num := strings.TrimRightFunc(t, func(r rune) bool { return r < '0' || r > '9' && r != '.' })
	unit := strings.ToLower(strings.TrimSpace(t[len(num):]))
	shift := 0
	switch strings.TrimSuffix(strings.TrimSuffix(unit, "b"), "i") {
	case "":
		if unit != "" && unit != "b" {
			return 0, fmt.Errorf("%q: unknown unit (use KiB, MiB, GiB or TiB)", s)
		}
	case "k":
		shift = 10
	case "m":
		shift = 20
	case "g":
		shift = 30
	case "t":
		shift = 40
	default:
		return 0, fmt.Errorf("%q: unknown unit (use KiB, MiB, GiB or TiB)", s)
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" || v <= 0 {
		return 0, fmt.Errorf("%q: want a positive size such as 8GiB or 512MiB", s)
	}
	b := v * float64(uint64(1)<<uint(shift))
	if b >= 1<<63 {
		return 0, fmt.Errorf("%q: too large", s)
	}
	if b < 1<<20 {
		return 0, fmt.Errorf("%q: less than 1 MiB, too little to count anything", s)
	}
	return uint64(b), nil
}
