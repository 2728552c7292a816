package pipe

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nqcount/nqcount/count"
)

type job struct {
	i, sq int
	err   error
}

// produceN puts jobs 0..n-1, then returns err.
func produceN(n int, err error) func(put func(job) bool) error {
	return func(put func(job) bool) error {
		for i := 0; i < n; i++ {
			if !put(job{i: i}) {
				return nil
			}
		}
		return err
	}
}

// TestOrderAndBound: jobs done in any order come out in order, with at
// most window in flight, for one and several workers.
func TestOrderAndBound(t *testing.T) {
	for _, workers := range []int{1, 2, 7} {
		const n, window = 500, 5
		var inFlight, most atomic.Int64
		put := func(put func(job) bool) error {
			for i := 0; i < n; i++ {
				v := inFlight.Add(1)
				for {
					m := most.Load()
					if v <= m || most.CompareAndSwap(m, v) {
						break
					}
				}
				if !put(job{i: i}) {
					return nil
				}
			}
			return nil
		}
		next := 0
		err := Run(context.Background(), workers, window, put, func(_ context.Context, j *job) {
			if rand.IntN(4) == 0 {
				time.Sleep(time.Duration(rand.IntN(200)) * time.Microsecond)
			}
			j.sq = j.i * j.i
		}, func(j *job) error {
			if j.i != next || j.sq != j.i*j.i {
				t.Fatalf("workers %d: emitted job %d (%d), want %d", workers, j.i, j.sq, next)
			}
			next++
			inFlight.Add(-1)
			return nil
		})
		if err != nil || next != n {
			t.Fatalf("workers %d: %v after %d jobs", workers, err, next)
		}
		// One more than the window: the producer counts a job before
		// put takes its ticket.
		if m := most.Load(); m > window+1 {
			t.Errorf("workers %d: %d jobs in flight, window %d", workers, m, window)
		}
	}
}

// TestErrors: produce's error comes after every job; emit's stops the run.
func TestErrors(t *testing.T) {
	bad := errors.New("bad input")
	for _, workers := range []int{1, 3} {
		n := 0
		err := Run(context.Background(), workers, 4, produceN(10, bad), func(context.Context, *job) {}, func(*job) error { n++; return nil })
		if err != bad || n != 10 {
			t.Errorf("workers %d: %v after %d jobs, want the producer's error after 10", workers, err, n)
		}
		stop := errors.New("output")
		n = 0
		err = Run(context.Background(), workers, 4, produceN(1000, nil), func(context.Context, *job) {}, func(j *job) error {
			n++
			if j.i == 5 {
				return stop
			}
			return nil
		})
		if err != stop || n != 6 {
			t.Errorf("workers %d: %v after %d jobs, want emit's error after 6", workers, err, n)
		}
	}
}

// TestCancel: a cancelled run returns ctx's error promptly, after
// emitting in order the jobs done, even with a producer that never
// returns.
func TestCancel(t *testing.T) {
	for _, workers := range []int{1, 3} {
		ctx, cancel := context.WithCancel(context.Background())
		block := make(chan struct{})
		defer close(block)
		produce := func(put func(job) bool) error {
			for i := 0; i < 3; i++ {
				if !put(job{i: i}) {
					return nil
				}
			}
			<-block // a read that never returns
			return nil
		}
		next := 0
		done := make(chan error, 1)
		go func() {
			done <- Run(ctx, workers, 8, produce, func(ctx context.Context, j *job) {
				if j.i == 2 {
					cancel()
					<-ctx.Done()
					j.err = ctx.Err()
				}
			}, func(j *job) error {
				if j.i != next {
					t.Errorf("workers %d: job %d emitted, want %d", workers, j.i, next)
				}
				next++
				return nil
			})
		}()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("workers %d: %v, want context.Canceled", workers, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("workers %d: Run did not return after cancel", workers)
		}
		// One worker did jobs 0 and 1 before 2; several may have
		// started 2 first and left the others undone.
		if workers == 1 && next != 3 {
			t.Errorf("workers %d: %d jobs emitted, want the three done", workers, next)
		}
	}
}

// TestRunInline: RunInline keeps Run's contract with one worker: jobs
// worked and emitted in order, produce's error after every job, emit's
// error stopping the run, and a cancel emitting the jobs done and then
// refusing the next put.
func TestRunInline(t *testing.T) {
	next := 0
	err := RunInline(context.Background(), produceN(100, nil), func(_ context.Context, j *job) { j.sq = j.i * j.i }, func(j *job) error {
		if j.i != next || j.sq != j.i*j.i {
			t.Fatalf("emitted job %d (%d), want %d", j.i, j.sq, next)
		}
		next++
		return nil
	})
	if err != nil || next != 100 {
		t.Fatalf("%v after %d jobs", err, next)
	}

	bad := errors.New("bad input")
	n := 0
	err = RunInline(context.Background(), produceN(10, bad), func(context.Context, *job) {}, func(*job) error { n++; return nil })
	if err != bad || n != 10 {
		t.Errorf("%v after %d jobs, want the producer's error after 10", err, n)
	}
	stop := errors.New("output")
	n = 0
	err = RunInline(context.Background(), produceN(1000, nil), func(context.Context, *job) {}, func(j *job) error {
		n++
		if j.i == 5 {
			return stop
		}
		return nil
	})
	if err != stop || n != 6 {
		t.Errorf("%v after %d jobs, want emit's error after 6", err, n)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n, refused := 0, false
	err = RunInline(ctx, func(put func(job) bool) error {
		for i := 0; i < 10; i++ {
			if !put(job{i: i}) {
				refused = i == 3
				return nil
			}
		}
		return nil
	}, func(ctx context.Context, j *job) {
		if j.i == 2 {
			cancel()
			j.err = ctx.Err()
		}
	}, func(j *job) error { n++; return nil })
	if !errors.Is(err, context.Canceled) || n != 3 || !refused {
		t.Errorf("cancelled: %v after %d jobs (put refused job 3: %v), want context.Canceled after 3", err, n, refused)
	}
}

// TestWorkerPanic: a job that panics on a worker of the pool ends the run
// with the panic as its error (count.ErrPanic), after the jobs before it
// are emitted, instead of crashing the program.
func TestWorkerPanic(t *testing.T) {
	emitted := 0
	err := Run(context.Background(), 3, 4, produceN(100, nil), func(_ context.Context, j *job) {
		if j.i == 10 {
			panic("job 10")
		}
	}, func(j *job) error {
		if j.i != emitted {
			t.Fatalf("emitted job %d, want %d", j.i, emitted)
		}
		emitted++
		return nil
	})
	if !errors.Is(err, count.ErrPanic) || !strings.Contains(err.Error(), "job 10") {
		t.Fatalf("Run: %v, want the panic", err)
	}
	if emitted > 10 {
		t.Fatalf("%d jobs emitted, past the one that panicked", emitted)
	}
}
