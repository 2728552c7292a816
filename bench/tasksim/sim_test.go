package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSimulate(t *testing.T) {
	for _, tc := range []struct {
		costs []float64
		order []int
		p     int
		want  float64
	}{
		{[]float64{5, 3, 2}, []int{0, 1, 2}, 1, 10},
		{[]float64{5, 3, 2}, []int{0, 1, 2}, 2, 5}, // 5 | 3+2
		{[]float64{5, 3, 2}, []int{2, 1, 0}, 2, 7}, // 2+5 | 3: smallest first loses
		{[]float64{4, 4, 4, 4, 4}, []int{0, 1, 2, 3, 4}, 4, 8},
		{[]float64{1, 1, 1}, []int{0, 1, 2}, 8, 1},             // more workers than tasks
		{[]float64{3, 3, 2, 2, 2}, []int{0, 1, 2, 3, 4}, 2, 7}, // greedy, not optimal (6)
	} {
		if got := simulate(tc.costs, tc.order, tc.p); got != tc.want {
			t.Errorf("simulate(%v, %v, %d) = %v, want %v", tc.costs, tc.order, tc.p, got, tc.want)
		}
	}
}

// The tool end to end on a small board: every task measured, the file read
// back, the report printed.
func TestMeasureAndSimulate(t *testing.T) {
	file := filepath.Join(t.TempDir(), "t.csv")
	var out, log bytes.Buffer
	if err := run(context.Background(), []string{"measure", "-n", "12", "-plan-workers", "4", "-o", file}, &out, &log); err != nil {
		t.Fatal(err)
	}
	m, err := readMeasurement(file)
	if err != nil {
		t.Fatal(err)
	}
	if m.N != 12 || len(m.Tasks) == 0 || m.Hash == "" {
		t.Fatalf("measurement %+v", m)
	}
	corners := 0
	for _, x := range m.Tasks {
		if x.Nodes == 0 || x.Estimate == 0 {
			t.Errorf("task %+v", x)
		}
		if x.Corner {
			corners++
		}
	}
	if corners == 0 {
		t.Errorf("no corner-class task at n = 12")
	}
	out.Reset()
	if err := run(context.Background(), []string{"simulate", "-p", "1,4", file}, &out, &log); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "P =    1: ") || !strings.Contains(out.String(), "efficiency 1.000") {
		t.Errorf("report:\n%s", &out)
	}
	if b, _ := os.ReadFile(file); !bytes.HasPrefix(b, []byte("# n=12 depth=")) {
		t.Errorf("file starts %q", b[:min(40, len(b))])
	}
}
