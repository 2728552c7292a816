package suite

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Ref is the machine scores are normalised to: the solutions per second
// one worker of it counts at each board size of the suites.
type Ref struct {
	Machine string
	// Rates maps a board size to one worker's solutions per second.
	Rates map[int]float64
}

// Reference is the score's unit: one worker of the project's 2-core
// development machine (AMD EPYC, Zen 5, a virtual machine), kernel bmi2,
// method constellations, planning included. The rates are A000170(n) over
// the times RESULTS.md records for that configuration: the medians of
// three interleaved rounds of `go run ./bench` (2026-11-29) for n = 15, 16
// and 17, and one run of `nqueens count 18 --workers 1` for n = 18. They
// are fixed: when the kernels get faster, that machine's score rises
// above 1.
var Reference = Ref{
	Machine: "one worker of the 2-core AMD EPYC (Zen 5) development VM, kernel bmi2, as of 2026-11-29",
	Rates: map[int]float64{
		15: 2279184 / 0.139,
		16: 14772512 / 0.807,
		17: 95815104 / 5.233,
		18: 666090624 / 35.24,
	},
}

// Score is the geometric mean over the sizes in rates of rates[n] over
// the reference's rate at n: how many reference workers the rates are
// worth. It is 0 when rates is empty or has a size the reference lacks.
func (r Ref) Score(rates map[int]float64) float64 {
	if len(rates) == 0 {
		return 0
	}
	var sum float64
	for n, v := range rates {
		ref, ok := r.Rates[n]
		if !ok || ref <= 0 || v <= 0 {
			return 0
		}
		sum += math.Log(v / ref)
	}
	return math.Exp(sum / float64(len(rates)))
}

func (r Ref) String() string {
	ns := make([]int, 0, len(r.Rates))
	for n := range r.Rates {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	var parts []string
	for _, n := range ns {
		parts = append(parts, fmt.Sprintf("n = %d: %s", n, rate(r.Rates[n])))
	}
	return fmt.Sprintf("%s (solutions/s %s)", r.Machine, strings.Join(parts, ", "))
}
