package kernel

import (
	"math"

	"github.com/nqcount/nqcount/internal/registry"
)

// Kernel is one registered implementation.
type Kernel struct {
	// Name is what --kernel takes.
	Name string
	// Doc says what the kernel uses, in a few words.
	Doc string
	// Rank orders kernels from slowest to fastest; Best picks the highest
	// ranked supported one.
	Rank int
	// Supported reports whether this CPU can run the kernel.
	Supported func() bool

	// run advances s until it is done or has visited s.limit nodes or
	// more, checking the limit only when it backs up a level, and leaves
	// the stack in s's records (the current level's avail up to date).
	run func(s *Search)
}

// Run advances the search s by at least budget nodes, or to its end, and
// reports whether it is done; then s.Solutions and s.Nodes are final.
// Otherwise s is paused with its explicit stack saved, and the next Run
// (by this kernel or any other) resumes it exactly there, so a search cut
// into slices visits the same nodes and finds the same solutions as one
// run to its end. The budget is checked only when the search backs up a
// level, so a slice may pass it by a little (at most about N³ nodes); a
// budget of 0 still moves the search forward. Run panics if s was never
// Reset successfully.
func (k Kernel) Run(s *Search, budget uint64) (done bool) {
	if !s.started {
		panic("kernel: Run on a Search that was not Reset")
	}
	if s.done {
		return true
	}
	s.limit = s.nodes + budget
	if s.limit < s.nodes {
		s.limit = math.MaxUint64
	}
	k.run(s)
	return s.done
}

// Count counts the completions of f and the nodes visited doing so, in
// one run to the end (use Search and Run to count in slices). It returns
// an error wrapping ErrFrame, and no count, when f fails Frame.Check.
func (k Kernel) Count(f *Frame) (solutions, nodes uint64, err error) {
	var s Search
	if err := s.Reset(f); err != nil {
		return 0, 0, err
	}
	for !k.Run(&s, math.MaxUint64) {
	}
	return s.solutions, s.nodes, nil
}

var kernels = registry.New("kernel", "this CPU", func(k Kernel) registry.Info {
	return registry.Info{Name: k.Name, Doc: k.Doc, Rank: k.Rank, Supported: k.Supported}
})

func register(k Kernel) { kernels.Register(k) }

func init() {
	register(Kernel{
		Name:      "generic",
		Doc:       "portable Go, any CPU",
		Rank:      0,
		Supported: func() bool { return true },
		run:       generic,
	})
}

// All returns every registered kernel, supported here or not, slowest first.
func All() []Kernel { return kernels.All() }

// Best returns the fastest kernel this CPU supports.
func Best() Kernel { return kernels.Best() }

// Lookup returns the kernel with the given name ("" or "auto": Best), or
// an error naming the choices when there is none or this CPU cannot run
// it.
func Lookup(name string) (Kernel, error) { return kernels.Lookup(name) }
