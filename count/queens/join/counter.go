package join

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"
)

// Counter counts the tasks of a layout, on one of two paths:
//
//   - the table path reads every quadrant's placements from tables built
//     once and shared by every task and goroutine (the whole table of a
//     12×12 quadrant takes 5 GB, of a 14×14 one hundreds);
//   - the bounded path builds, for each task, only the placements on its
//     own rows, and joins its row sets within a budget of fixed size per
//     worker (see bounded.go): memory bounded per worker at any n.
//
// Both give every task the same count and the same nodes (its half
// boards), so results of one path check those of the other.
type Counter struct {
	layout  *Layout
	kernel  Kernel
	bounded bool
	arena   int        // the bounded path's arena, in patterns
	keyBits int        // the most index bits a join takes
	mu      sync.Mutex // held while the tables are built
	frames  []*frame   // nil until built
	free    []*bscratch
	freeMu  sync.Mutex
	meter   *Meter // nil: none
}

// CounterOptions choose a Counter's path.
type CounterOptions struct {
	// Bounded picks the bounded path; Arena is then the size of each
	// counting goroutine's arena, in patterns of 8 bytes (0: 1 Mi).
	Bounded bool
	Arena   int
	// KeyBits bounds the index bits of every join (0: MaxKeyBits), so
	// that each goroutine's arrays by key take at most KeyMemory(KeyBits)
	// bytes. The bound changes the work, never the count.
	KeyBits int
	// Meter, if not nil, records each counted task's Work and takes the
	// reference runs it asks for between tasks (Count's, not Sample's).
	Meter *Meter
}

// MaxKeyBits is the most index bits any join takes.
const MaxKeyBits = maxIndexBits

// NewCounter prepares the counting of l's tasks with kernel k. On the
// table path the tables are built by the first Count (or by Prepare), so
// that building them is work of a task: reported as progress and given up
// when its context is done.
func NewCounter(l *Layout, k Kernel, opt CounterOptions) (*Counter, error) {
	g := l.Geometry
	north, south := &quadTable{h: g.HN, q: g.Q}, &quadTable{h: g.HS, q: g.Q}
	frames := make([]*frame, len(l.Frames))
	for i, fr := range l.Frames {
		f, err := newFrame(fr.Board(g.N), g, north, south)
		if err != nil {
			return nil, err
		}
		frames[i] = f
	}
	c := &Counter{layout: l, kernel: k, bounded: opt.Bounded, arena: opt.Arena, keyBits: opt.KeyBits, meter: opt.Meter}
	if c.arena <= 0 {
		c.arena = 1 << 20
	}
	if c.keyBits <= 0 || c.keyBits > maxIndexBits {
		c.keyBits = maxIndexBits
	}
	for _, f := range frames {
		f.maxBits = c.keyBits
	}
	if opt.Bounded {
		c.frames = frames
	}
	return c, nil
}

// Bounded reports whether c counts on the bounded path.
func (c *Counter) Bounded() bool { return c.bounded }

// tableWork is the work of walking 2^20 placements when building the
// tables: about the time of as many half boards.
const tableWork = 1 << 20

// Prepare builds the tables now unless they are built (or the path needs
// none), reporting the work to progress (if not nil) every few
// milliseconds; it gives up, leaving nothing built, once ctx is done.
func (c *Counter) Prepare(ctx context.Context, progress func(work uint64)) error {
	return c.prepare(ctx, func(w uint64) error {
		if progress != nil {
			progress(w)
		}
		return ctx.Err()
	})
}

// prepare builds the tables and frames unless done; the other tasks wait
// for the one that builds them.
func (c *Counter) prepare(ctx context.Context, yield func(uint64) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.frames != nil {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	g := c.layout.Geometry
	tick := func() error { return yield(tableWork) }
	north, err := buildQuadTable(g.HN, g.Q, tick)
	if err != nil {
		return err
	}
	south := north
	if g.HS != g.HN {
		if south, err = buildQuadTable(g.HS, g.Q, tick); err != nil {
			return err
		}
	}
	frames := make([]*frame, len(c.layout.Frames))
	for i, fr := range c.layout.Frames {
		if frames[i], err = newFrame(fr.Board(g.N), g, north, south); err != nil {
			return err
		}
		frames[i].maxBits = c.keyBits
	}
	c.frames = frames
	return nil
}

// Count counts task id: the number of solutions it stands for (weighted
// by its frame's class) and its nodes, the half boards it made. It returns
// to look at ctx every few milliseconds, calling progress (if not nil)
// with the work done since its last call (half boards, items run through
// a block, placements walked), and returns ctx's error (and no count)
// once ctx is done. Count may be called from several goroutines at once.
func (c *Counter) Count(ctx context.Context, id int, progress func(work uint64)) (count, nodes uint64, err error) {
	if c.bounded {
		// The bounded path counts a task as a batch of one (batch.go).
		ns, nodes, err := c.CountBatch(ctx, []int{id}, progress)
		if err != nil {
			return 0, 0, err
		}
		return ns[0], nodes[0], nil
	}
	if id < 0 || id >= c.layout.Len() {
		return 0, 0, fmt.Errorf("join: task %d out of range 0..%d", id, c.layout.Len()-1)
	}
	yield := yielder(ctx, progress)
	if err := c.prepare(ctx, yield); err != nil {
		return 0, 0, err
	}
	if c.meter != nil {
		c.meter.maybeCalibrate(c.kernel)
	}
	t := c.layout.Task(id)
	f := c.frames[t.Frame]
	var n uint64
	s := scratchPool.Get().(*scratch)
	defer scratchPool.Put(s)
	s.k = c.kernel
	s.work = 0
	s.yield = yield
	s.stat = stats{}
	if c.layout.Split == 0 {
		n, err = f.countTop(t.Top, s)
	} else {
		n, err = c.countPart(f, t, s)
	}
	s.yield = nil
	if err != nil {
		return 0, 0, err
	}
	if progress != nil && s.work > 0 {
		progress(s.work)
	}
	if c.meter != nil {
		c.meter.add(s.stat.work(), 1)
	}
	if n, err = c.weigh(t.Frame, n); err != nil {
		return 0, 0, err
	}
	return n, s.stat.halves, ctx.Err()
}

// yielder is what a task calls between slices of its work: it reports
// the work to progress (if not nil) and returns ctx's error.
func yielder(ctx context.Context, progress func(work uint64)) func(uint64) error {
	return func(w uint64) error {
		if progress != nil {
			progress(w)
		}
		return ctx.Err()
	}
}

// weigh returns n completions of frame fr times the frame's weight (the
// size of its class), or ErrOverflow.
func (c *Counter) weigh(fr int, n uint64) (uint64, error) {
	w := c.layout.Frames[fr].Weight
	hi, lo := bits.Mul64(n, w)
	if hi != 0 {
		return 0, fmt.Errorf("%w: %d completions of frame %d times weight %d", ErrOverflow, n, fr, w)
	}
	return lo, nil
}

// countPart counts a split task on the table path: its part of the row
// sets of its top, as countTop counts all of them.
func (c *Counter) countPart(f *frame, t Task, s *scratch) (uint64, error) {
	var total uint64
	for _, rb := range c.layout.southSets(f, t, nil) {
		if w := f.canonical(t.Top, rb); w > 0 {
			n, err := f.countRows(t.Top, rb, s)
			if err != nil {
				return 0, err
			}
			total += w * n
		}
	}
	return total, nil
}

func (c *Counter) getB() *bscratch {
	c.freeMu.Lock()
	defer c.freeMu.Unlock()
	if n := len(c.free); n > 0 {
		s := c.free[n-1]
		c.free = c.free[:n-1]
		return s
	}
	return &bscratch{k: c.kernel, capacity: c.arena}
}

func (c *Counter) putB(s *bscratch) {
	c.freeMu.Lock()
	c.free = append(c.free, s)
	c.freeMu.Unlock()
}

// ErrOverflow reports a task whose weighted count does not fit in 64
// bits (far beyond any n the join can reach).
var ErrOverflow = errors.New("join: weighted count overflows 64 bits")

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}
