// Package queens counts the solutions of the n-queens problem: the ways to
// place n queens on an n×n board so that no two share a row, a column or a
// diagonal (OEIS A000170), and the solutions up to the board's 8
// symmetries (A002562).
//
// A count is a Plan and an Execution. NewPlan cuts it into independent
// weighted tasks (see Method), the same on every machine; an Execution
// (kernel, workers, memory, path) says how this machine counts them, and
// Count runs them on the engine in package count, each task counted by a
// kernel from package kernel or package join. NewPlan, Execution, Count
// and the known OEIS values are the API; package job builds long counts
// (checkpoints, shards, progress) on them, and the cmd/nqueens command is
// a thin layer over both.
package queens

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"sync"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/count/queens/kernel"
	"github.com/nqcount/nqcount/count/shard"
)

// MaxN is the largest n the counter accepts; kernels keep every mask in 64
// bits.
const MaxN = kernel.MaxN

// MaxDepth is the deepest split a plan accepts: prefix rows for Halving,
// extra rows beyond the border queens for Constellations.
const MaxDepth = 8

// maxTasks bounds the task list so that a deep split cannot eat memory.
const maxTasks = 4 << 20

// Spec says what to count. N, Method and Depth decide the task list, and
// so the plan's hash, with nothing else: the same Spec gives the same
// tasks everywhere. Workers and Kernel only steer the automatic choices
// (Method "" or Auto, Depth 0) and are not part of the plan.
type Spec struct {
	N int
	// Method is the counting method; "" or Auto: DefaultMethod(N), or
	// Constellations when Kernel names a kernel of the backtracking
	// methods only (such as bmi2), which runs it.
	Method Method
	// Depth is the split depth (see Plan.Depth); 0 chooses one from N
	// (and, for the backtracking methods, Workers).
	Depth int
	// Workers tunes the automatic depth of the backtracking methods: enough
	// tasks to keep that many workers busy to the end. 0 means
	// StableWorkers, the value checkpoints, shards and queues plan with so
	// that their tasks do not depend on the machine.
	Workers int
	// Kernel is the kernel the count will be asked to use (Execution.Kernel),
	// when it may decide the automatic method; "" or "auto" decides nothing.
	Kernel string
}

// Plan is a count cut into tasks: the one plan every front end counts,
// shards, checkpoints and queues. The same Spec always gives the same
// tasks in the same order, so a task id means the same work in every run:
// checkpoints and shards rely on it. Its method and depth are resolved
// once, by NewPlan, and its hash computed once.
type Plan struct {
	N int
	// Method is the method the plan counts with (never Auto).
	Method Method
	// Depth is the split depth used (see MaxDepth). Constellations split
	// the corner classes one row deeper than Depth. For Join it is how
	// finely the tasks are cut: 1 gives one task per frame and set of
	// north rows, each larger depth splits those by their south row sets
	// (see joinSplit), for the counts of weeks that need tasks of
	// minutes.
	Depth int

	tasks strategy // the method's tasks: a backtrack or a joinTasks
	hash  string

	estOnce sync.Once
	est     []uint64 // Estimates, computed once
}

// strategy is how a plan holds and counts its tasks: the backtracking
// methods' pre-placed queens (backtrack, backtrack.go) or the join's
// streaming layout (joinTasks, joinplan.go). Everything that differs
// between the methods is asked of it, nothing else asks which it is.
type strategy interface {
	// len is the number of tasks.
	len() int
	// writeHash writes what identifies the tasks, for Plan.Hash.
	writeHash(h io.Writer)
	// estimates are the tasks' relative costs (Plan.Estimates).
	estimates() []uint64
	// kernel is the name of the kernel of the method's family asked for
	// by name ("" or "auto": the fastest this CPU supports), or an
	// error naming the family's kernels.
	kernel(name string) (string, error)
	// fit chooses how the count fits in e's memory, with fixed bytes
	// held whatever the method (Plan.Fit).
	fit(e Execution, fixed uint64) (Budget, error)
	// counter returns the function that counts one task, as b says,
	// recording a join's Work and prices in m if not nil.
	counter(b Budget, m *join.Meter) (count.TaskFunc, error)
}

// NewPlan cuts the count s asks for into tasks. It resolves s.Method
// ("" or Auto: see Spec.Method) and s.Depth (0: automatic), once: nothing
// else resolves a method. Plan.Spec gives them back. Errors for a bad
// Spec wrap ErrInvalid.
func NewPlan(s Spec) (*Plan, error) {
	n, depth := s.N, s.Depth
	method := resolveMethod(s.Method, n, s.Kernel)
	if n < 1 || n > MaxN {
		return nil, fmt.Errorf("%w: n = %d is out of range: the counter handles 1 to %d", ErrInvalid, n, MaxN)
	}
	if depth < 0 || depth > MaxDepth {
		return nil, fmt.Errorf("%w: depth %d is out of range: choose 1 to %d, or 0 for automatic", ErrInvalid, depth, MaxDepth)
	}
	workers := s.Workers
	if workers < 1 {
		workers = StableWorkers
	}
	p := &Plan{N: n, Method: method, Depth: depth}
	var err error
	switch method {
	case Halving, Constellations:
		p.Depth, p.tasks, err = planBacktrack(n, method, depth, workers)
	case Join:
		p.Depth, p.tasks, err = planJoin(n, depth)
	default:
		err = fmt.Errorf("%w: unknown method %q", ErrInvalid, method)
	}
	if err != nil {
		return nil, err
	}
	p.hash = p.computeHash()
	return p, nil
}

// joinFrom is the smallest n counted by Join when no method is asked for:
// measured side by side in one process, one worker, paired within rounds
// (RESULTS.md, "Join against constellations", with its command), the join
// was faster at n = 12 and from n = 14 in every run, slower at n = 13; at
// n = 10 and 11, where both take about a millisecond, the verdict flipped
// with the machine's load, so the backtracker, which builds no tables,
// keeps them.
const joinFrom = 12

// joinSlower lists the n from joinFrom to joinTo where the join was
// measured slower than constellations.
var joinSlower = map[int]bool{13: true}

// DefaultMethod returns the method a plan of n counts with when none is
// asked for: the join from n = 12 but 13, constellations below. The join
// plans every n up to MaxN, in any memory that holds its bounded path.
func DefaultMethod(n int) Method {
	if n >= joinFrom && !joinSlower[n] {
		return Join
	}
	return Constellations
}

// resolveMethod returns the method a plan of n with method m counts
// with, for a count asked to use kernel kernelName: m itself, or for ""
// and Auto DefaultMethod(n), unless that is the join and the kernel is
// one of the backtracking methods' only (such as bmi2): then
// Constellations, which runs it. NewPlan alone calls it.
func resolveMethod(m Method, n int, kernelName string) Method {
	if m != "" && m != Auto {
		return m
	}
	r := DefaultMethod(n)
	if r == Join && isBacktrackKernel(kernelName) && !isJoinKernel(kernelName) {
		return Constellations
	}
	return r
}

// Spec returns the plan's Spec, with the method and depth it resolved
// to: planning it again gives the same plan on any machine.
func (p *Plan) Spec() Spec { return Spec{N: p.N, Method: p.Method, Depth: p.Depth} }

// Len is the number of tasks of the plan, whatever its method.
func (p *Plan) Len() int { return p.tasks.len() }

// Tasks returns the pre-placed queens of the backtracking methods'
// tasks (nil for Join, whose tasks are its Layout's).
func (p *Plan) Tasks() []Task {
	if b, ok := p.tasks.(*backtrack); ok {
		return b.tasks
	}
	return nil
}

// Layout returns the join's tasks, nil for the backtracking methods.
func (p *Plan) Layout() *join.Layout {
	if j, ok := p.tasks.(*joinTasks); ok {
		return j.layout
	}
	return nil
}

// Frame fills f with the kernel frame of task id of a backtracking
// method's plan and returns the task's weight: how many solutions each
// completion stands for.
func (p *Plan) Frame(id int, f *kernel.Frame) (weight uint64) {
	return p.tasks.(*backtrack).frame(id, f)
}

// Hash identifies the plan's task list: n, method, depth and every task,
// computed once by NewPlan (the join's tasks streamed, never all held).
// Journals and shard files carry it, so results of different plans are
// never mixed.
func (p *Plan) Hash() string { return p.hash }

func (p *Plan) computeHash() string {
	h := sha256.New()
	var buf [8]byte
	for _, v := range []int{p.N, p.Depth, p.Len()} {
		binary.LittleEndian.PutUint64(buf[:], uint64(v))
		h.Write(buf[:])
	}
	h.Write([]byte(p.Method))
	p.tasks.writeHash(h)
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// ID names the job of counting the plan: the same for the same tasks
// counted by the same algorithm, on every machine; a word of letters,
// digits and dashes, fit for a file name or a message subject.
func (p *Plan) ID() string {
	return fmt.Sprintf("n%d-%s-a%d", p.N, p.hash, AlgorithmVersion)
}

// Pin returns the values that results of this plan must agree on, beside
// the hash and the number of tasks: board size, method, depth and
// AlgorithmVersion. Journals and shard files carry them.
func (p *Plan) Pin() map[string]string {
	return map[string]string{
		"n":         strconv.Itoa(p.N),
		"method":    string(p.Method),
		"depth":     strconv.Itoa(p.Depth),
		"algorithm": strconv.Itoa(AlgorithmVersion),
	}
}

// Shard returns the ids of shard x in the split of the plan by estimated
// cost (shard.Assign). K must not exceed the number of tasks.
func (p *Plan) Shard(x shard.Index) ([]int, error) {
	// Check before Select computes the estimates: a K of billions is
	// refused at once.
	if err := x.Check(p.Len()); err != nil {
		return nil, Usage(fmt.Errorf("%w (n = %d, depth %d; a larger depth makes more tasks)", err, p.N, p.Depth))
	}
	return shard.Select(p.Estimates(), x)
}
