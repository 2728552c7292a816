package queens

import (
	"context"
	"errors"
	"fmt"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/count/queens/kernel"
	"github.com/nqcount/nqcount/internal/sysmem"
)

// DefaultMemory is the memory limit a join count plans for when none is
// given: half the smallest of the machine's physical memory, the limit of
// the process's cgroup (v1 or v2) and the memory Slurm allocated to the
// job (4 GiB when the system states none); see sysmem.Limits.
func DefaultMemory() uint64 { return sysmem.DefaultLimit() }

// newJoinPlan plans the join method: depth d > 0 takes the d-th cut of
// join.Geometries(n), depth 0 the first that fits in memory.
func newJoinPlan(n, depth, workers int, memory uint64) (*Plan, error) {
	if memory == 0 {
		memory = DefaultMemory()
	}
	gs := join.Geometries(n)
	if depth > len(gs) {
		return nil, fmt.Errorf("%w: depth %d is out of range: the join cuts an n = %d board %d ways (depth 1 to %d)", ErrInvalid, depth, n, len(gs), len(gs))
	}
	var g join.Geometry
	if depth == 0 {
		var err error
		if g, err = join.Choose(n, memory, workers); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		for i := range gs {
			if gs[i] == g {
				depth = i + 1
			}
		}
	} else {
		g = gs[depth-1]
		if need := join.Memory(g, workers); need > memory {
			return nil, fmt.Errorf("%w: depth %d needs about %d MiB for %d workers, more than the %d MiB allowed: raise the memory limit or choose a larger depth",
				ErrInvalid, depth, need>>20, workers, memory>>20)
		}
	}
	jp, err := join.NewPlan(g)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	return &Plan{N: n, Method: Join, Depth: depth, Join: jp}, nil
}

// LookupKernel returns the name of the kernel a count with method m uses
// for the name asked for ("" or "auto": the fastest this CPU supports),
// or an error naming the choices. The join method has its own kernels
// (package join), the others share package kernel's.
func LookupKernel(m Method, n int, name string) (string, error) {
	if resolve(m, n) == Join {
		k, err := join.Lookup(name)
		return k.Name, err
	}
	k, err := kernel.Lookup(name)
	return k.Name, err
}

// TaskFunc returns the function that counts one task of p with the kernel
// named ("" or "auto": the fastest of p's method's family, see
// LookupKernel), and the kernel's name, for a process that counts a plan's
// tasks one at a time as they come (a queue worker) and keeps the
// function. What the tasks share (a join plan's tables) is built once, by
// the first call, which reports that work to its progress but leaves it
// out of its Result.Nodes: a task's nodes are the same whichever process
// counted it, and in whatever order. The function may be called from
// several goroutines at once.
func (p *Plan) TaskFunc(kernelName string) (count.TaskFunc, string, error) {
	if p.Join == nil {
		k, err := kernel.Lookup(kernelName)
		if err != nil {
			return nil, "", fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		return p.Counter(k), k.Name, nil
	}
	k, err := join.Lookup(kernelName)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	c, err := join.NewCounter(p.Join, k)
	if err != nil {
		return nil, "", err
	}
	return func(ctx context.Context, id int, progress func(nodes uint64)) (count.Result, error) {
		if err := c.Prepare(ctx, progress); err != nil {
			return count.Result{}, err
		}
		return joinResult(ctx, c, id, progress)
	}, k.Name, nil
}

// joinResult counts task id with c.
func joinResult(ctx context.Context, c *join.Counter, id int, progress func(nodes uint64)) (count.Result, error) {
	n, work, err := c.Count(ctx, id, progress)
	if err != nil {
		if errors.Is(err, join.ErrOverflow) {
			return count.Result{}, fmt.Errorf("%w: %v (task %d)", ErrOverflow, err, id)
		}
		return count.Result{}, err
	}
	return count.Result{Count: n, Nodes: work}, nil
}
