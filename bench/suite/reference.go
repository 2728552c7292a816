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
// development machine (AMD EPYC, Zen 5, with BMI2), kernel bmi2, measured
// with `nqueens bench --workers 1 --rounds 5` (and --quick for n = 15) at
// a quiet moment; RESULTS.md has the run. It is fixed: rerunning on that
// machine after the kernels get faster gives it a score above 1.
var Reference = Ref{
	Machine: "one worker of AMD EPYC (2-core VM, Zen 5), kernel bmi2, nqcount of 2026-11-30",
	Rates: map[int]float64{
		15: 16.4e6,
		16: 18.3e6,
		17: 18.3e6,
		18: 18.9e6,
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
