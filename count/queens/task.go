package queens

import (
	"github.com/nqcount/nqcount/count/queens/kernel"
)

// MaxPlaced is the most queens a task places ahead of the search.
const MaxPlaced = 12

// Task is one independent piece of a count: a set of queens placed ahead of
// time, whose completions to a full solution a kernel counts. Weight is how
// many solutions each completion stands for (2, 4 or 8 under symmetry, 1
// otherwise), so the total is the weighted sum over the tasks.
//
// A task is a handful of bytes; the kernel's frame is built from it when the
// task runs, so even a long task list stays small in memory.
type Task struct {
	Rows, Cols [MaxPlaced]uint8
	Placed     uint8
	Weight     uint8
}

// Queens returns the pre-placed queens as (row, column) pairs.
func (t *Task) Queens() [][2]int {
	q := make([][2]int, t.Placed)
	for i := range q {
		q[i] = [2]int{int(t.Rows[i]), int(t.Cols[i])}
	}
	return q
}

func (t *Task) place(r, c int) {
	t.Rows[t.Placed] = uint8(r)
	t.Cols[t.Placed] = uint8(c)
	t.Placed++
}

// frame fills f with the search state of task t on an n×n board: the
// rows without a queen become the free rows, and every pre-placed queen
// blocks its column and both of its diagonals as whole lines, also where
// the queen lies below the first free row.
func (t *Task) frame(n int, f *kernel.Frame) {
	var filled uint64
	for i := 0; i < int(t.Placed); i++ {
		filled |= 1 << t.Rows[i]
	}
	var free [kernel.MaxN]int
	nf := 0
	for r := 0; r < n; r++ {
		if filled>>uint(r)&1 == 0 {
			free[nf] = r
			nf++
		}
	}
	*f = kernel.Frame{Full: 1<<uint(n) - 1, Free: nf}
	for i := range f.Shift {
		f.Shift[i] = 1
	}
	if nf == 0 {
		return
	}
	f0 := free[0]
	var inject uint64 // board rows where an LD line enters at column 0
	for i := 0; i < int(t.Placed); i++ {
		pr, pc := int(t.Rows[i]), int(t.Cols[i])
		f.Cols |= 1 << uint(pc)
		if rc := pc + pr - f0; rc >= 0 && rc < 64 {
			f.RD |= 1 << uint(rc)
		}
		if lc := pc - pr + f0; lc >= 0 {
			if lc < 64 {
				f.LD |= 1 << uint(lc)
			}
		} else {
			inject |= 1 << uint(pr-pc)
		}
	}
	for d := 0; d+1 < nf; d++ {
		f.Shift[d] = uint8(free[d+1] - free[d])
		for x := free[d] + 1; x <= free[d+1]; x++ {
			if inject>>uint(x)&1 != 0 {
				f.Inject[d+1] |= 1 << uint(free[d+1]-x)
			}
		}
	}
}

// expand splits t into the tasks that also fill its next `rows` free rows
// in every valid way. The children keep t's weight.
func (t Task) expand(n, rows int, out []Task) []Task {
	if rows == 0 {
		return append(out, t)
	}
	var f kernel.Frame
	t.frame(n, &f)
	if f.Free == 0 {
		return append(out, t)
	}
	row := 0
	for ; row < n; row++ {
		if !t.hasRow(row) {
			break
		}
	}
	avail := f.Full &^ (f.Cols | f.LD | f.RD)
	for c := 0; c < n; c++ {
		if avail>>uint(c)&1 == 1 {
			child := t
			child.place(row, c)
			out = child.expand(n, rows-1, out)
		}
	}
	return out
}

func (t *Task) hasRow(r int) bool {
	for i := 0; i < int(t.Placed); i++ {
		if int(t.Rows[i]) == r {
			return true
		}
	}
	return false
}
