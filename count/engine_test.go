package count

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestRunSumsExactly(t *testing.T) {
	const n = 1000
	for _, workers := range []int{1, 2, 3, 8, 2000} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			var seen sync.Map
			tot, err := Run(context.Background(), All(n), func(_ context.Context, id int, _ func(uint64)) (Result, error) {
				return Result{Count: ^uint64(0), Nodes: uint64(id)}, nil
			}, Options{Workers: workers, OnDone: func(id int, r Result) error {
				if _, dup := seen.LoadOrStore(id, true); dup {
					return fmt.Errorf("task %d reported twice", id)
				}
				return nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			want := U128(0)
			for i := 0; i < n; i++ {
				want = want.Add64(^uint64(0))
			}
			if tot.Count != want || tot.Nodes != U128(n*(n-1)/2) || tot.Tasks != n {
				t.Fatalf("got %+v, want count %s nodes %d", tot, want, n*(n-1)/2)
			}
		})
	}
}

func TestRunEmpty(t *testing.T) {
	tot, err := Run(context.Background(), nil, func(context.Context, int, func(uint64)) (Result, error) { panic("no task") }, Options{})
	if err != nil || tot.Tasks != 0 {
		t.Fatalf("got %+v, %v", tot, err)
	}
}

func TestRunCancelStopsAndReportsPartial(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Int64
	tot, err := Run(ctx, All(10000), func(_ context.Context, id int, _ func(uint64)) (Result, error) {
		if ran.Add(1) == 50 {
			cancel()
		}
		return Result{Count: 1}, nil
	}, Options{Workers: 4})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if tot.Tasks >= 10000 || tot.Count != U128(uint64(tot.Tasks)) {
		t.Fatalf("partial totals inconsistent: %+v", tot)
	}
}

func TestRunTaskErrorAndPanic(t *testing.T) {
	boom := errors.New("boom")
	_, err := Run(context.Background(), All(100), func(_ context.Context, id int, _ func(uint64)) (Result, error) {
		if id == 37 {
			return Result{}, boom
		}
		return Result{Count: 1}, nil
	}, Options{Workers: 2})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	_, err = Run(context.Background(), All(100), func(_ context.Context, id int, _ func(uint64)) (Result, error) {
		if id == 3 {
			panic("task 3 fails")
		}
		return Result{Count: 1}, nil
	}, Options{Workers: 2})
	if !errors.Is(err, ErrPanic) {
		t.Fatalf("err = %v, want ErrPanic", err)
	}
}

func TestRunOnDoneErrorStops(t *testing.T) {
	stop := errors.New("disk full")
	_, err := Run(context.Background(), All(100), func(_ context.Context, id int, _ func(uint64)) (Result, error) {
		return Result{Count: 1}, nil
	}, Options{Workers: 2, OnDone: func(id int, r Result) error { return stop }})
	if !errors.Is(err, stop) {
		t.Fatalf("err = %v, want the OnDone error", err)
	}
}

// slicer is a task that runs slices of `nodes` nodes each, reporting each
// one, and finishes after `slices` slices (never, if slices < 0), checking
// its context between slices as TaskFunc asks.
func slicer(slices int, nodes uint64) TaskFunc {
	return func(ctx context.Context, id int, progress func(uint64)) (Result, error) {
		var done uint64
		for i := 0; slices < 0 || i < slices; i++ {
			if err := ctx.Err(); err != nil {
				return Result{}, err
			}
			time.Sleep(100 * time.Microsecond) // the slice's work
			done += nodes
			progress(nodes)
		}
		return Result{Count: 1, Nodes: done}, nil
	}
}

// TestRunCancelAbandonsRunningTasks cancels a run whose tasks would never
// end: Run must return (the test would hang otherwise) with the finished
// tasks only, each reported once, and never report anything afterwards.
func TestRunCancelAbandonsRunningTasks(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var reported, afterReturn atomic.Int64
	var returned atomic.Bool
	do := func(ctx context.Context, id int, progress func(uint64)) (Result, error) {
		if id == 0 || id == 7 {
			return slicer(-1, 10)(ctx, id, progress) // endless until cancelled
		}
		return slicer(5, 10)(ctx, id, progress)
	}
	go func() {
		for reported.Load() < 20 {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	var live atomic.Uint64
	tot, err := Run(ctx, All(1000), do, Options{Workers: 4,
		OnDone: func(id int, r Result) error {
			if returned.Load() {
				afterReturn.Add(1)
			}
			if id == 0 || id == 7 {
				t.Errorf("endless task %d reported as done", id)
			}
			reported.Add(1)
			return nil
		},
		OnProgress: func(id int, n uint64) { live.Store(max(live.Load(), n)) },
	})
	returned.Store(true)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if int64(tot.Tasks) != reported.Load() || tot.Count != U128(uint64(tot.Tasks)) || tot.Nodes != U128(50*uint64(tot.Tasks)) {
		t.Fatalf("totals %+v, %d tasks reported", tot, reported.Load())
	}
	if tot.Tasks > 0 && live.Load() < 50 {
		t.Fatalf("progress saw at most %d nodes of a task, fewer than the 50 of a finished one", live.Load())
	}
	time.Sleep(20 * time.Millisecond)
	if afterReturn.Load() != 0 {
		t.Fatalf("%d tasks reported after Run returned", afterReturn.Load())
	}
}

// TestRunLeavesATaskThatIgnoresCancel: a task that never looks at its
// context holds nothing up for more than abandonAfter, and its result,
// when it comes, is neither reported nor added.
func TestRunLeavesATaskThatIgnoresCancel(t *testing.T) {
	defer func(d time.Duration) { abandonAfter = d }(abandonAfter)
	abandonAfter = 50 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	release := make(chan struct{})
	started := make(chan struct{})
	var calls, progressAfter atomic.Int64
	var returned atomic.Bool
	var once sync.Once
	go func() {
		<-started
		cancel()
	}()
	tot, err := Run(ctx, All(2), func(_ context.Context, id int, progress func(uint64)) (Result, error) {
		if id == 0 {
			return Result{Count: 1, Nodes: 1}, nil
		}
		once.Do(func() { close(started) })
		<-release // deaf to ctx
		progress(1)
		return Result{Count: 1, Nodes: 1}, nil
	}, Options{Workers: 2,
		OnDone: func(id int, r Result) error { calls.Add(1); return nil },
		OnProgress: func(int, uint64) {
			if returned.Load() {
				progressAfter.Add(1)
			}
		},
	})
	returned.Store(true)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	n := calls.Load()
	if tot.Tasks != int(n) || tot.Tasks > 1 {
		t.Fatalf("totals %+v, OnDone called %d times", tot, n)
	}
	close(release)
	time.Sleep(50 * time.Millisecond)
	if calls.Load() != n || progressAfter.Load() != 0 {
		t.Fatalf("the abandoned task was reported after Run returned (%d OnDone, %d progress)", calls.Load()-n, progressAfter.Load())
	}
}

// TestRunProgressAddsUp: a task's progress is a running total of its
// slices, ending at its nodes.
func TestRunProgressAddsUp(t *testing.T) {
	var mu sync.Mutex
	last := map[int]uint64{}
	tot, err := Run(context.Background(), All(50), slicer(7, 3), Options{Workers: 3, OnProgress: func(id int, n uint64) {
		mu.Lock()
		defer mu.Unlock()
		if n <= last[id] {
			t.Errorf("task %d: progress %d after %d", id, n, last[id])
		}
		last[id] = n
	}})
	if err != nil {
		t.Fatal(err)
	}
	var sum uint64
	for id, n := range last {
		if n != 7*3 {
			t.Errorf("task %d: last progress %d, want 21", id, n)
		}
		sum += n
	}
	if tot.Nodes != U128(50*7*3) || sum != 50*7*3 || len(last) != 50 {
		t.Fatalf("nodes %s, progress %d over %d tasks", tot.Nodes, sum, len(last))
	}
}

// TestRunFailureStopsLongTasks: a failing task stops the endless others at
// their next slice.
func TestRunFailureStopsLongTasks(t *testing.T) {
	boom := errors.New("boom")
	_, err := Run(context.Background(), All(8), func(ctx context.Context, id int, progress func(uint64)) (Result, error) {
		if id == 5 {
			time.Sleep(5 * time.Millisecond)
			return Result{}, boom
		}
		return slicer(-1, 1)(ctx, id, progress)
	}, Options{Workers: 8})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
}

// A cancelled context whose tasks all finished anyway gives the whole
// total and no error: nothing was lost.
func TestRunCompleteDespiteLateCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int64
	tot, err := Run(ctx, All(10), func(_ context.Context, id int, _ func(uint64)) (Result, error) {
		if n.Add(1) == 10 {
			cancel()
		}
		return Result{Count: 1}, nil
	}, Options{Workers: 1})
	if err != nil || tot.Tasks != 10 {
		t.Fatalf("got %+v, %v", tot, err)
	}
}

// TestRunBatches: every task of every batch is reported once with its own
// result, the progress of a batch goes to its first id, and a batch that
// returns the wrong number of results, fails or panics stops the run.
func TestRunBatches(t *testing.T) {
	var batches [][]int
	for i := 0; i < 300; i += 7 {
		b := []int{}
		for j := i; j < min(i+7, 300); j++ {
			b = append(b, j)
		}
		batches = append(batches, b)
	}
	square := func(_ context.Context, ids []int, progress func(uint64)) ([]Result, error) {
		rs := make([]Result, len(ids))
		for i, id := range ids {
			rs[i] = Result{Count: uint64(id * id), Nodes: 1}
			progress(1)
		}
		return rs, nil
	}
	for _, workers := range []int{1, 3, 100} {
		var mu sync.Mutex
		seen, live := map[int]bool{}, map[int]uint64{}
		tot, err := RunBatches(context.Background(), batches, square, Options{Workers: workers,
			OnDone: func(id int, r Result) error {
				mu.Lock()
				defer mu.Unlock()
				if seen[id] || r.Count != uint64(id*id) {
					return fmt.Errorf("task %d: %+v, seen %v", id, r, seen[id])
				}
				seen[id] = true
				return nil
			},
			OnProgress: func(id int, nodes uint64) {
				mu.Lock()
				live[id] = nodes
				mu.Unlock()
			}})
		if err != nil {
			t.Fatal(err)
		}
		if tot.Tasks != 300 || tot.Count != U128(299*300*599/6) || len(seen) != 300 {
			t.Fatalf("workers %d: %+v, %d reported", workers, tot, len(seen))
		}
		for _, b := range batches {
			if live[b[0]] != uint64(len(b)) {
				t.Fatalf("batch from %d: progress %d under its first id, want %d", b[0], live[b[0]], len(b))
			}
		}
	}
	bad := map[string]BatchFunc{
		"results for": func(context.Context, []int, func(uint64)) ([]Result, error) { return []Result{{}}, nil },
		"boom":        func(context.Context, []int, func(uint64)) ([]Result, error) { return nil, errors.New("boom") },
		"panicked":    func(context.Context, []int, func(uint64)) ([]Result, error) { panic("oops") },
	}
	for want, do := range bad {
		_, err := RunBatches(context.Background(), batches, do, Options{Workers: 2})
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "more") {
			t.Errorf("%s: %v", want, err)
		}
	}
	if _, err := RunBatches(context.Background(), [][]int{{1}, {}}, square, Options{}); err == nil {
		t.Error("an empty batch was taken")
	}
}
