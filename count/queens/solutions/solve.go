package solutions

import (
	"context"
	"fmt"
	"strings"
)

// Method is how Solve finds its solution.
type Method string

// The methods of Solve.
const (
	// Auto searches for small boards (n <= AutoSearchMax) within the node
	// limit, and constructs otherwise or when the search gives up.
	Auto Method = "auto"
	// BySearch backtracks to the lexicographically first solution, the one
	// the textbooks find.
	BySearch Method = "search"
	// ByConstruction builds a solution with Construct in O(n).
	ByConstruction Method = "construct"
)

// AutoSearchMax is the largest n for which Auto tries a search.
const AutoSearchMax = 30

// DefaultNodeLimit is the node limit of Auto's search: about a tenth of a
// second's work. Every n <= AutoSearchMax but 30 (56,429,619 nodes) finds
// its first solution within it.
const DefaultNodeLimit = 10_000_000

// ParseMethod reads a method name: auto, search or construct.
func ParseMethod(s string) (Method, error) {
	switch m := Method(strings.ToLower(strings.TrimSpace(s))); m {
	case Auto, BySearch, ByConstruction:
		return m, nil
	}
	return "", fmt.Errorf("unknown method %q: choose auto, search or construct", s)
}

// Search returns the lexicographically first solution for n queens,
// 1 <= n <= MaxN, found by backtracking, and the number of queens it placed.
// It gives up with ErrNodeLimit after maxNodes placements (0: no limit),
// returns ctx's error if ctx is cancelled first, and returns ErrNoSolution
// for n = 2 and 3.
func Search(ctx context.Context, n int, maxNodes uint64) ([]int, uint64, error) {
	e, err := NewEnumerator(n)
	if err != nil {
		return nil, 0, err
	}
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	e.SetNodeLimit(maxNodes)
	defer context.AfterFunc(ctx, e.Stop)()
	if e.Next() {
		return append([]int(nil), e.Cols()...), e.Nodes(), nil
	}
	if e.Err() == ErrStopped {
		return nil, e.Nodes(), ctx.Err()
	}
	if e.Err() != nil {
		return nil, e.Nodes(), e.Err()
	}
	return nil, e.Nodes(), ErrNoSolution
}

// Solve returns one solution for n queens and the method that found it
// (BySearch or ByConstruction). With Auto and BySearch, maxNodes limits the
// search (0: DefaultNodeLimit for Auto, no limit for BySearch). Every
// solution is checked with Verify before it is returned. n = 2 and 3 give
// ErrNoSolution. A search stops with ctx's error when ctx is cancelled.
func Solve(ctx context.Context, n int, m Method, maxNodes uint64) ([]int, Method, error) {
	if n < 1 {
		return nil, m, fmt.Errorf("n = %d: a board needs at least one row", n)
	}
	var cols []int
	var err error
	used := m
	switch m {
	case Auto:
		if maxNodes == 0 {
			maxNodes = DefaultNodeLimit
		}
		used = ByConstruction
		if n <= AutoSearchMax {
			cols, _, err = Search(ctx, n, maxNodes)
			used = BySearch
			if err == ErrNodeLimit {
				cols, err = Construct(n)
				used = ByConstruction
			}
		} else {
			cols, err = Construct(n)
		}
	case BySearch:
		if n > MaxN {
			return nil, m, fmt.Errorf("n = %d is too large to search: search handles 1 to %d (use the construction)", n, MaxN)
		}
		cols, _, err = Search(ctx, n, maxNodes)
	case ByConstruction:
		cols, err = Construct(n)
	default:
		return nil, m, fmt.Errorf("unknown method %q", m)
	}
	if err != nil {
		return nil, used, err
	}
	if err := Verify(cols); err != nil {
		// A bug, never an answer.
		return nil, used, fmt.Errorf("internal error: %s solution for n = %d fails verification: %v", used, n, err)
	}
	return cols, used, nil
}
