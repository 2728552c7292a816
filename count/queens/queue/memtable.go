package queue

import (
	"fmt"
	"io"
	"strings"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/join"
)

// MemoryTable writes, as a Markdown table, the memory a worker needs per
// board size from n = from to to: for a job counted by the join (the
// default method where its tables fit), the first cut of the board (the
// fastest, what submit picks when the workers have the memory) and the
// leanest cut the join can plan, each for 1, 4, 8 and 16 slots (work
// --workers); the figures are join.Memory's, the estimate every count
// plans with. scripts/README.md holds its output for n = 20 to 28
// (go run ./scripts/memtable regenerates it).
func MemoryTable(w io.Writer, from, to int) error {
	slots := []int{1, 4, 8, 16}
	var b strings.Builder
	b.WriteString("| n | method | cut (--depth) |")
	for _, s := range slots {
		fmt.Fprintf(&b, " %d %s |", s, map[bool]string{true: "slot", false: "slots"}[s == 1])
	}
	b.WriteString("\n|---|---|---|")
	for range slots {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for n := from; n <= to; n++ {
		var cuts []int
		gs := join.Geometries(n)
		if queens.DefaultMethod(n) == queens.Join {
			for i, g := range gs {
				if join.Feasible(g) {
					cuts = append(cuts, i)
				}
			}
		}
		if len(cuts) == 0 {
			fmt.Fprintf(&b, "| %d | constellations | - |", n)
			for range slots {
				b.WriteString(" a few MiB |")
			}
			b.WriteString("\n")
			continue
		}
		rows := []int{cuts[0]}
		if last := cuts[len(cuts)-1]; last != cuts[0] {
			rows = append(rows, last)
		}
		for i, c := range rows {
			what := "fastest"
			if i > 0 {
				what = "leanest"
			}
			fmt.Fprintf(&b, "| %d | join | %d (%s) |", n, c+1, what)
			for _, s := range slots {
				fmt.Fprintf(&b, " %s |", mebibytes(join.Memory(gs[c], s)))
			}
			b.WriteString("\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mebibytes writes a size in MiB, or GiB from 10 GiB.
func mebibytes(b uint64) string {
	if b >= 10<<30 {
		return fmt.Sprintf("%.0f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%d MiB", (b+(1<<20)-1)>>20)
}
