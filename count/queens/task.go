package queens

import (
	"math/bits"

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

// frame fills f with the search state of task t on an n×n board: its
// queens placed, the rows without a queen free.
func (t *Task) frame(n int, f *kernel.Frame) {
	f.Empty(n)
	for i := 0; i < int(t.Placed); i++ {
		f.Place(int(t.Rows[i]), int(t.Cols[i]))
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
	if f.Rows == 0 {
		return append(out, t)
	}
	row := bits.TrailingZeros64(f.Rows)
	avail := f.Open(row)
	for c := 0; c < n; c++ {
		if avail>>uint(c)&1 == 1 {
			child := t
			child.place(row, c)
			out = child.expand(n, rows-1, out)
		}
	}
	return out
}

// countExpand returns how many tasks t.expand(n, rows, nil) lists without
// listing them, or a number above limit as soon as it exceeds limit.
func (t Task) countExpand(n, rows, limit int) int {
	if rows == 0 {
		return 1
	}
	var f kernel.Frame
	t.frame(n, &f)
	return countRows(f, rows, limit)
}

func countRows(f kernel.Frame, rows, limit int) int {
	if f.Rows == 0 {
		return 1
	}
	row := bits.TrailingZeros64(f.Rows)
	avail := f.Open(row)
	if rows == 1 {
		return bits.OnesCount64(avail)
	}
	k := 0
	for avail != 0 && k <= limit {
		c := bits.TrailingZeros64(avail)
		avail &= avail - 1
		g := f
		g.Place(row, c)
		k += countRows(g, rows-1, limit-k)
	}
	return k
}

// inCorner reports whether one of t's queens stands in a corner of the
// n×n board.
func (t *Task) inCorner(n int) bool {
	for i := 0; i < int(t.Placed); i++ {
		r, c := int(t.Rows[i]), int(t.Cols[i])
		if (r == 0 || r == n-1) && (c == 0 || c == n-1) {
			return true
		}
	}
	return false
}
