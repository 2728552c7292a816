package join

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"sort"
	"sync"
)

// Frame is one frame of a plan: the queens that fill the band, and the
// number of frames in its class under the 8 symmetries of the square.
type Frame struct {
	Queens [][2]uint8 // (row, column), sorted
	Weight uint64
}

// Board returns the frame's partial board.
func (fr Frame) Board(n int) Board {
	b := Empty(n)
	for _, p := range fr.Queens {
		b.Place(int(p[0]), int(p[1]))
	}
	return b
}

// Task is the unit of work of a plan: the completions of one frame whose
// east queens take exactly the rows Top of the north quadrants (bit i:
// row i).
type Task struct {
	Frame int
	Top   uint32
}

// Plan is an n-queens count cut into join tasks. The same geometry
// always gives the same frames and tasks in the same order.
type Plan struct {
	Geometry Geometry
	Frames   []Frame
	Tasks    []Task
}

// symmetry maps (r, c) on an n×n board: the 8 symmetries of the square.
func symmetry(g, n, r, c int) (int, int) {
	switch g {
	case 1:
		return c, n - 1 - r
	case 2:
		return n - 1 - r, n - 1 - c
	case 3:
		return n - 1 - c, r
	case 4:
		return r, n - 1 - c
	case 5:
		return n - 1 - r, c
	case 6:
		return c, r
	case 7:
		return n - 1 - c, n - 1 - r
	}
	return r, c
}

// ErrSize reports a board size or geometry the join cannot plan.
var ErrSize = errors.New("join: board size or geometry out of range")

// MaxQ is the largest quadrant side the planner accepts: the table for a
// 12×12 quadrant holds about 600 million placements.
const MaxQ = 12

// NewPlan cuts the count of the n×n board into tasks with geometry g: one
// frame per class of band fillings, weighted by the size of its class
// (under the 8 symmetries of the square when g is square, else under the
// 4 that keep columns columns); per frame, one task per set of north
// rows the east queens may take (see frame.tops).
func NewPlan(g Geometry) (*Plan, error) {
	if !Feasible(g) {
		return nil, fmt.Errorf("%w: %s for n = %d (quadrants up to %d×%d, at most %d tasks)", ErrSize, g, g.N, MaxQ, MaxQ, MaxTasks)
	}
	n := g.N
	syms := []int{0, 2, 4, 5} // identity, half turn, the two mirrors
	if g.square() {
		syms = []int{0, 1, 2, 3, 4, 5, 6, 7}
	}
	p := &Plan{Geometry: g}
	type class struct {
		key    string
		queens [][2]uint8
		weight uint64
	}
	var classes []class
	seen := map[string]bool{}
	fillBand(Empty(n), g, func(_ Board, qs [][2]uint8) {
		images := map[string]bool{}
		least := ""
		var leastQs [][2]uint8
		for _, sym := range syms {
			im := make([][2]uint8, len(qs))
			for i, x := range qs {
				r, c := symmetry(sym, n, int(x[0]), int(x[1]))
				im[i] = [2]uint8{uint8(r), uint8(c)}
			}
			slices.SortFunc(im, func(a, b [2]uint8) int { return int(a[0])*64 + int(a[1]) - int(b[0])*64 - int(b[1]) })
			k := string(flatten(im))
			images[k] = true
			if least == "" || k < least {
				least, leastQs = k, im
			}
		}
		if !seen[least] {
			seen[least] = true
			classes = append(classes, class{least, leastQs, uint64(len(images))})
		}
	})
	sort.Slice(classes, func(i, j int) bool { return classes[i].key < classes[j].key })
	// Frames need no tables to list their tasks.
	north, south := &quadTable{h: g.HN, q: g.Q}, &quadTable{h: g.HS, q: g.Q}
	for _, c := range classes {
		fr := Frame{Queens: c.queens, Weight: c.weight}
		f, err := newFrame(fr.Board(n), g, north, south)
		if err != nil {
			return nil, err
		}
		if bits.OnesCount64(f.b.Rows) != bits.OnesCount64(f.b.Cols) {
			continue // no completion: cannot happen for band fillings, kept for safety
		}
		id := len(p.Frames)
		p.Frames = append(p.Frames, fr)
		for _, rt := range f.tops() {
			p.Tasks = append(p.Tasks, Task{Frame: id, Top: rt})
		}
	}
	return p, nil
}

func flatten(qs [][2]uint8) []byte {
	out := make([]byte, 0, 2*len(qs))
	for _, x := range qs {
		out = append(out, x[0], x[1])
	}
	return out
}

// Counter counts the tasks of a plan. It holds the quadrant tables, the
// plan's one large piece of memory, shared by every task and goroutine,
// and builds them in the first task counted (see Count).
type Counter struct {
	plan   *Plan
	kernel Kernel
	mu     sync.Mutex // held while the tables are built
	frames []*frame   // nil until built
}

// NewCounter prepares the counting of p's tasks with kernel k. The
// tables are built by the first Count, so that building them is work of
// a task: reported as progress and given up when its context is done.
func NewCounter(p *Plan, k Kernel) (*Counter, error) {
	g := p.Geometry
	north, south := &quadTable{h: g.HN, q: g.Q}, &quadTable{h: g.HS, q: g.Q}
	for _, fr := range p.Frames {
		if _, err := newFrame(fr.Board(g.N), g, north, south); err != nil {
			return nil, err
		}
	}
	return &Counter{plan: p, kernel: k}, nil
}

// tableWork is the work of walking 2^20 placements when building the
// tables: about the time of as many half boards.
const tableWork = 1 << 20

// Prepare builds the tables now unless they are built, reporting the work
// to progress (if not nil) every few milliseconds; it gives up, leaving
// nothing built, once ctx is done. A Count after it does no table work, so
// the work it returns is its task's own, the same on every Counter: a
// process that counts tasks one by one as they come (a queue worker,
// whose records are compared with another worker's) calls Prepare first.
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
	g := c.plan.Geometry
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
	frames := make([]*frame, len(c.plan.Frames))
	for i, fr := range c.plan.Frames {
		if frames[i], err = newFrame(fr.Board(g.N), g, north, south); err != nil {
			return err
		}
	}
	c.frames = frames
	return nil
}

// Count counts task id: the number of solutions it stands for (weighted
// by its frame's class) and the work done, in half boards made plus items
// run through a block of 512 patterns (plus, for the task that builds the
// tables, a unit per placement walked). It returns to look at ctx and
// calls progress with the work done since its last call every few
// milliseconds, and returns ctx's error (and no count) once ctx is done.
// Count may be called from several goroutines at once.
func (c *Counter) Count(ctx context.Context, id int, progress func(work uint64)) (count, work uint64, err error) {
	yield := func(w uint64) error {
		work += w
		if progress != nil {
			progress(w)
		}
		return ctx.Err()
	}
	if err := c.prepare(ctx, yield); err != nil {
		return 0, work, err
	}
	t := c.plan.Tasks[id]
	f := c.frames[t.Frame]
	s := scratchPool.Get().(*scratch)
	defer scratchPool.Put(s)
	s.k = c.kernel
	s.work = 0
	s.yield = yield
	n, err := f.countTop(t.Top, s)
	s.yield = nil
	if err != nil {
		return 0, work, err
	}
	work += s.work
	if progress != nil && s.work > 0 {
		progress(s.work)
	}
	w := c.plan.Frames[t.Frame].Weight
	hi, lo := bits.Mul64(n, w)
	if hi != 0 {
		return 0, work, fmt.Errorf("%w: %d completions of frame %d times weight %d", ErrOverflow, n, t.Frame, w)
	}
	return lo, work, ctx.Err()
}

// ErrOverflow reports a task whose weighted count does not fit in 64
// bits (far beyond any n the join can reach).
var ErrOverflow = errors.New("join: weighted count overflows 64 bits")

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// WriteHash writes to h what identifies the plan's tasks: its geometry,
// its frames with their weights, and its tasks. Two plans with the same
// writes count the same tasks in the same order.
func (p *Plan) WriteHash(h io.Writer) {
	var buf []byte
	buf = append(buf, p.Geometry.String()...)
	buf = binary.LittleEndian.AppendUint64(buf, uint64(len(p.Frames)))
	for _, fr := range p.Frames {
		buf = binary.LittleEndian.AppendUint64(buf, fr.Weight)
		buf = append(buf, byte(len(fr.Queens)))
		for _, q := range fr.Queens {
			buf = append(buf, q[0], q[1])
		}
	}
	buf = binary.LittleEndian.AppendUint64(buf, uint64(len(p.Tasks)))
	for _, t := range p.Tasks {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(t.Frame))
		buf = binary.LittleEndian.AppendUint32(buf, t.Top)
	}
	h.Write(buf)
}
