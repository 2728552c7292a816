package queens

import (
	"fmt"
	"io"
	"strings"

	"github.com/nqcount/nqcount/count/queens/join"
)

// MemoryTable writes, as a Markdown table, the memory a worker needs per
// board size from n = from to to, for 1, 4, 8 and 16 slots (work
// --workers): for a job counted by the join (the default method from
// n = 12 but 13), on its table path (the tables and each slot's lists)
// and the least on its bounded path (each slot's row lists and smallest
// arena), with the program's own; a worker given less than the table
// path needs counts on the bounded path, and one given less than that
// refuses the job. The figures are join.MemoryOf's, the estimate every
// count plans with (Plan.Fit). scripts/README.md holds its output
// for n = 20 to 28 (go run ./scripts/memtable regenerates it).
func MemoryTable(w io.Writer, from, to int) error {
	slots := []int{1, 4, 8, 16}
	var b strings.Builder
	b.WriteString("| n | path |")
	for _, s := range slots {
		fmt.Fprintf(&b, " %d %s |", s, map[bool]string{true: "slot", false: "slots"}[s == 1])
	}
	b.WriteString("\n|---|---|")
	for range slots {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for n := from; n <= to; n++ {
		if DefaultMethod(n) != Join {
			fmt.Fprintf(&b, "| %d | constellations |", n)
			for range slots {
				b.WriteString(" a few MiB |")
			}
			b.WriteString("\n")
			continue
		}
		m := join.MemoryOf(join.Cut(n))
		fmt.Fprintf(&b, "| %d | tables |", n)
		for _, s := range slots {
			fmt.Fprintf(&b, " %s |", Mebibytes(join.Runtime+m.Tables+uint64(s)*m.TableWorker))
		}
		fmt.Fprintf(&b, "\n| %d | bounded (least) |", n)
		for _, s := range slots {
			fmt.Fprintf(&b, " %s |", Mebibytes(join.Runtime+uint64(s)*(m.RowLists+m.MinArena)))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Mebibytes writes a size in MiB, or GiB from 10 GiB, as sizes are said
// to people (the memory table, the queue's workers).
func Mebibytes(b uint64) string {
	if b >= 10<<30 {
		return fmt.Sprintf("%.0f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%d MiB", (b+(1<<20)-1)>>20)
}
