package count

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

func TestRunSumsExactly(t *testing.T) {
	const n = 1000
	for _, workers := range []int{1, 2, 3, 8, 2000} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			var seen sync.Map
			tot, err := Run(context.Background(), All(n), func(id int) (Result, error) {
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
	tot, err := Run(context.Background(), nil, func(int) (Result, error) { panic("no task") }, Options{})
	if err != nil || tot.Tasks != 0 {
		t.Fatalf("got %+v, %v", tot, err)
	}
}

func TestRunCancelStopsAndReportsPartial(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Int64
	tot, err := Run(ctx, All(10000), func(id int) (Result, error) {
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
	_, err := Run(context.Background(), All(100), func(id int) (Result, error) {
		if id == 37 {
			return Result{}, boom
		}
		return Result{Count: 1}, nil
	}, Options{Workers: 2})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	_, err = Run(context.Background(), All(100), func(id int) (Result, error) {
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
	_, err := Run(context.Background(), All(100), func(id int) (Result, error) {
		return Result{Count: 1}, nil
	}, Options{Workers: 2, OnDone: func(id int, r Result) error { return stop }})
	if !errors.Is(err, stop) {
		t.Fatalf("err = %v, want the OnDone error", err)
	}
}
