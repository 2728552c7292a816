// Package registry keeps the implementations of one thing (the
// backtracking kernels, the join's kernels, the Sudoku solver's variants)
// in the order of their speed, and picks one: the fastest this machine
// supports, or one by name. Each registers itself in its own file's
// init, so that a build includes exactly the implementations it compiles.
package registry

import (
	"fmt"
	"sort"
	"strings"
)

// Info is what the registry needs to know of an implementation.
type Info struct {
	Name string // what a flag takes
	Doc  string // what it uses, in a few words
	// Rank orders implementations from slowest to fastest.
	Rank int
	// Supported reports whether this machine can run it.
	Supported func() bool
}

// Set is a registry of implementations of type T.
type Set[T any] struct {
	what, where string
	info        func(T) Info
	items       []T
}

// New returns an empty registry whose error messages call an
// implementation what ("kernel") and the machine where ("this CPU"); info
// describes an implementation.
func New[T any](what, where string, info func(T) Info) *Set[T] {
	return &Set[T]{what: what, where: where, info: info}
}

// Register adds x, in rank order (registration order among equal ranks).
func (s *Set[T]) Register(x T) {
	s.items = append(s.items, x)
	sort.SliceStable(s.items, func(i, j int) bool { return s.info(s.items[i]).Rank < s.info(s.items[j]).Rank })
}

// All returns every registered implementation, supported here or not,
// slowest first.
func (s *Set[T]) All() []T { return append([]T(nil), s.items...) }

// Best returns the highest ranked implementation this machine supports
// (the first registered one when none is: it must run anywhere).
func (s *Set[T]) Best() T {
	best := s.items[0]
	for _, x := range s.items {
		if s.info(x).Supported() {
			best = x
		}
	}
	return best
}

// Lookup returns the implementation with the given name ("" or "auto":
// Best), or an error naming the choices when there is none or this
// machine cannot run it.
func (s *Set[T]) Lookup(name string) (T, error) {
	if name == "" || name == "auto" {
		return s.Best(), nil
	}
	var zero T
	var names []string
	for _, x := range s.items {
		i := s.info(x)
		if i.Name == name {
			if !i.Supported() {
				return zero, fmt.Errorf("%s %q is not supported by %s (%s)", s.what, name, s.where, i.Doc)
			}
			return x, nil
		}
		names = append(names, i.Name)
	}
	return zero, fmt.Errorf("unknown %s %q (choose auto, %s)", s.what, name, strings.Join(names, ", "))
}
