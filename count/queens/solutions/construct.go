package solutions

import "fmt"

// Construct returns a solution for n queens built in O(n) time by the
// classical explicit construction (Hoffman, Loessi and Moore, 1969; as
// usually stated: even numbers then odd numbers, with fixes when n mod 6
// is 2 or 3). It works for n = 1 and every n >= 4; for n = 2 and 3, which
// have no solution, it returns an error.
func Construct(n int) ([]int, error) {
	switch {
	case n < 1:
		return nil, fmt.Errorf("n = %d: a board needs at least one row", n)
	case n == 1:
		return []int{0}, nil
	case n < 4:
		return nil, ErrNoSolution
	}
	// Work with 1-based numbers, as the construction is stated, and
	// convert at the end.
	cols := make([]int, 0, n)
	evens := func(skip2 bool) {
		for k := 2; k <= n; k += 2 {
			if !(skip2 && k == 2) {
				cols = append(cols, k)
			}
		}
	}
	odds := func(from int) {
		for k := from; k <= n; k += 2 {
			cols = append(cols, k)
		}
	}
	switch n % 6 {
	case 2:
		// Evens, then 3, 1, the odds from 7, and 5 last.
		evens(false)
		cols = append(cols, 3, 1)
		odds(7)
		cols = append(cols, 5)
	case 3:
		// Evens from 4, then 2; odds from 5, then 1, 3.
		evens(true)
		cols = append(cols, 2)
		odds(5)
		cols = append(cols, 1, 3)
	default:
		evens(false)
		odds(1)
	}
	for i := range cols {
		cols[i]--
	}
	return cols, nil
}
