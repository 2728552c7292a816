package job_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"

	"github.com/nqcount/nqcount/count"
	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/count/queens/job"
	"github.com/nqcount/nqcount/count/shard"
)

// A long count as nqueens count runs it: the checkpoint makes a second
// Open resume what the first recorded.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "job")
	defer os.RemoveAll(dir)
	cfg := job.Config{Spec: queens.Spec{N: 12}, Checkpoint: filepath.Join(dir, "q12.journal"), Program: "example"}
	for run := 0; run < 2; run++ {
		j, err := job.Open(cfg)
		if err != nil {
			fmt.Println(err)
			return
		}
		out, err := j.Run(context.Background())
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("total %s, matches OEIS %v, all tasks resumed %v\n", out.Total, *out.Matches, out.ResumedTasks == out.Tasks)
	}
	// Output:
	// total 14200, matches OEIS true, all tasks resumed false
	// total 14200, matches OEIS true, all tasks resumed true
}

// What a work queue's worker and its collector do: every machine plans
// the job from its Spec (same tasks, same ID), a worker counts the task
// ids it is handed and publishes each result as it finishes, and the
// collector assembles the results into the checked total.
func Example_queueWorker() {
	p, err := queens.NewPlan(queens.Spec{N: 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	var (
		mu        sync.Mutex
		published []shard.TaskResult
	)
	publish := func(id int, r count.Result) error {
		mu.Lock()
		defer mu.Unlock()
		published = append(published, shard.TaskResult{ID: id, Count: r.Count, Nodes: r.Nodes})
		return nil
	}
	// Two workers, each handed half of the tasks.
	ids := count.All(p.Len())
	for _, handed := range [][]int{ids[:len(ids)/2], ids[len(ids)/2:]} {
		if _, err := queens.Count(context.Background(), p, queens.Execution{Workers: 2}, handed, queens.Options{OnDone: publish}); err != nil {
			fmt.Println(err)
			return
		}
	}
	total, err := job.Assemble(p, published, true)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(total.Total, *total.Unique, *total.Matches)
	// Output: 724 92 true
}

// A web page polls a running job's progress as JSON: tasks done, the
// share of the estimated work, nodes/s, elapsed time and ETA in seconds.
func ExampleJob_Progress() {
	j, err := job.Open(job.Config{Spec: queens.Spec{N: 11}})
	if err != nil {
		fmt.Println(err)
		return
	}
	progress := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(j.Progress()) // safe while j.Run counts
	}
	if _, err := j.Run(context.Background()); err != nil {
		fmt.Println(err)
		return
	}
	rec := httptest.NewRecorder()
	progress(rec, httptest.NewRequest("GET", "/progress", nil))
	var p struct {
		Tasks, Done int
		Fraction    float64
		ETA         *float64 `json:"eta_seconds"`
	}
	json.Unmarshal(rec.Body.Bytes(), &p)
	fmt.Println(p.Done == p.Tasks, p.Fraction, *p.ETA)
	// Output: true 1 0
}
