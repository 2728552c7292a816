package sudoku

import "github.com/nqcount/nqcount/internal/registry"

// Variant is one registered implementation of the solver. Every variant
// finds the same solutions and counts; they differ in how they reason and
// guess, and so in speed. Solver and Count (and package batch) take a variant by
// name; the zero Solver and the name "auto" (or "") take the best one
// this machine supports.
type Variant struct {
	// Name is what --solver takes.
	Name string
	// Doc says what the variant does, in a few words.
	Doc string
	// Rank orders variants from slowest to fastest; Best picks the
	// highest ranked supported one.
	Rank int
	// Supported reports whether this CPU and build can run the variant.
	Supported func() bool

	newEngine func() engine
}

var variants = registry.New("solver", "this machine", func(v Variant) registry.Info {
	return registry.Info{Name: v.Name, Doc: v.Doc, Rank: v.Rank, Supported: v.Supported}
})

func register(v Variant) { variants.Register(v) }

func always() bool { return true }

func init() {
	register(Variant{
		Name:      "band",
		Doc:       "row bands only, guesses on cells (the solver before triads), portable Go",
		Rank:      0,
		Supported: always,
		newEngine: func() engine { return new(bandKernel) },
	})
	register(Variant{
		Name:      "triad",
		Doc:       "band and stack configurations, triads, branches on configurations, portable Go",
		Rank:      10,
		Supported: always,
		newEngine: func() engine { return new(triadKernel) },
	})
	// Registered in every build, so that the name means the same
	// everywhere; supported only by amd64 builds without -tags purego, on
	// CPUs with BMI1 and BMI2 (x86-64-v3).
	register(Variant{
		Name:      "triad-bmi2",
		Doc:       "the triad solver propagating in amd64 assembly; needs BMI1 and BMI2, no -tags purego",
		Rank:      20,
		Supported: haveBMI2,
		newEngine: func() engine { return &triadKernel{asm: true} },
	})
	// The lane kernel: its rounds in portable Go (a twin for the tests,
	// slower than triad), and in AVX-512 with triad-bmi2's searches.
	register(Variant{
		Name:      "lanes",
		Doc:       "sixteen puzzles' givens settled at once in rounds over every word, then triad's searches, portable Go (the twin of lanes-avx512)",
		Rank:      5,
		Supported: always,
		newEngine: func() engine { return new(laneKernel) },
	})
	register(Variant{
		Name:      "lanes-avx512",
		Doc:       "sixteen puzzles' givens settled at once with AVX-512 (F, BW, VL, VPOPCNTDQ), then triad-bmi2's searches; no -tags purego",
		Rank:      30,
		Supported: func() bool { return haveAVX512Lanes() && haveBMI2() },
		newEngine: func() engine { return &laneKernel{triadKernel: triadKernel{asm: true}, avx: true} },
	})
}

// Variants returns every registered variant, supported here or not,
// slowest first.
func Variants() []Variant { return variants.All() }

// BestVariant returns the fastest variant this machine supports.
func BestVariant() Variant { return variants.Best() }

// LookupVariant returns the variant with the given name ("" and "auto":
// BestVariant), or an error naming the choices when there is none or this
// machine cannot run it.
func LookupVariant(name string) (Variant, error) { return variants.Lookup(name) }
