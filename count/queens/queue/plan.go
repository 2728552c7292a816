package queue

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"strconv"
	"sync"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
)

// Plan is a job's plan as the queue hands it out: the tasks of a
// queens.Plan grouped into units, each unit one message, one count and one result
// record. Every message costs the server and the worker a few round trips
// (fractions of a millisecond each on a small machine), so a job whose
// tasks take about a millisecond each, as at n = 17, would spend much of
// its time on the queue rather than counting; units make each message
// carry tens of milliseconds of work.
//
// In the queue (messages, records, status, export) a task is a unit: its
// id runs from 0 to Len()-1 and Tasks says which of the plan's tasks it
// holds. A job submitted with Units 0 has one task per unit, with the
// plan's own ids.
type Plan struct {
	// Queens is the n-queens plan whose tasks the units group.
	Queens *queens.Plan
	// Units is the grouping asked for (JobInfo.Units): about Units units
	// of full size, each at most 1/Units of the estimated work, then
	// smaller ones; 0 gives each task its own unit.
	Units int

	// The grouping needs the plan's estimates (tens of milliseconds at
	// n = 17): it is made on first use, so that a worker, which is told
	// each unit's tasks by its message, never waits for it.
	once  sync.Once
	units [][]int // the plan's tasks of each unit; nil when Units is 0
	est   []uint64
}

// NewPlan groups the tasks of p into units (see Plan.Units and group); the
// same p and units give the same units on every machine. units below 0
// is an error. The units are cut when first asked for.
func NewPlan(p *queens.Plan, units int) (*Plan, error) {
	if units < 0 {
		return nil, fmt.Errorf("units %d: need 0 (one task per unit) or more", units)
	}
	return &Plan{Queens: p, Units: units}, nil
}

// grouped makes the units once and reports whether the tasks are grouped.
func (p *Plan) grouped() bool {
	if p.Units == 0 {
		return false
	}
	p.once.Do(func() {
		est := p.Queens.Estimates()
		p.units = group(p.Queens.LargestFirst(count.All(p.Queens.Len())), est, p.Units)
		p.est = make([]uint64, len(p.units))
		for u, ids := range p.units {
			for _, id := range ids {
				p.est[u] += est[id]
			}
		}
	})
	return true
}

// group cuts order, the plan's tasks largest first, into consecutive
// units, guided self-scheduling style: with R the estimated work not yet
// in a unit, each unit takes tasks until its estimate reaches
//
//	max(min(E/units, R/8), E/(16·units))
//
// (E the whole estimate), and at least one task. The first units are the
// largest, 1/units of the work, so that many workers share a job evenly;
// the last ones shrink to a 16th of that, so that the job does not end
// with one worker counting a large unit while the others wait. With
// units = 64 a job has about 90 units whatever its number of tasks.
// Integer arithmetic only: every machine cuts the same units.
func group(order []int, est []uint64, units int) [][]int {
	var total uint64
	for _, id := range order {
		total += est[id]
	}
	full := max(total/uint64(units), 1)
	least := max(full/16, 1)
	left := total
	var out [][]int
	for i := 0; i < len(order); {
		target := max(min(full, left/8), least)
		var sum uint64
		j := i
		for j < len(order) && (j == i || sum < target) {
			sum += est[order[j]]
			j++
		}
		out = append(out, order[i:j:j])
		left -= sum
		i = j
	}
	return out
}

// DefaultUnits is the grouping Submit uses for a plan of n with tasks
// tasks when none is asked for: 16 full-size units at n = 17 and below,
// 8 times more for each n above (the work grows about 7 times from one n
// to the next, so a unit holds about the same work at every n: a tenth of
// a CPU second or more, against about a millisecond of CPU that each
// message costs the server and the processes), but at least 8 tasks a
// unit on average: a plan cut into few tasks (the join's are fewer and
// larger than the backtracker's) is grouped too. Plans of fewer than 128
// tasks, and every plan from n = 27, are not grouped (0). RESULTS.md has
// the measurements behind it.
func DefaultUnits(n, tasks int) int {
	const base, from, least, perUnit = 16, 17, 16, 8
	if n-from >= 10 {
		return 0
	}
	// In 64 bits: 16·8⁹ does not fit a 32-bit int.
	u := min(int64(base)<<(3*max(n-from, 0)), int64(tasks/perUnit))
	if u < least {
		return 0
	}
	return int(u)
}

// Len returns the number of units.
func (p *Plan) Len() int {
	if !p.grouped() {
		return p.Queens.Len()
	}
	return len(p.units)
}

// Tasks returns the ids, in the plan, of the tasks of unit u (0 <= u <
// Len()). The slice must not be modified.
func (p *Plan) Tasks(u int) []int {
	if !p.grouped() {
		return []int{u}
	}
	return p.units[u]
}

// Estimates returns each unit's estimated cost (the sum of its tasks').
// The slice must not be modified.
func (p *Plan) Estimates() []uint64 {
	if !p.grouped() {
		return p.Queens.Estimates()
	}
	return p.est
}

// Order returns the units in the order to hand them out: largest first.
func (p *Plan) Order() []int {
	if !p.grouped() {
		return p.Queens.LargestFirst(count.All(p.Queens.Len()))
	}
	return count.All(len(p.units)) // group made them largest first
}

// Hash is the hash of the plan's tasks (queens.Plan.Hash); the job id tells
// the grouping.
func (p *Plan) Hash() string { return p.Queens.Hash() }

// ID names the job: queens.Plan.ID, followed by -uUNITS when the tasks are
// grouped.
func (p *Plan) ID() string {
	if p.Units == 0 {
		return p.Queens.ID()
	}
	return p.Queens.ID() + "-u" + strconv.Itoa(p.Units)
}

// Pin is queens.Plan.Pin with the grouping ("units") when there is one: an
// export's results are per unit.
func (p *Plan) Pin() map[string]string {
	pin := p.Queens.Pin()
	if p.Units > 0 {
		pin["units"] = strconv.Itoa(p.Units)
	}
	return pin
}

// errUnitOverflow is returned for a unit whose count does not fit 64 bits.
var errUnitOverflow = errors.New("the unit's count overflows 64 bits: submit the job with smaller units")

// UnitFunc counts the units of p, with the named kernel.
type UnitFunc func(ctx context.Context, tasks []int, progress func(nodes uint64)) (count.Result, error)

// UnitFunc returns the function that counts a unit given by its tasks
// (ids in p.Queens) as e says (queens.Plan.TaskFunc), and the
// kernel's name: the tasks are counted one after the other, each in
// bounded slices, with the progress of the unit as a whole. It does not
// check that the tasks make one of p's units: a worker counts the tasks
// its message lists, and its result record says which (see Record.Tasks).
func (p *Plan) UnitFunc(e queens.Execution) (UnitFunc, string, error) {
	do, name, _, err := p.Queens.TaskFunc(e)
	if err != nil {
		return nil, "", err
	}
	last := p.Queens.Len() - 1
	return func(ctx context.Context, tasks []int, progress func(nodes uint64)) (count.Result, error) {
		var sum count.Result
		for _, id := range tasks {
			if id < 0 || id > last {
				return count.Result{}, fmt.Errorf("task %d is not in the plan (0 to %d)", id, last)
			}
			r, err := do(ctx, id, progress)
			if err != nil {
				return count.Result{}, err
			}
			var carry uint64
			if sum.Count, carry = bits.Add64(sum.Count, r.Count, 0); carry != 0 {
				return count.Result{}, errUnitOverflow
			}
			sum.Nodes += r.Nodes
		}
		return sum, nil
	}, name, nil
}
