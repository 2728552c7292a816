package journal_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/nqcount/nqcount/count/journal"
)

// A run records each finished task; a second run over the same journal
// skips the tasks already recorded.
func Example() {
	dir, _ := os.MkdirTemp("", "journal")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "run.journal")
	h := journal.Header{Hash: "plan-hash", Tasks: 4, Meta: map[string]string{"n": "8"}}

	j, _ := journal.Open(path, h, journal.Options{})
	j.Append(journal.Record{ID: 2, Count: 10, Nodes: 300})
	j.Append(journal.Record{ID: 0, Count: 4, Nodes: 120})
	j.Close() // or a crash: both records were already written

	j, _ = journal.Open(path, h, journal.Options{})
	defer j.Close()
	done := map[int]bool{}
	for _, r := range j.Records() {
		done[r.ID] = true
	}
	for id := 0; id < h.Tasks; id++ {
		if !done[id] {
			fmt.Println("to count:", id)
		}
	}
	// Output:
	// to count: 1
	// to count: 3
}
