package queens

import (
	"context"
	"runtime"
	"time"

	"github.com/nqcount/nqcount/count"
)

// Options tune Count. The zero value counts with the fastest method and
// kernel on every core.
type Options struct {
	Method  Method // "" or Auto: DefaultMethod(n)
	Depth   int    // 0: automatic
	Workers int    // 0: every logical core
	Kernel  string // "" or "auto": the fastest this CPU supports (the method's kernels)
	Unique  bool   // also count solutions up to symmetry
	// Memory bounds what the count holds, in bytes; 0 means
	// DefaultMemory() (see Execution.Memory). Path forces the join's path
	// (Execution.Path).
	Memory uint64
	Path   string
	// OnDone is passed to the engine: called once per finished task.
	OnDone func(id int, r count.Result) error
	// OnProgress is passed to the engine: called, concurrently, after
	// every slice of a task with its id and nodes so far (see
	// count.Options.OnProgress), for a live nodes/s figure.
	OnProgress func(id int, nodes uint64)
}

// Result is a finished count.
type Result struct {
	N       int            `json:"n"`
	Total   count.Uint128  `json:"total"`
	Unique  *count.Uint128 `json:"unique,omitempty"`
	Seconds float64        `json:"seconds"`
	Workers int            `json:"workers"`
	Tasks   int            `json:"tasks"`
	Depth   int            `json:"depth"`
	Nodes   count.Uint128  `json:"nodes"`
	Method  Method         `json:"method"`
	Kernel  string         `json:"kernel"`
	// PeakMemory is the process's peak resident memory when the count
	// ended, in bytes (0 where the system does not report it).
	PeakMemory uint64 `json:"peak_memory_bytes,omitempty"`
	// Path is the join's path, "tables" or "bounded" (see Budget), and
	// MemoryLimit what the count was allowed to hold.
	Path        string `json:"path,omitempty"`
	MemoryLimit uint64 `json:"memory_limit_bytes,omitempty"`
}

// Count counts the solutions of the n-queens problem. If ctx is cancelled
// it returns ctx's error and no result: a partial total is never returned
// as if it were the answer.
func Count(ctx context.Context, n int, opt Options) (Result, error) {
	start := time.Now()
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	p, err := NewPlan(Spec{N: n, Method: ResolveMethod(opt.Method, n, opt.Kernel), Depth: opt.Depth, Workers: opt.Workers})
	if err != nil {
		return Result{}, err
	}
	if _, err := LookupKernel(p.Method, n, opt.Kernel); err != nil {
		return Result{}, Usage(err)
	}
	res, err := CountTasks(ctx, p, count.All(p.Len()), opt)
	if err != nil {
		return Result{}, err
	}
	if opt.Unique {
		u := UniqueFrom(n, res.Total)
		res.Unique = &u
	}
	res.Seconds = time.Since(start).Seconds()
	return res, nil
}

// uniqueBig is uniqueFrom for totals beyond 64 bits.
func uniqueBig(n int, total count.Uint128) count.Uint128 {
	r90, r180 := symmetricCounts(n)
	s := total.Add64(r90).Add64(r90).Add64(r180).Big()
	s.Rsh(s, 3)
	u, _ := count.ParseUint128(s.String())
	return u
}
