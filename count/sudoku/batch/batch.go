// Package batch does one thing to every puzzle of a stream (a file,
// standard input, a pipe): solve it, rate it, explain it or count its
// solutions. It is what the sudoku command's solve, rate, explain and
// count run, and what any other front end calls to do the same.
//
// Every entry point (Solve, Rate, Explain, Count, and Run for other work)
// has one shape, that of generate.Run: puzzles are read as they come, done
// on up to Options.Workers goroutines, and handed to an emit function one
// record at a time, in the order they were read, from the calling
// goroutine, as soon as each and those before it are done. A puzzle that
// cannot be read is a record too, with its line and the reason. Memory
// stays bounded whatever the length of the input (a few records per worker
// are in flight, and the reader holds at most sudoku.MaxLine bytes of a
// line), and the run stops when its context ends, while reading too: a
// read blocked on a terminal or a pipe is left behind (its goroutine ends
// when the read returns), and the puzzles done by then are emitted first.
// With one worker and a regular file (whose reads do not wait), reading,
// work and emit all run on the calling goroutine.
package batch

import (
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/nqcount/nqcount/count/sudoku"
	"github.com/nqcount/nqcount/count/sudoku/internal/pipe"
	"github.com/nqcount/nqcount/count/sudoku/logic"
)

// Options tune a batch run.
type Options struct {
	// Workers is the number of puzzles done at once; see sudoku.Workers (0:
	// every core). Count does one puzzle at a time on this many cores.
	Workers int
}

// Record is one puzzle of the input and what was made of it.
type Record[T any] struct {
	// Line is the 1-based line of the input where the puzzle starts.
	Line int
	// Grid is the puzzle, when ReadErr is nil.
	Grid sudoku.Grid
	// ReadErr says why the puzzle could not be read (a *sudoku.ParseError):
	// then nothing was done with it and Value and Err are unset.
	ReadErr error
	// Value is the work's result.
	Value T
	// Err is the work's error for this puzzle (a puzzle the rater refuses,
	// or the context's error when the run was stopped while at it).
	Err error
}

// Work is what is done to one puzzle. NewWork makes one for each worker,
// so that a Work may keep state (a solver) without a lock; it must return
// soon after ctx ends.
type Work[T any] func(ctx context.Context, g *sudoku.Grid) (T, error)

// Run reads the puzzles of in, does the Work that newWork returns to each
// on up to opt.Workers goroutines, and calls emit with every record in
// input order. It returns nil at the end of the input, else the first of:
// emit's error, ctx's error, or the error that ended reading (a read
// error, or sudoku.ErrBinary with its line), the latter after every puzzle
// before it was emitted.
func Run[T any](ctx context.Context, in io.Reader, opt Options, newWork func() Work[T], emit func(*Record[T]) error) error {
	return run(ctx, in, sudoku.Workers(opt.Workers), 1, onGrid(newWork), emit)
}

// chunkWork is the work run calls: on the records of a chunk, those read
// well (ReadErr nil).
type chunkWork[T any] func(ctx context.Context, rs []Record[T])

// onGrid makes a newWork of run from one of Run.
func onGrid[T any](newWork func() Work[T]) func() chunkWork[T] {
	return onRecord(func() func(context.Context, *Record[T]) {
		w := newWork()
		return func(ctx context.Context, r *Record[T]) { r.Value, r.Err = w(ctx, &r.Grid) }
	})
}

// onRecord makes a newWork of run from a work on one record.
func onRecord[T any](newWork func() func(context.Context, *Record[T])) func() chunkWork[T] {
	return func() chunkWork[T] {
		w := newWork()
		return func(ctx context.Context, rs []Record[T]) {
			for i := range rs {
				if err := ctx.Err(); err != nil {
					rs[i].Err = err
					continue
				}
				w(ctx, &rs[i])
			}
		}
	}
}

// chunk is a run of consecutive records: one job of the pipeline.
type chunk[T any] []Record[T]

// run is Run with records grouped in chunks of up to size (many quick
// puzzles cost less a chunk than a record each to hand between
// goroutines).
func run[T any](ctx context.Context, in io.Reader, workers, size int, newWork func() chunkWork[T], emit func(*Record[T]) error) error {
	window := 2 * (workers + 1)
	regular := isRegular(in)
	// Chunks go round: the reader fills them, emit hands them back.
	free := make(chan *chunk[T], window+1)
	works := sync.Pool{New: func() any { return newWork() }}
	produce := func(put func(*chunk[T]) bool) error {
		var c *chunk[T]
		next := func() {
			select {
			case c = <-free:
			default:
				c = new(chunk[T])
				*c = make(chunk[T], 0, size)
			}
		}
		next()
		stopped := false
		// Before each read of the input, the puzzles read so far go on:
		// what comes from a terminal or a pipe is done at once, not a
		// chunk later, and so is a puzzle followed by endless comments.
		// A regular file's reads do not wait: its chunks stay whole
		// (the lane solver settles a chunk's last puzzles slower), but
		// for every 16 reads (1 MiB) of comments or junk they still go.
		reads := 0
		hand := func() bool {
			reads = 0
			if len(*c) == 0 {
				return true
			}
			if !put(c) {
				stopped = true
				return false
			}
			next()
			return true
		}
		before := hand
		if regular {
			before = func() bool {
				if reads++; reads < 16 {
					return true
				}
				return hand()
			}
		}
		rd := sudoku.NewReader(&ctxReader{ctx: ctx, r: in, before: before})
		for {
			for len(*c) < size {
				it, ok := rd.Next()
				if !ok {
					break
				}
				*c = append(*c, Record[T]{Line: it.Line, Grid: it.Grid, ReadErr: it.Err})
				if it.Err != nil {
					break // a bad puzzle is said at once, not a chunk later
				}
			}
			if stopped {
				return nil
			}
			if len(*c) == 0 {
				if errors.Is(rd.Err(), errStopped) {
					return nil
				}
				return rd.Err()
			}
			if !hand() {
				return nil
			}
		}
	}
	work := func(ctx context.Context, c **chunk[T]) {
		w := works.Get().(chunkWork[T])
		defer works.Put(w)
		// The bad records (a chunk ends at the first) are left out.
		rs := **c
		if n := len(rs); n > 0 && rs[n-1].ReadErr != nil {
			rs = rs[:n-1]
		}
		w(ctx, rs)
	}
	emitChunk := func(c **chunk[T]) error {
		rs := **c
		for i := range rs {
			if err := emit(&rs[i]); err != nil {
				return err
			}
		}
		clear(rs)
		**c = rs[:0]
		select {
		case free <- *c:
		default:
		}
		return nil
	}
	if workers == 1 && regular {
		return pipe.RunInline(ctx, produce, work, emitChunk)
	}
	return pipe.Run(ctx, workers, window, produce, work, emitChunk)
}

// isRegular reports whether r is a regular file, whose reads return at
// once.
func isRegular(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode().IsRegular()
}

// ctxReader is an io.Reader that stops once ctx ends (reading an endless
// input stops within one buffer's read of a cancel) and calls before
// first each time; when before returns false, reading stops with
// errStopped.
type ctxReader struct {
	ctx    context.Context
	r      io.Reader
	before func() bool
}

// errStopped ends the reading of a run that stopped.
var errStopped = errors.New("batch: stopped")

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	if !c.before() {
		return 0, errStopped
	}
	return c.r.Read(p)
}

// SolveOptions tune Solve.
type SolveOptions struct {
	Options
	// Limit is how many solutions to look for in each puzzle; 0 means 2,
	// enough to tell a unique solution from several.
	Limit uint64
	// Solver names the solver variant (sudoku.Variants); "" or "auto" the
	// best.
	Solver string
}

// solveChunk is the number of puzzles a worker of Solve takes at a time.
const solveChunk = 256

// Solve solves every puzzle of in (see Run): each record's Value is the
// number of solutions found (at most the limit) and the first of them.
// It returns an error at once for an unknown or unsupported variant.
func Solve(ctx context.Context, in io.Reader, opt SolveOptions, emit func(*Record[sudoku.Result]) error) error {
	if _, err := sudoku.LookupVariant(opt.Solver); err != nil {
		return err
	}
	return run(ctx, in, sudoku.Workers(opt.Workers), solveChunk, func() chunkWork[sudoku.Result] {
		sv, _ := sudoku.NewSolver(opt.Solver)
		var gs []sudoku.Grid
		var res []sudoku.Result
		return func(ctx context.Context, rs []Record[sudoku.Result]) {
			// The whole chunk at once: some variants settle sixteen
			// puzzles together.
			gs, res = gs[:0], res[:0]
			for i := range rs {
				gs = append(gs, rs[i].Grid)
			}
			res = slices.Grow(res[:0], len(gs))[:len(gs)]
			err := sv.SolveEach(ctx, gs, opt.Limit, res)
			for i := range rs {
				rs[i].Value, rs[i].Err = res[i], err
			}
		}
	}, emit)
}

// Rated is a puzzle's rating as logic.RateWith gives it, and the
// puzzle's solution.
type Rated struct {
	Rating   logic.Rating
	Solution sudoku.Grid
}

// RateOptions tune Rate and Explain.
type RateOptions struct {
	Options
	// Rating chooses the scale (and, for Rate, a limit): see logic.Options.
	Rating logic.Options
}

// Rate rates every puzzle of in (see Run) with logic.RateWith; a puzzle
// it cannot rate (no unique solution) has its error in Err. It returns an
// error at once for an unknown scale.
func Rate(ctx context.Context, in io.Reader, opt RateOptions, emit func(*Record[Rated]) error) error {
	if _, err := logic.ParseScale(string(opt.Rating.Scale)); err != nil {
		return err
	}
	return Run(ctx, in, opt.Options, func() Work[Rated] {
		var sv sudoku.Solver
		return func(ctx context.Context, g *sudoku.Grid) (Rated, error) {
			r, err := logic.RateWith(ctx, *g, opt.Rating)
			if err != nil {
				return Rated{}, err
			}
			_, sol := sv.Solve(g, 1)
			return Rated{Rating: r, Solution: sol}, nil
		}
	}, emit)
}

// Explain explains every puzzle of in (see Run) with logic.ExplainWith
// (opt.Rating.Limit is ignored). It returns an error at once for an
// unknown scale.
func Explain(ctx context.Context, in io.Reader, opt RateOptions, emit func(*Record[logic.Explanation]) error) error {
	if _, err := logic.ParseScale(string(opt.Rating.Scale)); err != nil {
		return err
	}
	return Run(ctx, in, opt.Options, func() Work[logic.Explanation] {
		return func(ctx context.Context, g *sudoku.Grid) (logic.Explanation, error) {
			return logic.ExplainWith(ctx, *g, opt.Rating)
		}
	}, emit)
}

// CountOptions tune Count.
type CountOptions struct {
	// CountOptions are those of each puzzle's count (its Workers: the
	// cores one count uses). Its Progress is not called: Progress is.
	sudoku.CountOptions
	// Progress, if set, is called as sudoku.CountOptions.Progress would
	// be, with the line of the puzzle being counted.
	Progress func(line int, p sudoku.CountProgress)
}

// Count counts the solutions of every puzzle of in with sudoku.Count, one
// puzzle at a time on opt.Workers cores. A count stopped by ctx is
// emitted with its partial result and ctx's error in Err before Count
// returns that error.
func Count(ctx context.Context, in io.Reader, opt CountOptions, emit func(*Record[sudoku.CountResult]) error) error {
	if _, err := sudoku.LookupVariant(opt.Solver); err != nil {
		return err
	}
	return run(ctx, in, 1, 1, onRecord(func() func(context.Context, *Record[sudoku.CountResult]) {
		return func(ctx context.Context, r *Record[sudoku.CountResult]) {
			o := opt.CountOptions
			o.Progress = nil
			if opt.Progress != nil {
				line := r.Line
				o.Progress = func(p sudoku.CountProgress) { opt.Progress(line, p) }
			}
			r.Value, r.Err = sudoku.Count(ctx, r.Grid, o)
		}
	}), emit)
}
