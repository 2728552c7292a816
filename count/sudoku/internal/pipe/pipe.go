// Package pipe is the ordered, bounded, cancellable pipeline behind the
// Sudoku batch commands (package batch) and the generator (generate.Run):
// a producer hands jobs in order, the engine's pool of workers (package
// count) does them in any order, and the caller's goroutine emits them in
// the producer's order as soon as each and those before it are done.
package pipe

import (
	"context"
	"sync"

	"github.com/nqcount/nqcount/count"
)

// Run runs a pipeline of jobs of type J.
//
// produce runs on a goroutine of its own and hands the jobs, in order, to
// put. put blocks while window jobs are in flight (handed but not yet
// emitted), so that memory stays bounded whatever the number of jobs; it
// returns false once the pipeline stops (ctx ended, emit failed), and
// produce should then return. produce's error, if any, is returned by Run
// after every job put before it is emitted.
//
// work is called once for each job on up to workers goroutines, the
// workers of count.Run (on the calling goroutine when workers is 1), with
// a context that ends when ctx does or emit fails; it must return soon
// after that context ends (count.Run leaves behind a worker still busy a
// second later). emit is called with each job, in the order put received
// them, from the calling goroutine.
//
// Run returns nil when produce returned nil and every job was emitted;
// else the first of emit's error, a worker's panic (an error wrapping
// count.ErrPanic), ctx's error or produce's error. When ctx ends, the jobs
// that were done (their work returned, perhaps with ctx's error recorded
// in the job) are emitted in order up to the first that was not, and Run
// returns ctx's error.
//
// Run does not wait for produce to return: a producer blocked in a read
// that no cancellation can interrupt (a terminal, a pipe) goes on until
// that read returns; its next put then returns false.
func Run[J any](ctx context.Context, workers, window int, produce func(put func(J) bool) error, work func(context.Context, *J), emit func(*J) error) error {
	workers, window = max(workers, 1), max(window, 1)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	// The producer takes a ticket for each job it puts, the emitter gives
	// it back after emitting it: at most window jobs are in flight, so
	// that each has its own slot in the ring.
	tickets := make(chan struct{}, window)
	jobs := make(chan item[J], window)
	var (
		mu    sync.Mutex
		ready = sync.NewCond(&mu)
		ring  = make([]struct {
			job  J
			done bool
		}, window)
		total   = -1 // the number of jobs once produce has returned
		prodErr error
	)
	go func() {
		seq := 0
		err := produce(func(j J) bool {
			select {
			case tickets <- struct{}{}:
			case <-ctx.Done():
				return false
			}
			select {
			case jobs <- item[J]{seq, j}:
				seq++
				return true
			case <-ctx.Done():
				return false
			}
		})
		close(jobs)
		mu.Lock()
		total, prodErr = seq, err
		ready.Broadcast()
		mu.Unlock()
	}()
	stopWake := context.AfterFunc(ctx, func() {
		mu.Lock()
		ready.Broadcast()
		mu.Unlock()
	})
	defer stopWake()

	if workers == 1 {
		return runOne(ctx, jobs, tickets, work, emit, func() (int, error) {
			mu.Lock()
			defer mu.Unlock()
			for total < 0 && ctx.Err() == nil {
				ready.Wait()
			}
			return total, prodErr
		})
	}

	// The workers are the engine's pool (package count): one task each,
	// that takes jobs until there are none. A worker that panics ends the
	// pipeline with the panic as its error.
	var poolErr error
	poolDone := make(chan struct{})
	go func() {
		defer close(poolDone)
		_, err := count.Run(ctx, count.All(workers), func(ctx context.Context, _ int, _ func(uint64)) (count.Result, error) {
			for {
				var it item[J]
				var ok bool
				select {
				case it, ok = <-jobs:
				case <-ctx.Done():
					return count.Result{}, nil
				}
				if !ok || ctx.Err() != nil {
					return count.Result{}, nil
				}
				work(ctx, &it.job)
				mu.Lock()
				s := &ring[it.seq%window]
				s.job, s.done = it.job, true
				ready.Broadcast()
				mu.Unlock()
			}
		}, count.Options{Workers: workers})
		if err != nil && ctx.Err() == nil {
			mu.Lock()
			poolErr = err
			mu.Unlock()
			cancel()
		}
	}()
	// stopped is the error of a pipeline that ctx or a worker ended.
	stopped := func() error {
		mu.Lock()
		defer mu.Unlock()
		if poolErr != nil {
			return poolErr
		}
		return ctx.Err()
	}
	var zero J
	for seq := 0; ; seq++ {
		mu.Lock()
		s := &ring[seq%window]
		for !s.done && seq != total && ctx.Err() == nil {
			ready.Wait()
		}
		if !s.done && seq == total {
			err := prodErr
			mu.Unlock()
			<-poolDone
			return err
		}
		if !s.done {
			// ctx ended: let the workers finish what they hold, then
			// emit what is done, in order.
			mu.Unlock()
			<-poolDone
			mu.Lock()
		}
		if !s.done {
			mu.Unlock()
			return stopped()
		}
		job := s.job
		s.job, s.done = zero, false
		mu.Unlock()
		if err := emit(&job); err != nil {
			cancel()
			<-poolDone
			return err
		}
		<-tickets
	}
}

// item is a job and its place in the producer's order.
type item[J any] struct {
	seq int
	job J
}

// runOne is Run with one worker: the calling goroutine works each job and
// emits it at once. end waits for produce to return and gives its error.
func runOne[J any](ctx context.Context, jobs <-chan item[J], tickets <-chan struct{}, work func(context.Context, *J), emit func(*J) error, end func() (int, error)) error {
	for {
		var it item[J]
		var ok bool
		select {
		case it, ok = <-jobs:
		case <-ctx.Done():
			return ctx.Err()
		}
		if !ok {
			if _, err := end(); err != nil {
				return err
			}
			return ctx.Err()
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		work(ctx, &it.job)
		if err := emit(&it.job); err != nil {
			return err
		}
		<-tickets
	}
}

// RunInline is Run with one worker and no goroutine: produce runs on the
// calling goroutine, and put does each job's work and emits it before it
// returns. It is for a producer that never waits long (one reading a
// regular file): Run's own goroutine is what lets a producer blocked in
// a read leave Run to return when ctx ends. put returns false once ctx
// has ended or emit has failed; RunInline returns emit's error, else
// ctx's, else produce's.
func RunInline[J any](ctx context.Context, produce func(put func(J) bool) error, work func(context.Context, *J), emit func(*J) error) error {
	var emitErr error
	err := produce(func(j J) bool {
		if emitErr != nil || ctx.Err() != nil {
			return false
		}
		work(ctx, &j)
		if err := emit(&j); err != nil {
			emitErr = err
			return false
		}
		return true
	})
	switch {
	case emitErr != nil:
		return emitErr
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return err
}
