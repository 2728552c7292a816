package solutions

// The 8 symmetries of the square act on a solution cols (queen of row r in
// column cols[r]) as follows; the image is again a solution.
//
//	0 identity            q[r] = p[r]
//	1 mirror left-right   q[r] = n-1-p[r]
//	2 mirror top-bottom   q[r] = p[n-1-r]
//	3 rotate 180°         q[r] = n-1-p[n-1-r]
//	4 transpose           q[p[r]] = r
//	5 anti-transpose      q[n-1-p[r]] = n-1-r
//	6 rotate 90°          q[p[r]] = n-1-r
//	7 rotate 270°         q[n-1-p[r]] = r

// Symmetries is the number of symmetries of the square.
const Symmetries = 8

// Image writes into dst (len(dst) >= len(cols)) the image of solution cols
// under symmetry g, 0 <= g < 8 (0 is the identity; 1 to 3 are the mirrors
// and the half turn; 4 and 5 the diagonal reflections; 6 and 7 the quarter
// turns), and returns dst[:len(cols)].
func Image(dst, cols []int, g int) []int {
	n := len(cols)
	q := dst[:n]
	m := n - 1
	switch g {
	case 0:
		copy(q, cols)
	case 1:
		for r, c := range cols {
			q[r] = m - c
		}
	case 2:
		for r, c := range cols {
			q[m-r] = c
		}
	case 3:
		for r, c := range cols {
			q[m-r] = m - c
		}
	case 4:
		for r, c := range cols {
			q[c] = r
		}
	case 5:
		for r, c := range cols {
			q[m-c] = m - r
		}
	case 6:
		for r, c := range cols {
			q[c] = m - r
		}
	case 7:
		for r, c := range cols {
			q[m-c] = r
		}
	default:
		panic("solutions.Image: symmetry out of range")
	}
	return q
}

// less reports whether a < b in lexicographic order (same lengths).
func less(a, b []int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// IsCanonical reports whether cols is the canonical solution of its
// symmetry class: no image of it under the 8 symmetries of the square is
// lexicographically smaller. scratch must have room for len(cols) values
// (nil allocates).
func IsCanonical(cols, scratch []int) bool {
	if len(scratch) < len(cols) {
		scratch = make([]int, len(cols))
	}
	for g := 1; g < Symmetries; g++ {
		if less(Image(scratch, cols, g), cols) {
			return false
		}
	}
	return true
}

// Canonical returns the canonical representative of the symmetry class of
// solution cols: the lexicographically smallest of its 8 images. The result
// is a new slice.
func Canonical(cols []int) []int {
	best := append([]int(nil), cols...)
	img := make([]int, len(cols))
	for g := 1; g < Symmetries; g++ {
		if less(Image(img, cols, g), best) {
			copy(best, img)
		}
	}
	return best
}
