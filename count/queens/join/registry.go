package join

import "github.com/nqcount/nqcount/internal/registry"

// Kernel is one registered implementation of the join's inner loop: the
// count of the patterns of a block compatible with each of a list of
// items.
type Kernel struct {
	// Name is what --join-kernel takes.
	Name string
	// Doc says what the kernel uses, in a few words.
	Doc string
	// Rank orders kernels from slowest to fastest; Best picks the highest
	// ranked supported one.
	Rank int
	// Supported reports whether this CPU can run the kernel.
	Supported func() bool
	// build fills a block's tables in a layout from up to blockSize
	// patterns of m bits; count returns the sum over items of the block's
	// patterns compatible with each.
	build func(b *block, pats []uint64, m int, lay layout)
	count func(b *block, items []uint64) uint64
	// half is count for blocks of at most blockSize/2 patterns: it reads
	// the first half of the entries only.
	half func(b *block, items []uint64) uint64
	// filter and cross make half boards (see halves); nil: the portable
	// ones.
	filter func(dst *entries, src []uint64, att uint64, pm *patMap) int
	cross  func(a *entries, na int, b *entries, nb int, out []uint64) []uint64
	// pairs counts the pairs of two short lists with no bit in common;
	// they may be read up to vecPad beyond their ends. nil: the portable
	// one.
	pairs func(e, w []uint64) uint64
	// sortKeys and sortOut are the passes of bucket; nil: the portable
	// ones.
	sortKeys func(kr *keyer, pats []uint64, keys []uint32, cnt []int32)
	sortOut  func(kr *keyer, pats []uint64, keys []uint32, start []int32, out []uint64)
}

var kernels = registry.New("join kernel", "this CPU", func(k Kernel) registry.Info {
	return registry.Info{Name: k.Name, Doc: k.Doc, Rank: k.Rank, Supported: k.Supported}
})

func register(k Kernel) {
	if k.filter == nil {
		k.filter = filterGeneric
	}
	if k.cross == nil {
		k.cross = crossGeneric
	}
	if k.pairs == nil {
		k.pairs = pairsGeneric
	}
	if k.sortKeys == nil {
		k.sortKeys, k.sortOut = sortKeysGeneric, sortOutGeneric
	}
	kernels.Register(k)
}

func init() {
	register(Kernel{
		Name:      "generic",
		Doc:       "portable Go, any CPU",
		Rank:      0,
		Supported: func() bool { return true },
		build:     buildGeneric,
		count:     countGeneric,
		half:      countHalfGeneric,
	})
}

// Kernels returns every registered kernel, supported here or not, slowest
// first.
func Kernels() []Kernel { return kernels.All() }

// Best returns the fastest kernel this CPU supports.
func Best() Kernel { return kernels.Best() }

// Lookup returns the kernel with the given name ("" or "auto": Best), or
// an error naming the choices when there is none or this CPU cannot run
// it.
func Lookup(name string) (Kernel, error) { return kernels.Lookup(name) }
