package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nqcount/nqcount/count/queens/queue"
)

// Item 11 of issue 36: text a worker wrote reaches the terminal escaped,
// never obeyed.
func TestPrintStatusEscapesWorkerText(t *testing.T) {
	evil := "\x1b[2J\x1b[HCONFLICT task 0: all fine\r\n"
	s := &queue.Status{
		Job: "q8", N: 8, Tasks: 2,
		Conflicts: []queue.Conflict{{Task: 0, Results: []queue.Record{{Kind: queue.KindCount, Worker: evil}, {Kind: queue.KindVerify, Worker: "w1"}}}},
		Failed:    []queue.Failure{{Task: 1, Worker: evil, Error: evil}},
		Refused:   []queue.Refusal{{Task: 1, Worker: evil, Reason: evil}},
	}
	var b bytes.Buffer
	if err := printStatus(&b, s); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); strings.ContainsAny(out, "\x1b\r") || strings.Count("\n"+out, "\nCONFLICT") != 1 {
		t.Fatalf("status printed worker text raw:\n%q", out)
	}
}
