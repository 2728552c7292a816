package join

import (
	"fmt"
	"sort"
	"strings"
)

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
	// build fills a block's tables from up to blockSize patterns of m
	// bits; count returns the sum over items of the block's patterns
	// compatible with each.
	build func(b *block, pats []uint64, m int)
	count func(b *block, items []uint64) uint64
}

var registry []Kernel

func register(k Kernel) {
	registry = append(registry, k)
	sort.SliceStable(registry, func(i, j int) bool { return registry[i].Rank < registry[j].Rank })
}

func init() {
	register(Kernel{
		Name:      "generic",
		Doc:       "portable Go, any CPU",
		Rank:      0,
		Supported: func() bool { return true },
		build:     buildGeneric,
		count:     countGeneric,
	})
}

// Kernels returns every registered kernel, supported here or not, slowest
// first.
func Kernels() []Kernel { return append([]Kernel(nil), registry...) }

// Best returns the fastest kernel this CPU supports.
func Best() Kernel {
	best := registry[0]
	for _, k := range registry {
		if k.Supported() {
			best = k
		}
	}
	return best
}

// Lookup returns the kernel with the given name ("" or "auto": Best), or
// an error naming the choices when there is none or this CPU cannot run
// it.
func Lookup(name string) (Kernel, error) {
	if name == "" || name == "auto" {
		return Best(), nil
	}
	var names []string
	for _, k := range registry {
		if k.Name == name {
			if !k.Supported() {
				return Kernel{}, fmt.Errorf("join kernel %q is not supported by this CPU (%s)", name, k.Doc)
			}
			return k, nil
		}
		names = append(names, k.Name)
	}
	return Kernel{}, fmt.Errorf("unknown join kernel %q (choose auto, %s)", name, strings.Join(names, ", "))
}
