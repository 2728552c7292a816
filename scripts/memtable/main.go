// Command memtable prints the table of memory per worker in
// scripts/README.md (n = 20 to 28), from the estimates every count plans
// with (queens.MemoryTable, join.Memory):
//
//	go run ./scripts/memtable
//
// Rerun it, and paste its output between the table's markers, whenever
// the join's memory model changes (a test compares the two).
package main

import (
	"fmt"
	"os"

	"github.com/nqcount/nqcount/count/queens"
)

func main() {
	if err := queens.MemoryTable(os.Stdout, 20, 28); err != nil {
		fmt.Fprintln(os.Stderr, "memtable:", err)
		os.Exit(1)
	}
}
