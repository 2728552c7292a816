package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count/queens/queue"
	"github.com/nqcount/nqcount/count/queens/queue/client"
	"github.com/nqcount/nqcount/internal/cli"
)

// Text a worker wrote reaches the terminal escaped,
// never obeyed.
func TestPrintStatusEscapesWorkerText(t *testing.T) {
	evil := "\x1b[2J\x1b[HCONFLICT task 0: all fine\r\n"
	s := &client.Status{
		Job: "q8", N: 8, Tasks: 2,
		Conflicts: []client.Conflict{{Task: 0, Results: []queue.Record{{Kind: queue.KindCount, Worker: evil}, {Kind: queue.KindVerify, Worker: "w1"}}}},
		Failed:    []queue.Failure{{Task: 1, Worker: evil, Error: evil}},
		Refused:   []client.Refusal{{Task: 1, Worker: evil, Reason: evil}},
	}
	var b bytes.Buffer
	if err := printStatus(&b, s); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); strings.ContainsAny(out, "\x1b\r") || strings.Count("\n"+out, "\nCONFLICT") != 1 {
		t.Fatalf("status printed worker text raw:\n%q", out)
	}
}

// A worker printed two untimestamped lines a second
// while its server was away. Its lines carry the time, and one that
// repeats is said once per interval with how many were left out.
func TestWorkLogRateLimited(t *testing.T) {
	var b bytes.Buffer
	e := &cli.Env{Prog: "nqueens", Stderr: &b}
	l := &workLog{e: e, every: time.Hour}
	for i := range 100 {
		l.logf("receiving tasks: %v (retrying)", i)
	}
	l.logf("something else")
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "receiving tasks: 0") || !strings.Contains(lines[1], "something else") {
		t.Fatalf("log:\n%s", b.String())
	}
	for _, line := range lines {
		if !regexp.MustCompile(`^nqueens: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ `).MatchString(line) {
			t.Errorf("line without a time: %q", line)
		}
	}
	l.every = 0
	l.logf("receiving tasks: %v (retrying)", 100)
	if !strings.Contains(b.String(), "and 99 more like it") {
		t.Errorf("the repeats left out are not counted:\n%s", b.String())
	}
}

// Status printed one 300-character line per failed
// task, 48 identical lines; failures are grouped by cause.
func TestPrintStatusGroupsFailures(t *testing.T) {
	s := &client.Status{Job: "q8", N: 8, Tasks: 60}
	for i := range 48 {
		s.Failed = append(s.Failed, queue.Failure{Task: i, Worker: "weak", Error: "job q8 cannot be counted in this worker's memory", SetAside: true, Delivery: 5})
	}
	s.Failed = append(s.Failed, queue.Failure{Task: 50, Worker: "w2", Error: "simulated", Delivery: 1})
	var b bytes.Buffer
	if err := printStatus(&b, s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if n := strings.Count(out, "cannot be counted"); n != 1 || !strings.Contains(out, "48 tasks failed (set aside; worker weak)") || !strings.Contains(out, "and 38 more") || !strings.Contains(out, "failed task 50 (w2, delivery 1, retrying): simulated") {
		t.Fatalf("status:\n%s", out)
	}
}
