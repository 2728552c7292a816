package join

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"sort"
)

// Frame is one frame of a layout: the queens that fill the band, and the
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

// Task is the unit of work of a layout: the completions of one frame
// whose east queens take exactly the rows Top of the north quadrants (bit
// i: row i) and, when the layout splits its tasks, one part of the row
// sets of the south quadrants those rows go with (Part; see
// Layout.Split).
type Task struct {
	Frame int
	Top   uint32
	Part  int
}

// Layout is an n-queens count cut into join tasks: the frames of a
// geometry and, for each, its tasks, in a fixed order with ids from 0 to
// Len()-1. The same geometry and split always give the same tasks in the
// same order. A layout does not hold its tasks: Task computes any of
// them from its id, WriteHash streams them, so that a count of billions
// of row sets plans in megabytes.
type Layout struct {
	Geometry Geometry
	Frames   []Frame
	// Split is the most south row sets a task holds: 0 for all of its
	// top's (one task per frame and top), else each top's row sets, in
	// the order countTop takes them, are cut into parts of Split.
	Split int

	tops  []uint32 // the tops of every frame, frame after frame
	start []int    // start[f]..start[f+1]: frame f's tops in tops
	first []int    // first[i]: the id of top i's first task; first[len(tops)] = Len()
	// parts of a top: C(|free south rows|, |free east columns| - |top|)
	// row sets cut into parts of Split.
}

// ErrSize reports a board size or geometry the join cannot plan.
var ErrSize = errors.New("join: board size or geometry out of range")

// MaxQ is the largest quadrant side a layout accepts: n = 32's (row
// lists keep column sets in 16 bits).
const MaxQ = 16

// maxTasks bounds the tasks of a layout, whose ids are ints (of 32 bits
// on some platforms).
const maxTasks = 1<<31 - 1

// NewLayout cuts the count of the n×n board into tasks with geometry g:
// one frame per class of band fillings, weighted by the size of its class
// (under the 8 symmetries of the square when g is square, else under the
// 4 that keep columns columns); per frame, one task per set of north rows
// the east queens may take (see frame.tops), or, with split > 0, one per
// part of split south row sets of each.
func NewLayout(g Geometry, split int) (*Layout, error) {
	if !g.valid() || g.Q > MaxQ || g.HN > MaxQ+1 || g.HS > MaxQ+1 || split < 0 {
		return nil, fmt.Errorf("%w: %s for n = %d (quadrants up to %d×%d)", ErrSize, g, g.N, MaxQ, MaxQ)
	}
	n := g.N
	syms := []int{0, 2, 4, 5} // identity, half turn, the two mirrors
	if g.square() {
		syms = []int{0, 1, 2, 3, 4, 5, 6, 7}
	}
	l := &Layout{Geometry: g, Split: split}
	type class struct {
		key    string
		queens [][2]uint8
		weight uint64
	}
	var classes []class
	seen := map[string]bool{}
	fillings := 0
	var tooMany bool
	fillBand(Empty(n), g, func(_ Board, qs [][2]uint8) {
		if fillings++; fillings > maxFillings {
			tooMany = true
			return
		}
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
	if tooMany {
		return nil, fmt.Errorf("%w: %s fills its band more than %d ways", ErrSize, g, maxFillings)
	}
	sort.Slice(classes, func(i, j int) bool { return classes[i].key < classes[j].key })
	// Frames need no tables to list their tasks.
	north, south := &quadTable{h: g.HN, q: g.Q}, &quadTable{h: g.HS, q: g.Q}
	l.first = append(l.first, 0)
	for _, c := range classes {
		fr := Frame{Queens: c.queens, Weight: c.weight}
		f, err := newFrame(fr.Board(n), g, north, south)
		if err != nil {
			return nil, err
		}
		if bits.OnesCount64(f.b.Rows) != bits.OnesCount64(f.b.Cols) {
			continue // no completion: cannot happen for band fillings, kept for safety
		}
		l.Frames = append(l.Frames, fr)
		l.start = append(l.start, len(l.tops))
		for _, rt := range f.tops() {
			l.tops = append(l.tops, rt)
			next := l.first[len(l.first)-1] + l.parts(f, rt)
			if next > maxTasks {
				return nil, fmt.Errorf("%w: %s split by %d has more than %d tasks", ErrSize, g, split, maxTasks)
			}
			l.first = append(l.first, next)
		}
	}
	l.start = append(l.start, len(l.tops))
	return l, nil
}

// maxFillings bounds the band fillings a layout lists (a band of width 4
// has millions at n = 20, and is in any case far slower to count than
// the narrow cuts).
const maxFillings = 1 << 22

// parts is the number of tasks of top rt of f.
func (l *Layout) parts(f *frame, rt uint32) int {
	if l.Split == 0 {
		return 1
	}
	k := bits.OnesCount32(f.ce) - bits.OnesCount32(rt)
	sets := binomInt(bits.OnesCount32(f.fb), k)
	if sets == 0 {
		return 1
	}
	return (sets + l.Split - 1) / l.Split
}

// binomInt is C(n, k) for the small n of row sets (0 when k is out of
// range).
func binomInt(n, k int) int {
	if k < 0 || k > n {
		return 0
	}
	r := 1
	for i := 0; i < k; i++ {
		r = r * (n - i) / (i + 1)
	}
	return r
}

// Len is the number of tasks.
func (l *Layout) Len() int { return l.first[len(l.first)-1] }

// Task returns task id (0 <= id < Len()).
func (l *Layout) Task(id int) Task {
	// The top whose tasks hold id: the last i with first[i] <= id.
	i := sort.Search(len(l.tops), func(i int) bool { return l.first[i+1] > id })
	f := sort.Search(len(l.Frames), func(f int) bool { return l.start[f+1] > i })
	return Task{Frame: f, Top: l.tops[i], Part: id - l.first[i]}
}

// Tasks returns every task, in id order: the materialised layout, for
// tests and small counts.
func (l *Layout) Tasks() []Task {
	out := make([]Task, 0, l.Len())
	l.each(func(t Task) { out = append(out, t) })
	return out
}

// each calls f with every task in id order.
func (l *Layout) each(f func(Task)) {
	for fi := range l.Frames {
		for i := l.start[fi]; i < l.start[fi+1]; i++ {
			for p := 0; p < l.first[i+1]-l.first[i]; p++ {
				f(Task{Frame: fi, Top: l.tops[i], Part: p})
			}
		}
	}
}

// southSets appends to out the south row sets of task t of frame f: all
// of its top's (southSets) or, when the layout splits, part t.Part of
// them.
func (l *Layout) southSets(f *frame, t Task, out []uint32) []uint32 {
	out = f.southSets(t.Top, out[:0])
	if l.Split == 0 {
		return out
	}
	lo := min(t.Part*l.Split, len(out))
	hi := min(lo+l.Split, len(out))
	return append(out[:0], out[lo:hi]...)
}

// WriteHash writes to h what identifies the layout's tasks: its geometry,
// its frames with their weights, its split and every task, streamed. Two
// layouts with the same writes count the same tasks in the same order.
// A layout that does not split writes what the plans of the project's
// first join did, so that their checkpoints and shards stay valid.
func (l *Layout) WriteHash(h io.Writer) {
	var buf []byte
	buf = append(buf, l.Geometry.String()...)
	buf = binary.LittleEndian.AppendUint64(buf, uint64(len(l.Frames)))
	for _, fr := range l.Frames {
		buf = binary.LittleEndian.AppendUint64(buf, fr.Weight)
		buf = append(buf, byte(len(fr.Queens)))
		for _, q := range fr.Queens {
			buf = append(buf, q[0], q[1])
		}
	}
	if l.Split > 0 {
		buf = append(buf, "split"...)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(l.Split))
	}
	buf = binary.LittleEndian.AppendUint64(buf, uint64(l.Len()))
	l.each(func(t Task) {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(t.Frame))
		buf = binary.LittleEndian.AppendUint32(buf, t.Top)
		if l.Split > 0 {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(t.Part))
		}
		if len(buf) >= 1<<16 {
			h.Write(buf)
			buf = buf[:0]
		}
	})
	h.Write(buf)
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

func flatten(qs [][2]uint8) []byte {
	out := make([]byte, 0, 2*len(qs))
	for _, x := range qs {
		out = append(out, x[0], x[1])
	}
	return out
}
