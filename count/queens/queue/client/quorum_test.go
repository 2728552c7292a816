package client

import (
	"testing"

	"github.com/nqcount/nqcount/count/queens/queue"
)

func TestJudge(t *testing.T) {
	rec := func(w string, c uint64) queue.Record { return queue.Record{Worker: w, Count: c, Nodes: c} }
	for _, c := range []struct {
		name     string
		recs     []queue.Record
		standing int64 // -1: none
		conflict bool
		outvoted int
	}{
		{"none", nil, -1, false, 0},
		{"one", []queue.Record{rec("a", 5)}, 5, false, 0},
		{"two agree", []queue.Record{rec("a", 5), rec("b", 5)}, 5, false, 0},
		{"two disagree", []queue.Record{rec("a", 5), rec("b", 7)}, -1, true, 0},
		{"the same worker twice is one vote", []queue.Record{rec("a", 7), rec("a", 7), rec("b", 5)}, -1, true, 0},
		{"majority", []queue.Record{rec("a", 7), rec("b", 5), rec("c", 5)}, 5, false, 1},
		{"three ways", []queue.Record{rec("a", 7), rec("b", 5), rec("c", 6)}, -1, true, 0},
		{"two against two", []queue.Record{rec("a", 7), rec("b", 5), rec("c", 5), rec("d", 7)}, -1, true, 0},
	} {
		v := judge(opinions(c.recs, nil, func(string) bool { return false }))
		got := int64(-1)
		if v.standing != nil {
			got = int64(v.standing.count)
		}
		if got != c.standing || v.conflict != c.conflict || len(v.outvoted) != c.outvoted {
			t.Errorf("%s: standing %d, conflict %v, %d outvoted; want %d, %v, %d", c.name, got, v.conflict, len(v.outvoted), c.standing, c.conflict, c.outvoted)
		}
	}
}
