package suite

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/nqcount/nqcount/count/queens"
	"github.com/nqcount/nqcount/internal/cli"
)

// Ref is the machine scores are normalised to: the solutions per second
// one worker of it counts with each method at each board size of the
// suites.
type Ref struct {
	Machine string
	// Rates maps a workload's board size to one worker's solutions per
	// second.
	Rates map[Size]float64
}

// Reference is the score's unit: one worker of the project's 2-core
// development machine (AMD EPYC, Zen 4, a virtual machine), planning
// included. For the constellations (kernel bmi2) the rates are A000170(n)
// over the times RESULTS.md records for that configuration: the medians
// of three interleaved rounds of `go run ./bench` (2026-11-29) for n = 15,
// 16 and 17, and one run of `nqueens count 18 --workers 1` for n = 18.
// For the join (kernel avx512) they are A000170(n) over the median CPU
// time of three runs of `nqueens count N --method join --workers 1`
// (2026-12-01, RESULTS.md, "nqueens bench"). They are fixed: when the
// kernels get faster, that machine's score rises above 1.
var Reference = Ref{
	Machine: "one worker of the 2-core AMD EPYC (Zen 4) development VM, kernels bmi2 (constellations, 2026-11-29) and avx512 (join, 2026-12-01)",
	Rates: map[Size]float64{
		{queens.Constellations, 15}: 2279184 / 0.139,
		{queens.Constellations, 16}: 14772512 / 0.807,
		{queens.Constellations, 17}: 95815104 / 5.233,
		{queens.Constellations, 18}: 666090624 / 35.24,
		{queens.Join, 16}:           14772512 / 0.110,
		{queens.Join, 17}:           95815104 / 0.50,
		{queens.Join, 18}:           666090624 / 1.80,
		{queens.Join, 19}:           4968057848 / 16.0,
	},
}

// Score is the geometric mean over the sizes in rates of their rate over
// the reference's: how many reference workers the rates are worth. It is
// 0 when rates is empty or has a size the reference lacks.
func (r Ref) Score(rates map[Size]float64) float64 {
	if len(rates) == 0 {
		return 0
	}
	var sum float64
	for sz, v := range rates {
		ref, ok := r.Rates[sz]
		if !ok || ref <= 0 || v <= 0 {
			return 0
		}
		sum += math.Log(v / ref)
	}
	return math.Exp(sum / float64(len(rates)))
}

// String names the machine and lists its rates, per method.
func (r Ref) String() string {
	sizes := make([]Size, 0, len(r.Rates))
	for sz := range r.Rates {
		sizes = append(sizes, sz)
	}
	slices.SortFunc(sizes, func(a, b Size) int { return cmp.Or(cmp.Compare(a.Method, b.Method), cmp.Compare(a.N, b.N)) })
	var parts []string
	for _, sz := range sizes {
		parts = append(parts, fmt.Sprintf("%s n = %d: %s", sz.Method, sz.N, cli.Rate(r.Rates[sz])))
	}
	return fmt.Sprintf("%s (solutions/s %s)", r.Machine, strings.Join(parts, ", "))
}
