package queens

import (
	"fmt"
	"strings"

	"github.com/nqcount/nqcount/count/queens/join"
	"github.com/nqcount/nqcount/count/queens/kernel"
)

// Method is a way of cutting the search into weighted tasks.
type Method string

const (
	// Constellations pre-places the queens of the four border lines (top
	// and bottom row, left and right column), keeps one placement per
	// class under the 8 symmetries of the square and weights it by the
	// size of its class. Every solution has exactly one border placement,
	// so the weighted sum is exact with no test at the leaves, and the
	// border queens below the current row prune the search from its first
	// row on. The default, and the fastest.
	Constellations Method = "constellations"
	// Halving is the classic method: the first row's queen in the left
	// half, counted twice by mirror symmetry (the middle column of an odd
	// board once), and the first rows enumerated as prefix tasks. Kept as
	// the baseline the benchmarks compare against.
	Halving Method = "halving"
	// Join counts without walking the search tree to its leaves: it lists
	// the partial solutions of the board's quadrants once, pairs them into
	// half boards, and counts the pairs of half boards with no diagonal in
	// common (meet in the middle; package join). Its work grows more
	// slowly with n than any backtracker's, at the price of memory for
	// the quadrant tables, or for bounded memory its bounded path (see
	// Execution.Memory). The fastest from n = 12 but 13; see
	// DefaultMethod.
	Join Method = "join"
	// Auto is not a method: it asks for the fastest method for n (see
	// DefaultMethod).
	Auto Method = "auto"
)

// Methods lists the methods.
var Methods = []Method{Constellations, Halving, Join}

// isJoinKernel reports whether name is registered among the join
// kernels, supported by this CPU or not.
func isJoinKernel(name string) bool {
	for _, k := range join.Kernels() {
		if k.Name == name {
			return true
		}
	}
	return false
}

// isBacktrackKernel reports whether name is registered among the
// backtracking kernels, supported by this CPU or not.
func isBacktrackKernel(name string) bool {
	for _, k := range kernel.All() {
		if k.Name == name {
			return true
		}
	}
	return false
}

func joinNames() []string {
	var out []string
	for _, k := range join.Kernels() {
		out = append(out, k.Name)
	}
	return out
}

func backtrackNames() []string {
	var out []string
	for _, k := range kernel.All() {
		out = append(out, k.Name)
	}
	return out
}

// kernelNames lists names for a message: "a, b or c".
func kernelNames(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// ParseMethod checks a method name; "auto" gives Auto.
func ParseMethod(s string) (Method, error) {
	if s == string(Auto) {
		return Auto, nil
	}
	for _, m := range Methods {
		if string(m) == s {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown method %q (choose auto, %s, %s or %s)", s, Constellations, Halving, Join)
}
