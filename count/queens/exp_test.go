package queens

import (
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/queens/kernel"
)

func attacked(t *Task, r, c int) bool {
	for i := 0; i < int(t.Placed); i++ {
		pr, pc := int(t.Rows[i]), int(t.Cols[i])
		dr, dc := pr-r, pc-c
		if dr == 0 || dc == 0 || dr == dc || dr == -dc {
			return true
		}
	}
	return false
}

// lines: >=0 row index, <0 column -(c+1)
func expandLines(n int, t Task, lines []int, out []Task) []Task {
	if len(lines) == 0 {
		return append(out, t)
	}
	L := lines[0]
	if L >= 0 {
		if t.hasRow(L) {
			return expandLines(n, t, lines[1:], out)
		}
		for c := 0; c < n; c++ {
			if !attacked(&t, L, c) {
				ch := t
				ch.place(L, c)
				out = expandLines(n, ch, lines[1:], out)
			}
		}
		return out
	}
	c := -L - 1
	for i := 0; i < int(t.Placed); i++ {
		if int(t.Cols[i]) == c {
			return expandLines(n, t, lines[1:], out)
		}
	}
	for r := 0; r < n; r++ {
		if !attacked(&t, r, c) {
			ch := t
			ch.place(r, c)
			out = expandLines(n, ch, lines[1:], out)
		}
	}
	return out
}

func TestExpVariants(t *testing.T) {
	for _, n := range []int{14, 15, 16} {
		base := constellationTasks(n, 0)
		for _, v := range []struct {
			name  string
			lines func(n int) []int
		}{
			{"none", func(n int) []int { return nil }},
			{"row1", func(n int) []int { return []int{1} }},
			{"rowN-2", func(n int) []int { return []int{n - 2} }},
			{"rows 1,N-2", func(n int) []int { return []int{1, n - 2} }},
			{"cols 1,N-2", func(n int) []int { return []int{-2, -(n - 1)} }},
			{"layer2", func(n int) []int { return []int{1, n - 2, -2, -(n - 1)} }},
		} {
			s := time.Now()
			var tasks []Task
			for _, b := range base {
				tasks = expandLines(n, b, v.lines(n), tasks)
			}
			plan := time.Since(s)
			var sum, nodes uint64
			var f kernel.Frame
			for i := range tasks {
				tasks[i].frame(n, &f)
				c, nd := kernel.Best().Count(&f)
				sum += c * uint64(tasks[i].Weight)
				nodes += nd
			}
			t.Logf("n=%d %-12s tasks=%8d plan=%v total=%d nodes=%d time=%v", n, v.name, len(tasks), plan.Round(time.Millisecond), sum, nodes, time.Since(s).Round(time.Millisecond))
		}
	}
}
